/*
 * nic.c — the registry of network cards and the generic half of their
 * interrupt handling: routing (MSI, or an INTx line possibly shared with
 * other cards), the two halves as an interrupt-packaging source
 * (kernel/intr/ runs them sequentially or packed), sending with
 * transmit-slot reclaim, delivery to the installed receiver, and the
 * follow-up pass (rx_later) when a card holds more frames than one
 * receive pass takes.
 *
 * Shared INTx: cards whose PCI interrupt-line values are equal sit on one
 * I/O APIC input, so they share one vector; interrupt packaging asks every
 * card on it (ack returns 0 for "not mine").  The line is routed to the CPU
 * the first card asked for and unrouted when the last card leaves.  Only
 * one owner may program an I/O APIC input at a time: a device outside the
 * registry (edu) must not be routed on the same line while a card is up.
 */
#include <stdint.h>
#include <string.h>
#include <cpu.h>
#include <driver.h>
#include <drvswitch.h>
#include <errno.h>
#include <intr.h>
#include <intr_pack.h>
#include <kprintf.h>
#include <nic.h>
#include <pci.h>
#include <time.h>

#define RX_LATER_NS 20000            /* a pass stopped at the budget: the next one this much later */

struct nic_line {
	int irq_line;                /* PCI interrupt-line value of its cards */
	int vector;
	int cpu;                     /* where the line is routed */
	struct nic *first;           /* cards on it, linked by line_next; NULL: slot free */
	struct pci_device *routed;   /* the card that programmed the I/O APIC input */
};

static struct nic *nics[NIC_MAX];
static int nnics;
static struct nic_line lines[NIC_MAX];
static struct spinlock nic_lock = SPINLOCK_INIT("nic", LOCK_NIC);   /* registry and lines */

static bool mac_valid(const uint8_t *mac)
{
	bool zero = true;
	for (int i = 0; i < ETH_ALEN; i++)
		zero &= mac[i] == 0;
	return !zero && !(mac[0] & 1);           /* not all zeros, not multicast/broadcast */
}

static void rx_later_fired(struct timer *t, void *arg);

/*
 * drvswitch=on (paper 003's microbenchmark, drvswitch.h): the driver's
 * handler, ack then work, runs in the driver's address space.  A
 * sequential source's work follows its ack on the full path, so the space
 * stays loaded from the ack to the end of the work; otherwise (not mine,
 * or packed: the work comes in a later batch) each half goes there and back.
 */
static uint32_t src_ack(struct intr_src *s)
{
	struct nic *n = s->priv;
	bool sw = drvswitch_card(n);
	if (sw)
		drvswitch_in();
	uint32_t status = nic_intr_ack(n);
	if (sw && !(status && s->set.mode == HAKO_INTR_SEQUENTIAL))
		drvswitch_out();
	if (status)
		n->stats.irqs++;
	else
		n->stats.not_mine++;
	return status;
}

static void src_work(struct intr_src *s, uint32_t status)
{
	struct nic *n = s->priv;
	bool sw = drvswitch_card(n);
	if (sw && !drvswitch_held())
		drvswitch_in();
	nic_intr_work(n, status);
	if (sw)
		drvswitch_out();
	if (!s->forwarded)
		n->last_done_tsc = arch_tsc();    /* a driver process says so itself (drvproc_irq_done) */
}

int nic_register(struct nic *n, struct drv_dev *dev, const struct nic_ops *ops)
{
	if (!mac_valid(n->mac))
		return -EIO;
	const char *driver = dev->driver->name;
	strlcpy(n->name, dev->name, sizeof n->name);
	n->driver = driver;
	n->dev = dev;
	n->ops = ops;
	spin_init(&n->rx_lock, "nic-rx", LOCK_NIC_RX);
	spin_init(&n->tx_lock, "nic-tx", LOCK_NIC_TX);
	timer_init(&n->rx_later, rx_later_fired, n);
	n->irq_mode = NIC_IRQ_NONE;
	n->src = (struct intr_src){ .name = n->name, .type = driver, .ack = src_ack,
				    .work = src_work, .priv = n };
	spin_lock(&nic_lock);
	int err = nnics < NIC_MAX ? 0 : -ENOSPC;
	if (err == 0)
		nics[nnics++] = n;
	spin_unlock(&nic_lock);
	if (err == 0 && intr_pack_add(&n->src) < 0)
		kprintf("%s: no room for interrupt packaging\n", n->name);
	struct pci_device *pci = dev->pci;
	if (err == 0)
		kprintf("%s: %02x:%02x:%02x:%02x:%02x:%02x, pci %02x:%02x.%x, irq line %d%s\n",
			n->name, n->mac[0], n->mac[1], n->mac[2], n->mac[3], n->mac[4], n->mac[5],
			pci->bus, pci->dev, pci->fn, pci->irq_line, pci->msi_cap ? ", msi" : "");
	return err;
}

int nic_count(void) { return nnics; }

struct nic *nic_get(int i) { return i >= 0 && i < nnics ? nics[i] : NULL; }

struct nic *nic_find(const char *driver, int index)
{
	for (int i = 0; i < nnics; i++)
		if (strcmp(nics[i]->driver, driver) == 0 && index-- == 0)
			return nics[i];
	return NULL;
}

void nic_set_receiver_room(struct nic *n, nic_rx_fn fn, nic_room_fn room, void *arg)
{
	spin_lock(&n->rx_lock);          /* no frame is being delivered meanwhile */
	n->rx = fn;
	n->rx_room = room;
	n->rx_arg = arg;
	spin_unlock(&n->rx_lock);
}

void nic_set_receiver(struct nic *n, nic_rx_fn fn, void *arg)
{
	nic_set_receiver_room(n, fn, NULL, arg);
}

bool nic_rx_room(struct nic *n)
{
	return !n->rx_room || n->rx_room(n, n->rx_arg);
}

void nic_deliver(struct nic *n, const uint8_t *frame, size_t len)
{
	n->stats.rx++;
	if (n->rx)
		n->rx(n, frame, len, n->rx_arg);
}

size_t nic_copy_padded(void *dst, const void *frame, size_t len)
{
	memcpy(dst, frame, len);
	if (len < ETH_FRAME_MIN) {
		memset((uint8_t *)dst + len, 0, ETH_FRAME_MIN - len);
		len = ETH_FRAME_MIN;
	}
	return len;
}

/* A full transmitter gets one chance to reclaim finished slots first. */
int nic_send(struct nic *n, const void *frame, size_t len)
{
	if (!frame || len < ETH_HLEN || len > ETH_FRAME_MAX)
		return -EINVAL;
	spin_lock(&n->tx_lock);
	int err = n->ops->send(n, frame, len);
	if (err == -EAGAIN) {
		n->ops->tx_work(n, 0);
		err = n->ops->send(n, frame, len);
	}
	spin_unlock(&n->tx_lock);
	return err;
}

/* ---- the two halves ---------------------------------------------------- */

uint32_t nic_intr_ack(struct nic *n)
{
	return n->ops->ack(n);
}

/* One receive pass; true if frames are left, and then rx_later is armed. */
static bool rx_pass(struct nic *n, uint32_t status)
{
	spin_lock(&n->rx_lock);
	bool more = n->ops->rx_work(n, status);
	if (more && n->rx_later.cpu < 0)
		timer_arm(&n->rx_later, arch_tsc() + ns_to_tsc(RX_LATER_NS));
	spin_unlock(&n->rx_lock);
	return more;
}

/* Timer interrupt, interrupts off: the next pass (which re-arms while frames are left). */
static void rx_later_fired(struct timer *t, void *arg)
{
	rx_pass(arg, 0);
}

void nic_intr_work(struct nic *n, uint32_t status)
{
	rx_pass(n, status);
	spin_lock(&n->tx_lock);
	n->ops->tx_work(n, status);
	spin_unlock(&n->tx_lock);
}

void nic_interrupt(struct nic *n)
{
	uint32_t status = nic_intr_ack(n);
	if (!status) {
		n->stats.not_mine++;
		return;
	}
	n->stats.irqs++;
	nic_intr_work(n, status);
}

void nic_poll(struct nic *n)
{
	nic_intr_work(n, 0);
}

void nic_drain(struct nic *n)
{
	if (n->ops->drain) {
		n->ops->drain(n);
		return;
	}
	bool more = true;
	for (int i = 0; i < NIC_DRAIN_PASSES && more; i++)
		more = rx_pass(n, 0);
	spin_lock(&n->tx_lock);
	n->ops->tx_work(n, 0);
	spin_unlock(&n->tx_lock);
}

/* ---- routing ------------------------------------------------------------ */
/* Interrupt packaging (kernel/intr/) owns the vectors: it asks every card on
 * one in turn, sequentially or packed as each card is set. */

static int up_msi(struct nic *n, int cpu)
{
	int vector = pci_irq_attach(n->dev->pci, true, cpus[cpu].apic_id, intr_pack_unclaimed, NULL,
				    n->name);
	if (vector < 0)
		return vector;
	int err = intr_pack_attach(&n->src, vector, -1, cpu);
	if (err < 0) {
		pci_msi_disable(n->dev->pci);
		intr_release(vector);
		return err;
	}
	n->vector = vector;
	n->irq_mode = NIC_IRQ_MSI;
	return 0;
}

static struct nic_line *line_of(int irq_line)
{
	for (int i = 0; i < NIC_MAX; i++)
		if (lines[i].first && lines[i].irq_line == irq_line)
			return &lines[i];
	return NULL;
}

/* A new line: its vector, the I/O APIC input routed to cpu.  Caller holds nic_lock. */
static struct nic_line *open_line(struct nic *n, int cpu, int *err)
{
	struct nic_line *line = NULL;
	for (int i = 0; i < NIC_MAX && !line; i++)
		if (!lines[i].first)
			line = &lines[i];
	int vector = line ? pci_irq_attach(n->dev->pci, false, cpus[cpu].apic_id, intr_pack_unclaimed,
					   NULL, "nic-intx") : -ENOSPC;
	if (vector < 0) {
		*err = vector;
		return NULL;
	}
	*line = (struct nic_line){ .irq_line = n->dev->pci->irq_line, .vector = vector, .cpu = cpu,
				   .routed = n->dev->pci };
	return line;
}

static void close_line(struct nic_line *line)
{
	pci_intx_unroute(line->routed);
	intr_release(line->vector);
}

static int up_intx(struct nic *n, int cpu)
{
	int err = 0;
	spin_lock(&nic_lock);
	struct nic_line *line = line_of(n->dev->pci->irq_line);
	bool opened = !line;
	if (!line)
		line = open_line(n, cpu, &err);
	if (line)
		err = intr_pack_attach(&n->src, line->vector, line->routed->intx_gsi, line->cpu);
	if (line && err == 0) {
		n->line_next = line->first;
		line->first = n;
		n->vector = line->vector;
		n->irq_mode = NIC_IRQ_INTX;
	} else if (line && opened) {
		close_line(line);
	}
	spin_unlock(&nic_lock);
	return err;
}

/* The card's interrupts are already masked in the device. */
static void down_intx(struct nic *n)
{
	spin_lock(&nic_lock);
	struct nic_line *line = line_of(n->dev->pci->irq_line);
	struct nic **link = line ? &line->first : NULL;
	while (link && *link && *link != n)
		link = &(*link)->line_next;
	if (link && *link)
		*link = n->line_next;
	if (line && !line->first)
		close_line(line);
	spin_unlock(&nic_lock);
}

int nic_up(struct nic *n, int cpu)
{
	if (cpu < 0 || cpu >= ncpus)
		return -EINVAL;
	if (n->irq_mode != NIC_IRQ_NONE)
		return -EBUSY;
	int err = drv_uses_msi(n->dev) ? up_msi(n, cpu) : up_intx(n, cpu);
	if (err < 0)
		return err;
	n->ops->irq_enable(n, true);
	return 0;
}

void nic_down(struct nic *n)
{
	if (n->irq_mode == NIC_IRQ_NONE)
		return;
	n->ops->irq_enable(n, false);
	intr_pack_detach(&n->src);          /* what is registered is handled first */
	timer_cancel_sync(&n->rx_later);
	if (n->irq_mode == NIC_IRQ_MSI) {
		pci_msi_disable(n->dev->pci);
		intr_release(n->vector);
	} else {
		down_intx(n);
	}
	n->irq_mode = NIC_IRQ_NONE;
	n->vector = 0;
}
