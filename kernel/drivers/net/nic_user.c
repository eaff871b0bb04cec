/*
 * nic_user.c — network cards for user programs: a process opens a card
 * (nic_ctl OPEN), which routes its interrupts to the CPU it names and
 * queues every frame received for it; nic_recv takes them one at a time,
 * waiting if none is there.  nic_send transmits a frame; nic_ctl INFO
 * reports a card's state and counters.  Closing, or the owner's end,
 * gives the card back (interrupts masked, queue freed, the owner's
 * kernel senders stopped: nic_traffic.c).  The system calls, with their
 * checks and user copies, are in syscall/sys_nic.c: this file sees
 * kernel values only, and a card index below nic_count().
 *
 * Nothing is dropped for want of queue space: while the queue is full the
 * driver leaves frames in the card (nic_rx_room), the card's ring fills
 * and holds back the rest (QEMU keeps them queued), and the reader that
 * has emptied half the queue pulls them in again (nic_poll), half a queue
 * at a time: a refill per frame taken would cost a receive pass and, as
 * each frees ring space the card fills at once, an interrupt per frame.
 *
 * Locking: user_lock guards the owner fields of every card; a queue's
 * waitq lock guards the queue.  A queue is freed only when no reader is
 * inside nic_recv (q->readers) and the card no longer delivers to it.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cpu.h>
#include <errno.h>
#include <heap.h>
#include <nic.h>
#include <proc.h>
#include <sched.h>
#include <spinlock.h>
#include <thread.h>
#include <nic_user.h>

struct rxq_slot {
	uint16_t len;
	uint8_t data[ETH_FRAME_MAX];
};

struct rxq {
	struct waitq wq;                 /* its lock guards the fields below */
	uint32_t head, tail;             /* free running: the card adds, readers take */
	bool held;                       /* the card holds frames back: it was full */
	bool closing;                    /* readers leave */
	int readers;                     /* threads inside nic_recv */
	uint64_t held_count;
	struct rxq_slot slot[HAKO_NIC_QUEUE];
};

enum user_state { U_FREE, U_BUSY, U_OPEN };    /* BUSY: opening or closing */

struct nic_user {
	enum user_state state;
	int owner;
	int cpu;
	struct rxq *q;
};

static struct nic_user users[NIC_MAX];
static struct spinlock user_lock = SPINLOCK_INIT("nic-user", LOCK_NIC_USER);

/* ---- the queue (receiver side: interrupt context, rx_lock held) ------------ */

static bool rxq_room(struct nic *n, void *arg)
{
	struct rxq *q = arg;
	spin_lock(&q->wq.lock);
	bool room = q->head - q->tail < HAKO_NIC_QUEUE;
	if (!room && !q->held) {
		q->held = true;
		q->held_count++;
	}
	spin_unlock(&q->wq.lock);
	return room;
}

static void rxq_put(struct nic *n, const uint8_t *frame, size_t len, void *arg)
{
	struct rxq *q = arg;
	spin_lock(&q->wq.lock);
	if (q->head - q->tail < HAKO_NIC_QUEUE) {     /* rxq_room said so just before */
		struct rxq_slot *s = &q->slot[q->head++ % HAKO_NIC_QUEUE];
		s->len = (uint16_t)(len > ETH_FRAME_MAX ? ETH_FRAME_MAX : len);
		memcpy(s->data, frame, s->len);
		waitq_wake_one(&q->wq);
	}
	spin_unlock(&q->wq.lock);
}

/* ---- owners ------------------------------------------------------------------ */

int nic_user_open(int i, int cpu, int pid)
{
	struct nic *n = nic_get(i);
	struct nic_user *u = &users[i];
	if (cpu < 0 || cpu >= ncpus)
		return -EINVAL;
	spin_lock(&user_lock);
	int err = u->state == U_FREE && n->irq_mode == NIC_IRQ_NONE ? 0 : -EBUSY;
	if (err == 0) {
		u->state = U_BUSY;
		u->owner = pid;
	}
	spin_unlock(&user_lock);
	if (err < 0)
		return err;
	struct rxq *q = kzalloc(sizeof *q);
	if (!q)
		err = -ENOMEM;
	if (q) {
		waitq_init(&q->wq, "nic-queue", LOCK_WAITQ);
		nic_drain(n);                      /* frames from before nobody asked for */
		nic_set_receiver_room(n, rxq_put, rxq_room, q);
		err = nic_up(n, cpu);
		if (err < 0) {
			nic_set_receiver(n, NULL, NULL);
			kfree(q);
		}
	}
	spin_lock(&user_lock);
	u->state = err < 0 ? U_FREE : U_OPEN;
	u->owner = err < 0 ? 0 : pid;
	u->q = err < 0 ? NULL : q;
	u->cpu = cpu;
	spin_unlock(&user_lock);
	return err;
}

/* The card stops delivering, the readers leave, then the queue goes. */
static void close_card(int i)
{
	struct nic *n = nic_get(i);
	struct nic_user *u = &users[i];
	nic_down(n);
	nic_set_receiver(n, NULL, NULL);
	struct rxq *q = u->q;
	spin_lock(&q->wq.lock);
	q->closing = true;
	waitq_wake_all(&q->wq);
	while (q->readers > 0) {
		spin_unlock(&q->wq.lock);
		thread_sleep_ns(100000);
		spin_lock(&q->wq.lock);
	}
	spin_unlock(&q->wq.lock);
	kfree(q);
	spin_lock(&user_lock);
	u->q = NULL;
	u->owner = 0;
	u->state = U_FREE;
	spin_unlock(&user_lock);
}

/* Only the owner closes; BUSY while someone else is opening or closing it. */
int nic_user_close(int i, int pid)
{
	spin_lock(&user_lock);
	int err = users[i].state == U_OPEN && users[i].owner == pid ? 0
		  : users[i].state == U_BUSY ? -EBUSY : -EPERM;
	if (err == 0)
		users[i].state = U_BUSY;
	spin_unlock(&user_lock);
	if (err == 0)
		close_card(i);
	return err;
}

void nic_user_proc_end(int pid)
{
	nic_traffic_stop_owner(pid);
	for (int i = 0; i < nic_count(); i++)
		nic_user_close(i, pid);
}

static void exit_hook_fn(struct proc *p) { nic_user_proc_end(p->pid); }
static struct proc_exit_hook exit_hook = { .rank = PROC_EXIT_NIC, .fn = exit_hook_fn };

void nic_user_init(void)
{
	proc_on_exit(&exit_hook);
}

void nic_user_info(int i, struct hako_nic_info *out)
{
	struct nic *n = nic_get(i);
	struct nic_user *u = &users[i];
	memset(out, 0, sizeof *out);
	strlcpy(out->name, n->name, sizeof out->name);
	memcpy(out->mac, n->mac, ETH_ALEN);
	out->link_up = n->link_up;
	out->intr_dev = n->src.id;
	spin_lock(&user_lock);
	out->owner = u->owner;
	out->cpu = u->state == U_OPEN ? u->cpu : -1;
	if (u->state == U_OPEN) {
		spin_lock(&u->q->wq.lock);
		out->queued = u->q->head - u->q->tail;
		out->held = u->q->held_count;
		spin_unlock(&u->q->wq.lock);
	}
	spin_unlock(&user_lock);
	out->tx = n->stats.tx;
	out->tx_errors = n->stats.tx_errors;
	out->rx = n->stats.rx;
	out->rx_errors = n->stats.rx_errors;
	out->rx_dropped = n->stats.rx_dropped;
	out->irqs = n->stats.irqs;
	nic_traffic_info(i, out);
}

/* ---- receiving ----------------------------------------------------------------- */

/* The owner's queue with this thread counted as its reader, or NULL. */
static struct rxq *enter_queue(int i, int pid)
{
	struct rxq *q = NULL;
	spin_lock(&user_lock);
	if (users[i].state == U_OPEN && users[i].owner == pid) {
		q = users[i].q;
		spin_lock(&q->wq.lock);
		q->readers++;
		spin_unlock(&q->wq.lock);
	}
	spin_unlock(&user_lock);
	return q;
}

/* One frame from q into buf; its length, or -EAGAIN / -EINTR / -EPIPE.
 * The reader leaves q; *refill: the card held frames back meanwhile and
 * the queue is down to half. */
static long take(struct rxq *q, uint8_t *buf, bool block, bool *refill)
{
	long r;
	spin_lock(&q->wq.lock);
	while (q->head == q->tail && block && !q->closing && !thread_current()->killed)
		waitq_wait_killable(&q->wq);
	if (q->head != q->tail) {
		struct rxq_slot *s = &q->slot[q->tail % HAKO_NIC_QUEUE];
		memcpy(buf, s->data, s->len);
		r = s->len;
		q->tail++;
		*refill = q->held && q->head - q->tail <= HAKO_NIC_QUEUE / 2;
		if (*refill)
			q->held = false;
	} else {
		r = q->closing ? -EPIPE : block ? -EINTR : -EAGAIN;
	}
	q->readers--;
	spin_unlock(&q->wq.lock);
	return r;
}

long nic_user_take(int i, int pid, uint8_t *buf, bool block)
{
	struct rxq *q = enter_queue(i, pid);
	if (!q)
		return -EPERM;
	bool refill = false;
	long r = take(q, buf, block, &refill);
	if (refill)
		nic_poll(nic_get(i));              /* the frames the card held back */
	return r;
}
