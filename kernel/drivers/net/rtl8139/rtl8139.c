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
 * (none: not ours) and writes them back to clear them; work takes up to
 * NIC_RX_BUDGET records from the ring (the caller comes back for the rest)
 * and reclaims finished descriptors.  RXOVW is enabled, so a full
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
#include <drvenv.h>
#include <nic_driver.h>
#include "rtl8139.h"

/* The causes this driver enables (IMR) and acknowledges. */
#define INT_ENABLED (INT_ROK | INT_RER | INT_TOK | INT_TER | INT_RXOVW | INT_LINKCHG | \
		     INT_FOVW | INT_SERR)

#define RX_RING   8192                   /* RBLEN 8K */
#define RX_ALLOC  (RX_RING + 16 + 1536)  /* room for a record written past the end */
#define TX_SLOTS  4                      /* transmit descriptors (TSD0-3) */
#define TX_SLOT   2048                   /* bytes of buffer per descriptor */
#define RTL8139_MAX 4                    /* cards this driver attaches */
#define RESET_NS  100000000ull           /* 100 ms for a reset */

/* What a card is granted: its registers through the memory BAR, its pin, its rings. */
static const struct drv_manifest rtl8139_manifest = {
	.ids = { { RTL8139_VENDOR, RTL8139_DEVICE } },
	.bar[1] = { DRV_BAR_MMIO, RTL8139_REGS },
	.irq = DRV_IRQ_INTX,                    /* the chip has no MSI */
	.dma_bytes = RX_ALLOC + TX_SLOTS * TX_SLOT,
	.dma32 = true,                          /* RBSTART and TSAD are 32-bit */
	.max_devices = RTL8139_MAX,
};

struct rtl8139 {
	struct nic nic;
	struct drv_mmio regs;
	struct drv_dma rx;         /* the receive ring */
	uint32_t rx_off;           /* offset of the next record */
	struct drv_dma tx;         /* TX_SLOTS buffers of TX_SLOT bytes */
	int tx_head, tx_tail, tx_busy;   /* next slot to fill, oldest in flight, in flight */
	uint16_t imr;              /* bits enabled: ack keeps only these */
};

static struct rtl8139 cards[RTL8139_MAX];

static uint8_t rd8(struct rtl8139 *r, unsigned off) { return drv_read8(&r->regs, off); }
static uint16_t rd16(struct rtl8139 *r, unsigned off) { return drv_read16(&r->regs, off); }
static uint32_t rd32(struct rtl8139 *r, unsigned off) { return drv_read32(&r->regs, off); }
static void wr8(struct rtl8139 *r, unsigned off, uint8_t v) { drv_write8(&r->regs, off, v); }
static void wr16(struct rtl8139 *r, unsigned off, uint16_t v) { drv_write16(&r->regs, off, v); }
static void wr32(struct rtl8139 *r, unsigned off, uint32_t v) { drv_write32(&r->regs, off, v); }

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
	wr32(r, REG_RBSTART, (uint32_t)r->rx.addr);
	wr8(r, REG_CR, CR_RE | CR_TE);
	wr32(r, REG_RCR, RCR_APM | RCR_AB | RCR_WRAP | RCR_MXDMA_ALL | RCR_RBLEN_8K | RCR_RXFTH_NONE);
	wr16(r, REG_CAPR, (uint16_t)-16);
	r->rx_off = 0;
}

/* One record at rx_off; false if its header makes no sense. */
static bool rx_one(struct rtl8139 *r)
{
	const uint8_t *rec = (const uint8_t *)r->rx.va + r->rx_off;
	drv_barrier();                                     /* read the record after CR said it is there */
	uint16_t status = rec[0] | rec[1] << 8;
	uint16_t len = rec[2] | rec[3] << 8;           /* frame + 4-byte FCS */
	if (!(status & RXS_ROK) || len < ETH_HLEN + 4 || len > ETH_FRAME_MAX + 8)   /* + VLAN tag */
		return false;
	nic_deliver(&r->nic, rec + 4, len - 4u);
	r->rx_off = (r->rx_off + 4 + len + 3) & ~3u & (RX_RING - 1);
	wr16(r, REG_CAPR, (uint16_t)(r->rx_off - 16));
	return true;
}

static bool rtl_rx_work(struct nic *n, uint32_t status)
{
	struct rtl8139 *r = n->priv;
	if (status & (INT_RXOVW | INT_FOVW)) {
		n->stats.rx_dropped += rd32(r, REG_MPC) & 0xffffff;
		wr32(r, REG_MPC, 0);
	}
	if (status & INT_LINKCHG)
		n->link_up = !(rd8(r, REG_MSR) & MSR_LINKB);
	int taken = 0;
	while (taken < NIC_RX_BUDGET && !(rd8(r, REG_CR) & CR_BUFE) && nic_rx_room(n)) {
		if (!rx_one(r)) {
			n->stats.rx_errors++;
			drv_log(n->dev, "bad receive header at %u, receiver restarted\n", r->rx_off);
			rx_start(r);
			return false;
		}
		taken++;
	}
	return taken == NIC_RX_BUDGET && !(rd8(r, REG_CR) & CR_BUFE);
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
	size_t size = nic_copy_padded((uint8_t *)r->tx.va + slot * TX_SLOT, frame, len);
	drv_barrier();                                     /* the frame is in memory first */
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
	return drv_spin_until(reset_done, r, RESET_NS);
}

/* Rings in place, receiver and transmitter on, interrupts masked. */
static void chip_start(struct rtl8139 *r)
{
	wr16(r, REG_IMR, 0);
	wr16(r, REG_ISR, 0xffff);
	for (int i = 0; i < TX_SLOTS; i++)
		wr32(r, TSAD(i), (uint32_t)(r->tx.addr + i * TX_SLOT));
	rx_start(r);
	wr32(r, REG_TCR, TCR_MXDMA_2K | TCR_IFG_STD);  /* only writable with TE on */
	wr32(r, REG_MPC, 0);
	r->nic.link_up = !(rd8(r, REG_MSR) & MSR_LINKB);
}

/* The driver core has mapped the registers and turned bus mastering on; on an error
 * it turns it off again and frees the rings. */
static int rtl8139_attach(struct drv_dev *dev)
{
	struct rtl8139 *r = &cards[drv_index(dev)];
	*r = (struct rtl8139){ 0 };
	int err = drv_mmio(dev, 1, &r->regs);
	if (err == 0)
		err = chip_reset(r);
	if (err < 0)
		return err;
	for (int i = 0; i < ETH_ALEN; i++)
		r->nic.mac[i] = rd8(r, REG_IDR0 + i);
	err = drv_dma_alloc(dev, RX_ALLOC, &r->rx);
	if (err == 0)
		err = drv_dma_alloc(dev, TX_SLOTS * TX_SLOT, &r->tx);
	if (err < 0)
		return err;
	chip_start(r);
	r->nic.priv = r;
	return nic_register(&r->nic, dev, &rtl_ops);
}

DRIVER(rtl8139, 20, .class = DRV_CLASS_NET, .manifest = &rtl8139_manifest,
       .attach = rtl8139_attach);
