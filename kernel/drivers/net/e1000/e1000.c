/*
 * e1000.c — driver for the Intel 82540EM gigabit Ethernet controller as
 * QEMU emulates it (PCI 8086:100e, QEMU device "e1000").
 *
 * QEMU flags that create the device (`./hako boot --net hub` adds them):
 *   -netdev hubport,id=hako-n1,hubid=0
 *   -device e1000,netdev=hako-n1,mac=52:54:00:48:4b:02,romfile=
 *
 * Sources: Intel PCI/PCI-X Family of Gigabit Ethernet Controllers
 * Software Developer's Manual (8254x SDM: registers ch. 13, descriptors
 * ch. 3, initialisation ch. 14) and QEMU's hw/net/e1000.c for what the
 * model does.
 *
 * Registers are the 128 KiB memory BAR0, 32-bit accesses only.  Receive:
 * a ring of 32 legacy descriptors, each with its own 2 KiB buffer; the
 * card owns the descriptors from RDH up to (not including) RDT, so one is
 * always held back; the driver hands a descriptor back by moving RDT onto
 * it once its frame is delivered.  The FCS is stripped (RCTL.SECRC), so a
 * descriptor's length is the frame's.  Transmit: a ring of 16 legacy
 * descriptors with their own 2 KiB buffers; a frame is copied in, its
 * descriptor asks for the FCS (IFCS) and a status write-back (RS), and
 * writing TDT hands it over; DD in the written-back status frees it.
 *
 * Interrupts: QEMU's 82540EM has no MSI capability, so INTx through the
 * I/O APIC (nic.c), possibly shared; MSI is used if a card offers it.
 * ack reads ICR (reading clears it: it is the volatile data) and keeps the
 * causes this driver enabled (none: not ours); work takes up to
 * NIC_RX_BUDGET frames from the receive ring (the caller comes back for
 * the rest) and reclaims transmit descriptors.
 *
 * QEMU facts that show in behaviour: CTRL.RST does not reset the model
 * (the bit just clears), so bring-up sets every register it relies on;
 * for 1 s of virtual time after RCTL is written the model holds incoming
 * frames back (queued, not lost); without a free descriptor it also holds
 * them back rather than dropping; its interrupt mitigation spaces
 * interrupts at least 128 us apart (virtual time) even with ITR = 0.
 *
 * Not handled: checksum offload, TSO, VLANs, jumbo frames (LPE), multicast
 * filtering (MTA is cleared), EEPROM writes, PHY access (MDIC).
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <drvenv.h>
#include <nic_driver.h>
#include "e1000.h"

/* The causes this driver enables (IMS) and acknowledges. */
#define INT_ENABLED (INT_TXDW | INT_LSC | INT_RXDMT0 | INT_RXO | INT_RXT0)

#define RX_N     32                 /* receive descriptors */
#define TX_N     16                 /* transmit descriptors */
#define BUF_SIZE 2048               /* bytes per buffer (RCTL.BSIZE) */
#define RINGS    4096               /* bytes before the buffers: both descriptor rings */
#define DMA_BYTES (RINGS + (RX_N + TX_N) * BUF_SIZE)
#define E1000_MAX 4                 /* cards this driver attaches */
#define RESET_NS 100000000ull       /* 100 ms for a reset */

/* What a card is granted: its register BAR, MSI or its pin, rings and buffers. */
static const struct drv_manifest e1000_manifest = {
	.ids = { { E1000_VENDOR, E1000_DEVICE } },
	.bar[0] = { DRV_BAR_MMIO, E1000_REGS },
	.irq = DRV_IRQ_ANY,                     /* QEMU's 82540EM has no MSI: INTx */
	.dma_bytes = DMA_BYTES,
	.dma32 = true,                          /* 64-bit capable; low memory keeps both cards alike */
	.max_devices = E1000_MAX,
};

struct e1000 {
	struct nic nic;
	struct drv_mmio regs;
	struct drv_dma dma;           /* RINGS bytes of rings, then RX_N + TX_N buffers */
	volatile struct rx_desc *rx;
	volatile struct tx_desc *tx;
	uint32_t rx_next;             /* next descriptor to look at */
	bool rx_discard;              /* inside a frame that did not fit one buffer */
	uint32_t tx_tail, tx_clean;   /* next to fill (= TDT), oldest not yet reclaimed */
	uint32_t ims;                 /* causes enabled: ack keeps only these */
};

static struct e1000 cards[E1000_MAX];

static uint32_t rd(struct e1000 *e, unsigned off) { return drv_read32(&e->regs, off); }
static void wr(struct e1000 *e, unsigned off, uint32_t v) { drv_write32(&e->regs, off, v); }

static uint8_t *rx_buf(struct e1000 *e, uint32_t i) { return (uint8_t *)e->dma.va + RINGS + i * BUF_SIZE; }
static uint8_t *tx_buf(struct e1000 *e, uint32_t i) { return rx_buf(e, RX_N + i); }
static uint64_t buf_phys(struct e1000 *e, const uint8_t *buf) { return e->dma.addr + (uint64_t)(buf - (uint8_t *)e->dma.va); }

/* ---- first half: acknowledge, return the volatile status ----------------- */

static uint32_t e1000_ack(struct nic *n)
{
	struct e1000 *e = n->priv;
	return rd(e, REG_ICR) & e->ims;
}

/* ---- second half: receive ring, transmit ring ----------------------------- */

static void rx_one(struct e1000 *e, volatile struct rx_desc *d, uint32_t i)
{
	bool whole = (d->status & RXD_EOP) && !e->rx_discard;
	if (whole && !d->errors)
		nic_deliver(&e->nic, rx_buf(e, i), d->length);
	else if (d->status & RXD_EOP)
		e->nic.stats.rx_errors++;
	e->rx_discard = !(d->status & RXD_EOP);
	d->status = 0;
}

static bool e1000_rx_work(struct nic *n, uint32_t status)
{
	struct e1000 *e = n->priv;
	if (status & INT_RXO)
		n->stats.rx_dropped++;
	if (status & INT_LSC)
		n->link_up = rd(e, REG_STATUS) & STATUS_LU;
	int done = -1, taken = 0;
	while (taken < NIC_RX_BUDGET && (e->rx[e->rx_next].status & RXD_DD) && nic_rx_room(n)) {
		rx_one(e, &e->rx[e->rx_next], e->rx_next);
		done = (int)e->rx_next;
		e->rx_next = (e->rx_next + 1) % RX_N;
		taken++;
	}
	if (done >= 0) {
		drv_barrier();                             /* descriptors reset before the card sees them */
		wr(e, REG_RDT, (uint32_t)done);
	}
	return taken == NIC_RX_BUDGET && (e->rx[e->rx_next].status & RXD_DD);
}

static void e1000_tx_work(struct nic *n, uint32_t status)
{
	struct e1000 *e = n->priv;
	while (e->tx_clean != e->tx_tail && (e->tx[e->tx_clean].status & TXD_DD)) {
		if (e->tx[e->tx_clean].status & TXD_EC_LC)
			n->stats.tx_errors++;
		else
			n->stats.tx++;
		e->tx_clean = (e->tx_clean + 1) % TX_N;
	}
}

/* ---- operations ----------------------------------------------------------- */

/* Caller holds tx_lock. */
static int e1000_send(struct nic *n, const void *frame, size_t len)
{
	struct e1000 *e = n->priv;
	uint32_t next = (e->tx_tail + 1) % TX_N;
	if (next == e->tx_clean)
		return -EAGAIN;
	volatile struct tx_desc *d = &e->tx[e->tx_tail];
	uint8_t *buf = tx_buf(e, e->tx_tail);
	d->addr = buf_phys(e, buf);
	d->length = (uint16_t)nic_copy_padded(buf, frame, len);
	d->cmd = TXD_EOP | TXD_IFCS | TXD_RS;
	d->status = 0;
	drv_barrier();                                 /* frame and descriptor before TDT */
	e->tx_tail = next;
	wr(e, REG_TDT, next);
	return 0;
}

static void e1000_irq_enable(struct nic *n, bool on)
{
	struct e1000 *e = n->priv;
	e->ims = on ? INT_ENABLED : 0;
	if (on)
		wr(e, REG_IMS, e->ims);
	else
		wr(e, REG_IMC, ~0u);
}

static const struct nic_ops e1000_ops = {
	.send = e1000_send,
	.ack = e1000_ack,
	.rx_work = e1000_rx_work,
	.tx_work = e1000_tx_work,
	.irq_enable = e1000_irq_enable,
};

/* ---- bring-up ------------------------------------------------------------- */

static bool reset_done(void *e) { return !(rd(e, REG_CTRL) & CTRL_RST); }

static int chip_reset(struct e1000 *e)
{
	wr(e, REG_IMC, ~0u);
	wr(e, REG_CTRL, rd(e, REG_CTRL) | CTRL_RST);
	int err = drv_spin_until(reset_done, e, RESET_NS);
	if (err < 0)
		return err;
	wr(e, REG_IMC, ~0u);                           /* the reset may unmask */
	(void)rd(e, REG_ICR);
	uint32_t ctrl = rd(e, REG_CTRL);
	wr(e, REG_CTRL, (ctrl | CTRL_SLU | CTRL_ASDE) & ~CTRL_PHYRST);
	return 0;
}

/* One EEPROM word, or -1 if the read does not finish. */
static int eeprom_word(struct e1000 *e, unsigned addr)
{
	wr(e, REG_EERD, EERD_START | addr << 8);
	for (int i = 0; i < 100000; i++) {
		uint32_t v = rd(e, REG_EERD);
		if (v & EERD_DONE)
			return (int)(v >> 16);
		drv_relax();
	}
	return -1;
}

/* RAL0/RAH0 if valid (QEMU loads them), else EEPROM words 0-2; written back valid. */
static int read_mac(struct e1000 *e, uint8_t *mac)
{
	uint32_t lo = rd(e, REG_RAL0), hi = rd(e, REG_RAH0);
	if (!(hi & RAH_AV)) {
		int w[3];
		for (unsigned i = 0; i < 3; i++)
			if ((w[i] = eeprom_word(e, i)) < 0)
				return -EIO;
		lo = (uint32_t)w[0] | (uint32_t)w[1] << 16;
		hi = (uint32_t)w[2];
	}
	for (int i = 0; i < 4; i++)
		mac[i] = (uint8_t)(lo >> (8 * i));
	mac[4] = (uint8_t)hi;
	mac[5] = (uint8_t)(hi >> 8);
	wr(e, REG_RAL0, lo);
	wr(e, REG_RAH0, (hi & 0xffff) | RAH_AV);
	return 0;
}

static void rings_start(struct e1000 *e)
{
	e->rx = (volatile struct rx_desc *)e->dma.va;
	e->tx = (volatile struct tx_desc *)((uint8_t *)e->dma.va + RX_N * sizeof(struct rx_desc));
	for (uint32_t i = 0; i < RX_N; i++)
		e->rx[i] = (struct rx_desc){ .addr = buf_phys(e, rx_buf(e, i)) };
	for (int i = 0; i < 128; i++)
		wr(e, REG_MTA + 4 * i, 0);
	wr(e, REG_RDBAL, (uint32_t)e->dma.addr);
	wr(e, REG_RDBAH, (uint32_t)(e->dma.addr >> 32));
	wr(e, REG_RDLEN, RX_N * sizeof(struct rx_desc));
	wr(e, REG_RDH, 0);
	wr(e, REG_RDT, RX_N - 1);                      /* all but one to the card */
	wr(e, REG_RDTR, 0);
	wr(e, REG_ITR, 0);
	wr(e, REG_RCTL, RCTL_EN | RCTL_BAM | RCTL_BSIZE_2048 | RCTL_SECRC);
	uint64_t tx_phys = buf_phys(e, (const uint8_t *)e->tx);
	wr(e, REG_TDBAL, (uint32_t)tx_phys);
	wr(e, REG_TDBAH, (uint32_t)(tx_phys >> 32));
	wr(e, REG_TDLEN, TX_N * sizeof(struct tx_desc));
	wr(e, REG_TDH, 0);
	wr(e, REG_TDT, 0);
	wr(e, REG_TIPG, TIPG_VALUE);
	wr(e, REG_TCTL, TCTL_EN | TCTL_PSP | TCTL_CT | TCTL_COLD);
	e->rx_next = e->tx_tail = e->tx_clean = 0;
	e->nic.link_up = rd(e, REG_STATUS) & STATUS_LU;
}

/* The driver core has mapped the registers and turned bus mastering on; on an error
 * it turns it off again and frees the rings. */
static int e1000_attach(struct drv_dev *dev)
{
	struct e1000 *e = &cards[drv_index(dev)];
	*e = (struct e1000){ 0 };
	int err = drv_mmio(dev, 0, &e->regs);
	if (err == 0)
		err = chip_reset(e);
	if (err == 0)
		err = read_mac(e, e->nic.mac);
	if (err == 0)
		err = drv_dma_alloc(dev, DMA_BYTES, &e->dma);
	if (err < 0)
		return err;
	rings_start(e);
	e->nic.priv = e;
	return nic_register(&e->nic, dev, &e1000_ops);
}

DRIVER(e1000, 30, .class = DRV_CLASS_NET, .manifest = &e1000_manifest, .attach = e1000_attach);
