/*
 * drvproc_nic.c — the kernel's struct nic for a card whose driver runs as a
 * process (paper 003): a proxy registered like any card (nic.c), so
 * nic_ctl/nic_recv/nic_send, nic_traffic and the self-tests work with
 * either placement.  Its operations hand the work to the driver process:
 *
 *   send       kernel senders (nic_traffic, a receiver forwarding in
 *              interrupt context) cannot switch processes: the frame goes
 *              into a bounded queue (DRVPROC_TXQ frames) the driver drains
 *              (EV_TXQ); -EAGAIN when it is full.  A program's nic_send
 *              does not come here: it is a drvproc call (sys_nic.c).
 *   ack        interrupt time: the kernel cannot read the device's status
 *              (the driver does, in ring 3), so it holds the line masked
 *              (intr_pack_hold), notes the time, posts EV_IRQ and wakes the
 *              driver; the process runs ack + work and says HAKO_DRV_IRQ_DONE,
 *              which lets the line through again (drvproc_irq_done).
 *   rx_work    nic_poll's "the receiver has room again": EV_POLL.
 *   drain      nic_drain (a program opening the card): a kernel drvproc call
 *              NET_POLL, so the frames from before the open are gone when
 *              it returns, as with an in-kernel driver.
 *   irq_enable EV_IMR_ON / EV_IMR_OFF.
 * Frames the driver receives come back by drvproc_rx and reach the card's
 * receiver under rx_lock as in the kernel.
 *
 * While no driver process serves the card (it ended; a restarted one has
 * not registered yet) kernel senders get -EPIPE (txq_dead), the frames it
 * left queued are dropped and counted (txq_dropped), the frames it had
 * accepted but not reported sent count as tx_unconfirmed, and its
 * interrupt (its INTx is off meanwhile) is never ours, so a shared line
 * keeps serving the other card.  Interrupt packaging (paper
 * 000) is for in-kernel cards only: the proxy's source is marked
 * forwarded, which keeps it sequential.
 */
#include <stdint.h>
#include <string.h>
#include <arch/arch.h>
#include <drvproc.h>
#include <errno.h>
#include <intr_pack.h>
#include <kprintf.h>

#define PROXY_FORWARDED 1u     /* what the proxy's ack returns: the interrupt went to the process */

static struct drvproc *drvproc_of(struct nic *n) { return n->priv; }

/* Caller holds tx_lock (nic_send). */
static int proxy_send(struct nic *n, const void *frame, size_t len)
{
	struct drvproc *c = drvproc_of(n);
	int err = 0;
	spin_lock(&c->wq.lock);
	if (c->dead) {
		err = -EPIPE;
		c->stat.txq_dead++;
	} else if (c->tx_head - c->tx_tail == DRVPROC_TXQ) {
		err = -EAGAIN;
		c->stat.txq_full++;
	} else {
		struct drvproc_txq_slot *s = &c->txq[c->tx_head++ % DRVPROC_TXQ];
		s->len = (uint16_t)len;
		memcpy(s->data, frame, len);
		c->stat.txq++;
		c->events |= HAKO_DRVPROC_EV_TXQ;
		waitq_wake_one(&c->wq);
	}
	spin_unlock(&c->wq.lock);
	return err;
}

/* Caller holds c->wq.lock: one queued frame into buf, its length (0: none). */
int drvproc_txq_take(struct drvproc *c, uint8_t *buf)
{
	if (c->tx_head == c->tx_tail)
		return 0;
	struct drvproc_txq_slot *s = &c->txq[c->tx_tail++ % DRVPROC_TXQ];
	memcpy(buf, s->data, s->len);
	c->stat.txq_taken++;
	c->accepted_gen++;
	return s->len;
}

/* The driver process ended (drvproc_proc_end, after drvproc_revoke): account, let the line go. */
void drvproc_nic_dead(struct drvproc *c)
{
	struct nic *n = &c->nic;
	spin_lock(&c->wq.lock);
	c->stat.txq_dropped += c->tx_head - c->tx_tail;
	c->tx_tail = c->tx_head;
	c->events = 0;
	c->irq_t0 = 0;
	c->stat.tx_unconfirmed += c->accepted_gen - c->done_gen;
	c->accepted_gen = c->done_gen = 0;
	c->base.tx += c->last.tx;
	c->base.tx_errors += c->last.tx_errors;
	c->base.rx_errors += c->last.rx_errors;
	c->base.rx_dropped += c->last.rx_dropped;
	c->last = (struct hako_drvproc_nicstat){ 0 };
	spin_unlock(&c->wq.lock);
	intr_pack_release(&n->src);        /* held masked for a forwarded interrupt nobody finishes */
}

/* The driver's counters at its drvproc_recv: the ended processes' plus this one's.
 * Caller holds c->wq.lock. */
void drvproc_nic_take_stats(struct drvproc *c, const struct hako_drvproc_nicstat *st)
{
	struct nic *n = &c->nic;
	/* A driver is believed for no more transmissions than it was given. */
	uint64_t now = st->tx + st->tx_errors, before = c->last.tx + c->last.tx_errors;
	if (now > before) {
		uint64_t more = now - before, room = c->accepted_gen - c->done_gen;
		uint64_t credit = more < room ? more : room;
		c->done_gen += credit;
		c->stat.tx_done += credit;
		if (more > credit)
			c->stat.tx_overreported++;   /* a report, not its (driver-made) size */
	}
	c->last = *st;
	n->stats.tx = c->base.tx + st->tx;
	n->stats.tx_errors = c->base.tx_errors + st->tx_errors;
	n->stats.rx_errors = c->base.rx_errors + st->rx_errors;
	n->stats.rx_dropped = c->base.rx_dropped + st->rx_dropped + c->kdrops;
	n->link_up = st->link_up != 0;
}

static uint32_t proxy_ack(struct nic *n)
{
	struct drvproc *c = drvproc_of(n);
	if (__atomic_load_n(&c->dead, __ATOMIC_ACQUIRE))
		return 0;                      /* its INTx is off: not this card's */
	intr_pack_hold(&n->src);           /* the line stays masked until the driver has acknowledged */
	spin_lock(&c->wq.lock);
	if (!(c->events & HAKO_DRVPROC_EV_IRQ))
		c->irq_t0 = arch_tsc();
	c->events |= HAKO_DRVPROC_EV_IRQ;
	c->stat.irqs++;
	waitq_wake_one(&c->wq);
	spin_unlock(&c->wq.lock);
	return PROXY_FORWARDED;
}

/* Caller holds rx_lock. */
static bool proxy_rx_work(struct nic *n, uint32_t status)
{
	struct drvproc *c = drvproc_of(n);
	if (status == 0 && !c->dead)       /* nic_poll; an interrupt's work runs in the process */
		drvproc_post(c, HAKO_DRVPROC_EV_POLL);
	return false;                      /* the process takes every frame itself */
}

static void proxy_tx_work(struct nic *n, uint32_t status) { }

static void proxy_irq_enable(struct nic *n, bool on)
{
	struct drvproc *c = drvproc_of(n);
	if (!c->dead)
		drvproc_post(c, on ? HAKO_DRVPROC_EV_IMR_ON : HAKO_DRVPROC_EV_IMR_OFF);
}

static void proxy_drain(struct nic *n)
{
	drvproc_call(drvproc_of(n), NULL, HAKO_DRVPROC_NET_POLL, 0, 0);
}

static const struct nic_ops proxy_ops = {
	.send = proxy_send,
	.ack = proxy_ack,
	.rx_work = proxy_rx_work,
	.tx_work = proxy_tx_work,
	.irq_enable = proxy_irq_enable,
	.drain = proxy_drain,
};

int drvproc_nic_register(struct drvproc *c, const struct hako_drvproc_reg *reg)
{
	struct nic *n = &c->nic;
	memcpy(n->mac, reg->mac, ETH_ALEN);
	n->link_up = reg->link_up != 0;
	n->priv = c;
	int err = nic_register(n, c->dev, &proxy_ops);   /* -EIO for a bad MAC, -ENOSPC */
	if (err < 0)
		return err;
	n->src.forwarded = true;
	for (int i = 0; i < nic_count(); i++)
		if (nic_get(i) == n)
			c->nic_index = i;
	return 0;
}

/* A frame the driver received: to the card's receiver.  1: room for more, 0: not now. */
long drvproc_nic_rx(struct drvproc *c, const uint8_t *frame, uint64_t len)
{
	struct nic *n = &c->nic;
	spin_lock(&n->rx_lock);
	bool room = nic_rx_room(n);
	if (room) {
		nic_deliver(n, frame, len);
	} else {
		n->stats.rx_dropped++;         /* the driver delivered past a "no room" */
		c->stat.rx_kernel_dropped++;
		c->kdrops++;
	}
	room = room && nic_rx_room(n);
	spin_unlock(&n->rx_lock);
	c->stat.rx++;
	return room ? 1 : 0;
}

/* The driver handled the forwarded interrupt; mine: it was the device's. */
int drvproc_irq_done(struct drvproc *c, bool mine)
{
	struct nic *n = &c->nic;
	if (!mine) {
		n->stats.irqs--;               /* counted at interrupt time as the card's */
		n->stats.not_mine++;
	}
	spin_lock(&c->wq.lock);
	if (c->irq_t0) {
		c->stat.irq_tsc_sum += arch_tsc() - c->irq_t0;
		c->irq_t0 = 0;
	}
	c->stat.irq_done++;
	c->progress++;
	n->last_done_tsc = arch_tsc();
	spin_unlock(&c->wq.lock);
	intr_pack_release(&n->src);
	return 0;
}
