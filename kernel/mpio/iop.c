/*
 * iop.c — the I/O processor: paper 001's HDC PU on TOP-1, one CPU that
 * runs no thread and executes the device commands the others send it.
 *
 * Kernel option iop=N (1 <= N < the CPUs online): at boot CPU N leaves the
 * scheduler (sched_withdraw_cpu: no pick, affinity, steal or delivery
 * policy chooses it) and runs serve() instead of its idle loop.  A device
 * set to use the IOP (HAKO_BLK_SET iop, mpio_set_iop) has its interrupt
 * pointed at CPU N; blk_io_frame's request then goes, via mpio_submit,
 * into the mailbox of the CPU it is issued on, and the issuing thread
 * sleeps as usual.  serve() polls every mailbox, submits each command to
 * its driver on the IOP under the device's lock (so the IOP is also the
 * device's funnel: one command at a time, whatever the mode), and when
 * the driver completes it (blk_complete → iop_done, on the IOP: the
 * ramdisk inside submit, the others from their interrupt) sends an IPI to
 * the CPU the device's delivery policy names (mpio_iop_target; broadcast:
 * every scheduling CPU, the first to look takes it).  That CPU runs
 * blk_finish: it counts the completion as its own and wakes the waiter.
 *
 * No locks, three kinds of lists, each a single writer or a single reader:
 *   mailbox[c]  a ring, written only by CPU c with interrupts off (so one
 *               producer, and a thread cannot move mid-push), read only
 *               by the IOP: head and tail published with release/acquire.
 *   done        requests the drivers completed: pushed by whichever CPU
 *               took the interrupt (the IOP, or a CPU the interrupt still
 *               reached while it was being switched), taken whole by the
 *               IOP with one exchange.
 *   inbox[c], bcast  completions for CPU c, or for any: pushed by the IOP
 *               only, taken whole by one exchange in the IPI handler.
 * A push is a compare-and-swap onto a stack; a taker removes the whole
 * stack at once, so no node is ever popped singly (no ABA).  A request is
 * on one list at a time, linked through r->iop_next, and lives on its
 * waiter's stack until blk_finish has woken it; nobody touches it after.
 */
#include <stdbool.h>
#include <stdint.h>
#include <blk.h>
#include <cmdline.h>
#include <cpu.h>
#include <errno.h>
#include <intr.h>
#include <kprintf.h>
#include <mpio.h>
#include <options.h>
#include <region.h>
#include <sched.h>
#include <smp.h>
#include <spinlock.h>
#include <arch/arch.h>
#include "mpio_internal.h"

#define MAILBOX_SLOTS 32             /* requests in flight per issuing CPU */

struct mailbox {
	struct blk_req *slot[MAILBOX_SLOTS];
	uint32_t head;                   /* next to write: the issuing CPU's */
	uint32_t tail;                   /* next to read: the IOP's */
} __attribute__((aligned(64)));

static struct mailbox mailbox[MAX_CPUS];
static struct blk_req *done;         /* completed by the drivers, for the IOP */
static struct blk_req *inbox[MAX_CPUS];   /* completions for each CPU */
static struct blk_req *bcast;        /* completions for whichever CPU looks first */
static int the_iop = -1;
static int vector = -1;              /* the completion IPI */

int iop_cpu(void) { return __atomic_load_n(&the_iop, __ATOMIC_ACQUIRE); }

static void push(struct blk_req **list, struct blk_req *r)
{
	struct blk_req *old = __atomic_load_n(list, __ATOMIC_RELAXED);
	do
		r->iop_next = old;
	while (!__atomic_compare_exchange_n(list, &old, r, true, __ATOMIC_RELEASE, __ATOMIC_RELAXED));
}

static struct blk_req *take_all(struct blk_req **list)
{
	return __atomic_exchange_n(list, NULL, __ATOMIC_ACQUIRE);
}

/* ---- the issuing CPUs ------------------------------------------------------ */

int iop_submit(struct blkdev *d, struct blk_req *r)
{
	r->via_iop = true;
	for (;;) {
		push_off();                      /* this CPU's mailbox, this CPU alone */
		struct mailbox *mb = &mailbox[cpu_id()];
		uint32_t head = mb->head;
		if (head - __atomic_load_n(&mb->tail, __ATOMIC_ACQUIRE) < MAILBOX_SLOTS) {
			mpio_route(d, r);        /* counts it issued here */
			sync_post(HAKO_SYNC_CALL, r);    /* the IOP takes it no earlier */
			mb->slot[head % MAILBOX_SLOTS] = r;
			__atomic_store_n(&mb->head, head + 1, __ATOMIC_RELEASE);
			return 0;                /* interrupts stay off until the caller waits (mpio.h) */
		}
		pop_off();
		sched_yield();                   /* full: the IOP is behind */
	}
}

/* The completion IPI, on the CPU the policy chose (or any, for bcast). */
static void finish_all(struct blk_req *r)
{
	while (r) {
		struct blk_req *next = r->iop_next;    /* r is gone once finished */
		blk_finish(r, r->iop_status);
		r = next;
	}
}

static void on_ipi(void *unused)
{
	finish_all(take_all(&inbox[cpu_id()]));
	finish_all(take_all(&bcast));
}

/* ---- the I/O processor -------------------------------------------------------- */

void iop_done(struct blk_req *r, int status)
{
	r->iop_status = status;
	push(&done, r);
}

/* One command on its driver, here, one at a time per device. */
static void execute(struct blk_req *r)
{
	struct blkdev *d = r->dev;
	sync_irq_begin();                   /* timed from its issue (see serve) */
	sync_wait(HAKO_SYNC_CALL, r);
	spin_lock(&d->mp.lock);
	int err = d->ops->submit(d, r);
	spin_unlock(&d->mp.lock);
	__atomic_fetch_add(&d->mp.iop_cmds, 1, __ATOMIC_RELAXED);
	if (err)
		iop_done(r, err);                /* it failed to start: complete it so */
	sync_irq_end();
}

static bool serve_mailbox(struct mailbox *mb)
{
	uint32_t tail = mb->tail, head = __atomic_load_n(&mb->head, __ATOMIC_ACQUIRE);
	if (tail == head)
		return false;
	for (; tail != head; tail++) {
		execute(mb->slot[tail % MAILBOX_SLOTS]);
		__atomic_store_n(&mb->tail, tail + 1, __ATOMIC_RELEASE);
	}
	return true;
}

/* Signal each completed request to the CPU its device's policy names. */
static bool signal_done(void)
{
	struct blk_req *r = take_all(&done);
	if (!r)
		return false;
	while (r) {
		struct blk_req *next = r->iop_next;
		struct blkdev *d = r->dev;
		sync_irq_begin();               /* timed from the device's end (see serve) */
		sync_wait(HAKO_SYNC_IO, r);      /* testdev's modelled end of it */
		sync_post(HAKO_SYNC_IO, r);      /* signalled from here: blk_finish's wait */
		int cpu = mpio_iop_target(d, r);
		if (cpu >= 0) {
			__atomic_fetch_add(&d->mp.iop_ipis[cpu], 1, __ATOMIC_RELAXED);
			push(&inbox[cpu], r);        /* r may be gone from here on */
			smp_send_ipi(cpu, vector);
		} else {
			uint64_t mask = sched_cpu_mask();
			push(&bcast, r);
			for (int c = 0; c < ncpus; c++)
				if (mask & (1ull << c)) {
					__atomic_fetch_add(&d->mp.iop_ipis[c], 1, __ATOMIC_RELAXED);
					smp_send_ipi(c, vector);
				}
		}
		sync_irq_end();
		r = next;
	}
	return true;
}

/* Is there a command in a mailbox or a completion to signal? */
static bool pending(void)
{
	if (__atomic_load_n(&done, __ATOMIC_ACQUIRE))
		return true;
	for (int c = 0; c < ncpus; c++)
		if (__atomic_load_n(&mailbox[c].head, __ATOMIC_ACQUIRE) != mailbox[c].tail)
			return true;
	return false;
}

/*
 * The IOP's loop, with interrupts on (its devices' and the other CPUs'
 * calls).  To the cost model's clocks (tools/costmodel/vclock.h) polling
 * is waiting, not work, and each command and each completion is handled
 * like an interrupt of its own: timed from its issuer's post or from the
 * device's end, not from the IOP's clock, which under -icount's turns
 * another command may have moved past it.
 */
static void serve(void)
{
	kprintf("iop: cpu %d serves device commands\n", cpu_id());
	for (;;) {
		sync_spin_begin(HAKO_SYNC_CALL);
		while (!pending())
			arch_spin_hint();        /* lets the other vCPUs run under icount */
		sync_spin_end(HAKO_SYNC_CALL, 0);
		for (int c = 0; c < ncpus; c++)
			serve_mailbox(&mailbox[c]);
		signal_done();
	}
}

/* ---- boot -------------------------------------------------------------------------- */

_Static_assert(OPTIONS_CPUS_MAX == MAX_CPUS, "options.c checks iop= against MAX_CPUS");

/* iop=N: N, or -EINVAL if it is not a number naming an online CPU other than the master. */
static int parse(const char *s)
{
	int n = 0;
	if (!*s)
		return -EINVAL;
	for (; *s; s++) {
		if (*s < '0' || *s > '9' || n > MAX_CPUS)
			return -EINVAL;
		n = n * 10 + (*s - '0');
	}
	if (n < 1 || n >= ncpus || !(smp_online_mask() & (1ull << n)) || cpus_online() < 2)
		return -EINVAL;
	return n;
}

void iop_init(void)
{
	const char *s = cmdline_get(&kcmdline, "iop");
	if (!s)
		return;
	int n = parse(s);
	if (n < 0)
		options_refuse("kernel option iop=%s refused (allowed: a CPU 1..%d)", s, cpus_online() - 1);
	vector = intr_alloc_vector();
	if (vector < 0 || intr_register(vector, on_ipi, NULL, "iop-done") < 0) {
		kprintf("iop: no vector for the completion IPI, running without an I/O processor\n");
		return;
	}
	__atomic_store_n(&the_iop, n, __ATOMIC_RELEASE);
	sched_withdraw_cpu(n, serve);
	kprintf("iop: cpu %d is the I/O processor\n", n);
}
