/*
 * rtl8139.c — driver for the Realtek RTL8139 fast-Ethernet card as QEMU
 * emulates it (PCI 10ec:8139; QEMU's model is the 8139C+, used here in
 * the classic "C mode": receive ring and four transmit descriptors).
 *
 * QEMU flags that create the device (`./hako boot --net hub` adds them):
 *   -netdev hubport,id=hako-n0,hubid=0
 *   -device rtl8139,netdev=hako-n0,mac=52:54:00:48:4b:01,romfile=
 *
 * Sources: Realtek RTL8139C(L) datasheet (registers, receive buffer
 * header, transmit status) and QEMU's hw/net/rtl8139.c for what the model
 * does (which writes it ignores, when it holds frames back).
 *
 * Registers are reached through BAR1 (memory-mapped; BAR0 is the same
 * 256 bytes in I/O space).  Receive: one contiguous ring of 8 KiB that the
 * card fills with [status16 length16 frame FCS] records, each aligned to 4
 * bytes.  WRAP is set and 16 + 1536 bytes are allocated past the ring's
 * end, so a record that starts near the end is written on, past it, in
 * one piece, and the driver never reassembles a frame; the next record
 * starts back at the ring's beginning.  CAPR (the read pointer) is written
 * 16 bytes short of the next record, as the chip expects.  Transmit: four
 * descriptors (TSAD address, TSD size and status) used round robin, each
 * with a 2 KiB buffer of its own that the frame is copied into.
 *
 * Interrupts: the chip has no MSI, so INTx through the I/O APIC (nic.c),
 * possibly shared.  ack reads ISR, keeps the bits this driver enabled
 * (none: not ours) and writes them back to clear them; work drains the
 * ring and reclaims finished descriptors.  RXOVW is enabled, so a full
 * ring is reported and MPC (missed packets) is added to rx_dropped.  The
 * chip loses those frames; QEMU 7.2's model does not: it refuses the frame
 * (RXOVW, MPC + 1) and its network queue offers it again after the next
 * CAPR write (with RXOVW masked it just holds frames back silently); a
 * QEMU hub then delivers the next frame before the refused one.
 *
 * Not handled: transmit-abort retry (an aborted frame is counted as an
 * error), early-transmit tuning, multicast filtering (MAR), C+ mode.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <arch/arch.h>
#include <errno.h>
#include <kprintf.h>
#include <driver.h>
#include <nic.h>
#include <pci.h>
#include <pmm.h>
#include "rtl8139.h"
#include <vm.h>

/* Registers (offsets into BAR1). */
#define REG_IDR0     0x00   /* MAC address, 6 bytes */
#define REG_TSD0     0x10   /* transmit status of descriptor 0..3, 32-bit each */
#define REG_TSAD0    0x20   /* transmit start address of descriptor 0..3 */
#define REG_RBSTART  0x30   /* receive buffer start (physical, 32-bit) */
#define REG_CR       0x37   /* command, 8-bit */
#define REG_CAPR     0x38   /* current address of packet read (minus 16), 16-bit */
#define REG_CBR      0x3a   /* current buffer address: the card's write offset */
#define REG_IMR      0x3c   /* interrupt mask, 16-bit */
#define REG_ISR      0x3e   /* interrupt status, write 1 to clear, 16-bit */
#define REG_TCR      0x40   /* transmit configuration */
#define REG_RCR      0x44   /* receive configuration */
#define REG_MPC      0x4c   /* missed-packet counter, 24 bits, write clears */
#define REG_CFG9346  0x50   /* EEPROM command: unlocks the CONFIG registers */
#define REG_CONFIG1  0x52   /* power management, LED modes */
#define REG_MSR      0x58   /* media status */

#define TSD(i)  (REG_TSD0 + 4 * (i))     /* descriptor i's status */
#define TSAD(i) (REG_TSAD0 + 4 * (i))    /* descriptor i's buffer address */

/* CR bits. */
#define CR_BUFE   0x01      /* receive buffer empty (read only) */
#define CR_TE     0x04      /* transmitter enable */
#define CR_RE     0x08      /* receiver enable */
#define CR_RST    0x10      /* software reset; reads 1 until done */

/* IMR / ISR bits. */
#define INT_ROK     0x0001  /* a frame was received */
#define INT_RER     0x0002  /* receive error (CRC, alignment) */
#define INT_TOK     0x0004  /* a frame was sent */
#define INT_TER     0x0008  /* transmit error (abort, underrun) */
#define INT_RXOVW   0x0010  /* receive buffer overflow: frames lost */
#define INT_LINKCHG 0x0020  /* link change / packet underrun */
#define INT_FOVW    0x0040  /* receive FIFO overflow */
#define INT_SERR    0x8000  /* PCI system error */
/* The causes this driver enables (IMR) and acknowledges. */
#define INT_ENABLED (INT_ROK | INT_RER | INT_TOK | INT_TER | INT_RXOVW | INT_LINKCHG | \
		     INT_FOVW | INT_SERR)

/* TSD bits. */
#define TSD_SIZE  0x1fff    /* bytes to send */
#define TSD_OWN   0x2000    /* DMA to the FIFO done: the buffer is free again */
#define TSD_TUN   0x4000    /* transmit FIFO underrun */
#define TSD_TOK   0x8000    /* frame sent */
#define TSD_TABT  (1u << 30)   /* transmission aborted */

/* RCR bits. */
#define RCR_APM        0x02        /* accept frames to our MAC */
#define RCR_AB         0x08        /* accept broadcast */
#define RCR_WRAP       0x80        /* write past the ring's end instead of wrapping */
#define RCR_MXDMA_ALL  (7u << 8)   /* unlimited receive DMA burst */
#define RCR_RBLEN_8K   (0u << 11)  /* ring of 8 KiB + 16 */
#define RCR_RXFTH_NONE (7u << 13)  /* no FIFO threshold: DMA whole frames */

/* TCR bits. */
#define TCR_MXDMA_2K   (7u << 8)   /* transmit DMA burst 2048 bytes */
#define TCR_IFG_STD    (3u << 24)  /* standard 9.6 us inter-frame gap */

/* Receive header status bits. */
#define RXS_ROK   0x0001    /* frame received intact */

#define CFG9346_UNLOCK 0xc0 /* CONFIG registers writable */
#define CFG9346_LOCK   0x00 /* normal operation: CONFIG registers read only */
#define MSR_LINKB      0x04 /* link is down (inverse) */

#define RX_RING   8192                   /* RBLEN 8K */
#define RX_ALLOC  (RX_RING + 16 + 1536)  /* room for a record written past the end */
#define RX_PAGES  ((RX_ALLOC + PAGE_SIZE - 1) / PAGE_SIZE)   /* the ring's allocation */
#define TX_SLOTS  4                      /* transmit descriptors (TSD0-3) */
#define TX_SLOT   2048                   /* bytes of buffer per descriptor */
#define TX_PAGES  (TX_SLOTS * TX_SLOT / PAGE_SIZE)
#define RTL8139_MAX 4                    /* cards this driver attaches */
#define RESET_NS  100000000ull           /* 100 ms for a reset */

struct rtl8139 {
	struct nic nic;
	volatile uint8_t *regs;
	uint8_t *rx_ring;
	uint64_t rx_phys;
	uint32_t rx_off;           /* offset of the next record */
	uint8_t *tx_buf;
	uint64_t tx_phys;
	int tx_head, tx_tail, tx_busy;   /* next slot to fill, oldest in flight, in flight */
	uint16_t imr;              /* bits enabled: ack keeps only these */
};

static struct rtl8139 cards[RTL8139_MAX];

static uint8_t rd8(struct rtl8139 *r, unsigned off) { return r->regs[off]; }
static uint16_t rd16(struct rtl8139 *r, unsigned off) { return *(volatile uint16_t *)(r->regs + off); }
static uint32_t rd32(struct rtl8139 *r, unsigned off) { return *(volatile uint32_t *)(r->regs + off); }
static void wr8(struct rtl8139 *r, unsigned off, uint8_t v) { r->regs[off] = v; }
static void wr16(struct rtl8139 *r, unsigned off, uint16_t v) { *(volatile uint16_t *)(r->regs + off) = v; }
static void wr32(struct rtl8139 *r, unsigned off, uint32_t v) { *(volatile uint32_t *)(r->regs + off) = v; }

/* ---- first half: acknowledge, return the volatile status ----------------- */

static uint32_t rtl_ack(struct nic *n)
{
	struct rtl8139 *r = n->priv;
	uint16_t isr = rd16(r, REG_ISR) & r->imr;
	if (isr)
		wr16(r, REG_ISR, isr);
	return isr;
}

/* ---- second half: receive ring, transmit slots ---------------------------- */

/*
 * Receiver (re)start: ring address, receiver and transmitter on, then RCR
 * (QEMU puts its ring pointers back to 0 on an RCR write) and CAPR at the
 * ring's start (minus 16).  Also how a ring that lost its framing restarts.
 */
static void rx_start(struct rtl8139 *r)
{
	wr8(r, REG_CR, CR_TE);
	wr32(r, REG_RBSTART, (uint32_t)r->rx_phys);
	wr8(r, REG_CR, CR_RE | CR_TE);
	wr32(r, REG_RCR, RCR_APM | RCR_AB | RCR_WRAP | RCR_MXDMA_ALL | RCR_RBLEN_8K | RCR_RXFTH_NONE);
	wr16(r, REG_CAPR, (uint16_t)-16);
	r->rx_off = 0;
}

/* One record at rx_off; false if its header makes no sense. */
static bool rx_one(struct rtl8139 *r)
{
	const uint8_t *rec = r->rx_ring + r->rx_off;
	barrier();                                     /* read the record after CR said it is there */
	uint16_t status = rec[0] | rec[1] << 8;
	uint16_t len = rec[2] | rec[3] << 8;           /* frame + 4-byte FCS */
	if (!(status & RXS_ROK) || len < ETH_HLEN + 4 || len > ETH_FRAME_MAX + 8)   /* + VLAN tag */
		return false;
	nic_deliver(&r->nic, rec + 4, len - 4u);
	r->rx_off = (r->rx_off + 4 + len + 3) & ~3u & (RX_RING - 1);
	wr16(r, REG_CAPR, (uint16_t)(r->rx_off - 16));
	return true;
}

static void rtl_rx_work(struct nic *n, uint32_t status)
{
	struct rtl8139 *r = n->priv;
	if (status & (INT_RXOVW | INT_FOVW)) {
		n->stats.rx_dropped += rd32(r, REG_MPC) & 0xffffff;
		wr32(r, REG_MPC, 0);
	}
	if (status & INT_LINKCHG)
		n->link_up = !(rd8(r, REG_MSR) & MSR_LINKB);
	while (!(rd8(r, REG_CR) & CR_BUFE) && nic_rx_room(n)) {
		if (!rx_one(r)) {
			n->stats.rx_errors++;
			kprintf("%s: bad receive header at %u, receiver restarted\n", n->name, r->rx_off);
			rx_start(r);
			break;
		}
	}
}

static void rtl_tx_work(struct nic *n, uint32_t status)
{
	struct rtl8139 *r = n->priv;
	while (r->tx_busy > 0) {
		uint32_t tsd = rd32(r, TSD(r->tx_tail));
		if (!(tsd & (TSD_TOK | TSD_TUN | TSD_TABT)))
			break;
		if (tsd & TSD_TOK)
			n->stats.tx++;
		else
			n->stats.tx_errors++;
		r->tx_tail = (r->tx_tail + 1) % TX_SLOTS;
		r->tx_busy--;
	}
}

/* ---- operations ----------------------------------------------------------- */

/* Caller holds tx_lock.  Writing TSD (own bit clear) starts the transmission. */
static int rtl_send(struct nic *n, const void *frame, size_t len)
{
	struct rtl8139 *r = n->priv;
	if (r->tx_busy == TX_SLOTS)
		return -EAGAIN;
	int slot = r->tx_head;
	size_t size = nic_copy_padded(r->tx_buf + slot * TX_SLOT, frame, len);
	barrier();                                     /* the frame is in memory first */
	wr32(r, TSD(slot), (uint32_t)size & TSD_SIZE);
	r->tx_head = (slot + 1) % TX_SLOTS;
	r->tx_busy++;
	return 0;
}

static void rtl_irq_enable(struct nic *n, bool on)
{
	struct rtl8139 *r = n->priv;
	r->imr = on ? INT_ENABLED : 0;
	wr16(r, REG_IMR, r->imr);
}

static const struct nic_ops rtl_ops = {
	.send = rtl_send,
	.ack = rtl_ack,
	.rx_work = rtl_rx_work,
	.tx_work = rtl_tx_work,
	.irq_enable = rtl_irq_enable,
};

/* ---- bring-up ------------------------------------------------------------- */

static bool reset_done(void *r) { return !(rd8(r, REG_CR) & CR_RST); }

static int chip_reset(struct rtl8139 *r)
{
	wr8(r, REG_CFG9346, CFG9346_UNLOCK);
	wr8(r, REG_CONFIG1, 0);                        /* power on: out of sleep / power-down */
	wr8(r, REG_CFG9346, CFG9346_LOCK);
	wr8(r, REG_CR, CR_RST);
	return nic_spin_until(reset_done, r, RESET_NS);
}

/* Rings in place, receiver and transmitter on, interrupts masked. */
static void chip_start(struct rtl8139 *r)
{
	wr16(r, REG_IMR, 0);
	wr16(r, REG_ISR, 0xffff);
	for (int i = 0; i < TX_SLOTS; i++)
		wr32(r, TSAD(i), (uint32_t)(r->tx_phys + i * TX_SLOT));
	rx_start(r);
	wr32(r, REG_TCR, TCR_MXDMA_2K | TCR_IFG_STD);  /* only writable with TE on */
	wr32(r, REG_MPC, 0);
	r->nic.link_up = !(rd8(r, REG_MSR) & MSR_LINKB);
}

static int attach(struct pci_device *d, int index)
{
	struct rtl8139 *r = &cards[index];
	if (d->bar[1].io || !d->bar[1].addr || d->bar[1].size < 256)
		return -ENODEV;                            /* no memory-mapped registers */
	r->regs = vm_map_mmio(d->bar[1].addr, 256);
	if (!r->regs)
		return -ENOMEM;
	pci_enable_bus_master(d);
	int err = chip_reset(r);
	if (err < 0)
		return err;
	for (int i = 0; i < ETH_ALEN; i++)
		r->nic.mac[i] = rd8(r, REG_IDR0 + i);
	void *rx, *tx;
	r->rx_phys = nic_dma_alloc(RX_PAGES, &rx);
	r->tx_phys = r->rx_phys ? nic_dma_alloc(TX_PAGES, &tx) : 0;
	if (!r->tx_phys) {
		if (r->rx_phys)
			pmm_free_contig(r->rx_phys, RX_PAGES);
		return -ENOMEM;
	}
	r->rx_ring = rx;
	r->tx_buf = tx;
	chip_start(r);
	r->nic.priv = r;
	err = nic_register(&r->nic, "rtl8139", index, d, &rtl_ops);
	if (err < 0) {
		wr8(r, REG_CR, 0);                         /* no more DMA into the rings */
		pmm_free_contig(r->rx_phys, RX_PAGES);
		pmm_free_contig(r->tx_phys, TX_PAGES);
	}
	return err;
}

static void rtl8139_probe(void)
{
	nic_probe_pci("rtl8139", RTL8139_VENDOR, RTL8139_DEVICE, RTL8139_MAX, attach);
}

DRIVER(rtl8139, rtl8139_probe, 20);
