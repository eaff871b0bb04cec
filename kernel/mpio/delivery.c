/*
 * delivery.c — paper 001's second switch: which CPU takes a block
 * device's interrupt, and the counters that show where each one went.
 *
 * The device's interrupt is routed by rewriting its destination
 * (drv_irq_retarget: the MSI address, or the I/O APIC redirection entry
 * of an INTx line).  QEMU's "lowest priority" delivery just picks the
 * lowest-numbered CPU, so the choice is made here, in software:
 *   master, fixed, broadcast   once, when set (or when a funnel ends);
 *   issuer, idle, busiest, load  at every submit, from the CPUs' published
 *     state (cpu.h: idle, cur_prio, rq_len, irqs), read without locks.
 * A choice made at submit holds until the next submit: with several
 * requests in flight a request may complete where a later one sent the
 * interrupt.  The request records whether it was alone (nothing in flight
 * when it was issued and nothing issued until it completed); for those
 * the choice made at its submit is the one its interrupt obeyed, and the
 * solo counters say where they completed.
 *
 * Every device interrupt enters on_interrupt (the kernel's hook on the
 * device, driver.h), which counts it for this CPU and runs the driver's
 * handler under the device's lock, unless it is a leftover: an MSI that
 * arrived where the interrupt no longer points, announcing completions
 * made before it moved, when nothing issued before the move is still in
 * flight (leftover(); what has finished since is the target's).
 * Broadcast has one line to work with, so it is emulated: the CPU the
 * line reaches counts the interrupt as raised and sends the device's
 * relay IPI to every other online CPU; each CPU, that one included, tries
 * the device's lock, and the winner, if it finds a raised interrupt not
 * yet served, runs the driver's handler.  A CPU that ends without running
 * it counts a lost race.  The CPU the line
 * reached returns only when its interrupt has been served, so a level
 * line has dropped before its EOI.
 */
#include <stdbool.h>
#include <stdint.h>
#include <blk.h>
#include <cpu.h>
#include <driver.h>
#include <errno.h>
#include <intr.h>
#include <kprintf.h>
#include <mpio.h>
#include <smp.h>
#include <time.h>
#include <arch/arch.h>
#include "mpio_internal.h"

_Static_assert(MPIO_CPUS == MAX_CPUS, "mpio's per-CPU counters differ from MAX_CPUS");

#define LOAD_WINDOW_NS 10000000ull   /* load: interrupts are counted per 10 ms window */
#define LOAD_SCALE     16            /* load_avg is in 1/16 interrupts */

/* The CPUs a policy may choose: online and scheduling (not the IOP). */
static uint64_t online(void) { return sched_cpu_mask(); }
static bool is_online(int c) { return online() & (1ull << c); }

int mpio_effective(const struct blkdev *d)
{
	if (d->mp.iop)
		return d->mp.policy;             /* no funnel: the IOP issues */
	return d->mp.mode == MPIO_FUNNEL ? MPIO_POL_MASTER : d->mp.policy;
}

static bool at_submit(int policy)
{
	return policy == MPIO_POL_ISSUER || policy == MPIO_POL_IDLE ||
	       policy == MPIO_POL_BUSIEST || policy == MPIO_POL_LOAD;
}

/* ---- choosing a CPU -------------------------------------------------------- */

/* 2b-2: the first idle CPU after me, else the one running the lowest priority. */
static int pick_idle(int me)
{
	int best = me, best_prio = cpus[me].cur_prio;
	for (int k = 1; k <= ncpus; k++) {
		int c = (me + k) % ncpus;
		if (!is_online(c))
			continue;
		if (cpus[c].idle)
			return c;
		if (cpus[c].cur_prio < best_prio)
			best = c, best_prio = cpus[c].cur_prio;
	}
	return best;
}

/* 2b-3: the CPU running the highest-priority thread; me on a tie. */
static int pick_busiest(int me)
{
	int best = me, best_prio = cpus[me].idle ? PRIO_IDLE : cpus[me].cur_prio;
	for (int k = 1; k < ncpus; k++) {
		int c = (me + k) % ncpus;
		int prio = cpus[c].idle ? PRIO_IDLE : cpus[c].cur_prio;
		if (is_online(c) && prio > best_prio)
			best = c, best_prio = prio;
	}
	return best;
}

/* Close the load windows that have ended: each CPU's interrupts per window, averaged. */
static void load_age(struct mpio *m)
{
	uint64_t now = time_ns();
	if (now - m->load_when < LOAD_WINDOW_NS)
		return;
	uint64_t windows = (now - m->load_when) / LOAD_WINDOW_NS;
	for (int c = 0; c < ncpus; c++) {
		uint64_t irqs = cpus[c].irqs;
		uint64_t fresh = (irqs - m->load_seen[c]) * LOAD_SCALE / windows;
		m->load_seen[c] = irqs;
		m->load_avg[c] = (m->load_avg[c] + fresh) / 2;
	}
	m->load_when = now;
}

/* Beyond the paper: fewest runnable threads (running counts), then fewest
 * recent interrupts (the average plus the open window); me on a tie. */
static int pick_load(struct mpio *m, int me)
{
	load_age(m);
	int best = -1;
	uint64_t best_threads = 0, best_irqs = 0;
	for (int k = 0; k < ncpus; k++) {
		int c = (me + k) % ncpus;
		if (!is_online(c))
			continue;
		uint64_t threads = (uint64_t)cpus[c].rq_len + (cpus[c].idle ? 0 : 1);
		uint64_t irqs = m->load_avg[c] + (cpus[c].irqs - m->load_seen[c]) * LOAD_SCALE;
		if (best < 0 || threads < best_threads || (threads == best_threads && irqs < best_irqs))
			best = c, best_threads = threads, best_irqs = irqs;
	}
	return best;
}

/*
 * Send the device's interrupt to cpu.  Caller holds m->route_lock; r is
 * the request being issued (counted in flight, its seq taken), or NULL.
 * What is in flight now, r excepted, was issued before the move: such a
 * request may have completed with the interrupt aimed at the CPU before,
 * so m->before counts them until they complete (mpio_complete).  The
 * count can only be too high (a completion racing the move), never too
 * low: note_issue counts a request in flight before it takes its seq.
 */
static void point(struct blkdev *d, int cpu, const struct blk_req *r)
{
	struct mpio *m = &d->mp;
	if (cpu == m->target)
		return;
	if (drv_irq_retarget(d->dev, cpu) != 0)
		return;
	uint64_t aimed = r ? r->seq : __atomic_load_n(&m->seq, __ATOMIC_SEQ_CST) + 1;
	__atomic_store_n(&m->aimed, aimed, __ATOMIC_SEQ_CST);
	int others = __atomic_load_n(&m->inflight, __ATOMIC_SEQ_CST) - (r ? 1 : 0);
	__atomic_store_n(&m->before, others, __ATOMIC_SEQ_CST);
	__atomic_store_n(&m->target, cpu, __ATOMIC_SEQ_CST);
	m->retargets++;
}

/* ---- issuing ------------------------------------------------------------------ */

/* r is issued on this CPU: count it, note what else is in flight.  In
 * flight first, then its seq (point relies on that order). */
static void note_issue(struct blkdev *d, struct blk_req *r)
{
	struct mpio *m = &d->mp;
	r->issuer = cpu_id();
	__atomic_fetch_add(&d->issued[r->issuer], 1, __ATOMIC_RELAXED);
	r->alone = __atomic_fetch_add(&m->inflight, 1, __ATOMIC_SEQ_CST) == 0;
	r->seq = __atomic_add_fetch(&m->seq, 1, __ATOMIC_SEQ_CST);
}

void mpio_route(struct blkdev *d, struct blk_req *r)
{
	struct mpio *m = &d->mp;
	int policy = mpio_effective(d);
	if (!m->has_irq || !at_submit(policy)) {
		note_issue(d, r);
		return;
	}
	spin_lock(&m->route_lock);               /* and on this CPU until it is decided */
	note_issue(d, r);
	int me = r->issuer, cpu = me;
	if (policy == MPIO_POL_IDLE)
		cpu = pick_idle(me);
	else if (policy == MPIO_POL_BUSIEST)
		cpu = pick_busiest(me);
	else if (policy == MPIO_POL_LOAD)
		cpu = pick_load(m, me);
	if (!m->iop)                             /* else it stays on the IOP */
		point(d, cpu, r);
	spin_unlock(&m->route_lock);
}

void mpio_complete(struct blk_req *r, int cpu)
{
	struct mpio *m = &r->dev->mp;
	bool solo = r->alone && __atomic_load_n(&m->seq, __ATOMIC_SEQ_CST) == r->seq;
	if (r->seq < __atomic_load_n(&m->aimed, __ATOMIC_SEQ_CST))
		__atomic_fetch_sub(&m->before, 1, __ATOMIC_SEQ_CST);   /* before the in-flight count */
	__atomic_fetch_sub(&m->inflight, 1, __ATOMIC_SEQ_CST);
	if (solo) {
		__atomic_fetch_add(&m->solo, 1, __ATOMIC_RELAXED);
		if (cpu == r->issuer)
			__atomic_fetch_add(&m->solo_on_issuer, 1, __ATOMIC_RELAXED);
	}
}

/* ---- taking the interrupt --------------------------------------------------------- */

/* Broadcast's race: true if this CPU won and ran the handler. */
static bool race(struct blkdev *d)
{
	struct mpio *m = &d->mp;
	if (!spin_trylock(&m->lock))
		return false;
	uint64_t raised = __atomic_load_n(&m->raised, __ATOMIC_ACQUIRE);
	bool won = raised > m->served;
	if (won) {
		drv_irq_run(d->dev);
		__atomic_store_n(&m->served, raised, __ATOMIC_RELEASE);
	}
	spin_unlock(&m->lock);
	return won;
}

/* The relay IPI, on every other online CPU. */
static void on_relay(void *arg)
{
	struct blkdev *d = arg;
	int me = cpu_id();
	__atomic_fetch_add(&d->mp.interrupts[me], 1, __ATOMIC_RELAXED);
	if (!race(d))
		__atomic_fetch_add(&d->mp.lost[me], 1, __ATOMIC_RELAXED);
}

/* The device's line reached this CPU under broadcast: relay, race, wait until served. */
static void broadcast(struct blkdev *d, int me)
{
	struct mpio *m = &d->mp;
	uint64_t mine = __atomic_add_fetch(&m->raised, 1, __ATOMIC_ACQ_REL);
	uint64_t mask = online();
	for (int c = 0; c < ncpus; c++)
		if (c != me && (mask & (1ull << c)))
			smp_send_ipi(c, m->relay_vector);
	bool won = race(d);
	while (__atomic_load_n(&m->served, __ATOMIC_ACQUIRE) < mine) {
		arch_spin_hint();
		won |= race(d);
	}
	if (!won)
		__atomic_fetch_add(&m->lost[me], 1, __ATOMIC_RELAXED);
}

/*
 * A leftover: an MSI taken on a CPU the device's interrupt no longer goes
 * to, while every request in flight was issued after it moved.  It was
 * sent before the move, for completions another CPU has since handled;
 * the requests in flight complete after the move, so their MSIs go to
 * the target.  QEMU's AHCI sends one MSI per completed command, to where
 * the interrupt points at that moment (and one more when a handler's
 * write of IS finds another command finished meanwhile); the first
 * handler completes every finished slot, and the other MSIs wait on
 * their CPUs.  If its handler ran, a leftover would complete whatever
 * finished since: a request issued alone on another CPU, whose own MSI
 * is on its way there (under icount the vCPUs take turns, so the
 * leftover often runs first).  Only for the policies that move the
 * interrupt at each submit, and not for INTx: a level line still
 * asserted is delivered again where it points now.  Read under
 * route_lock, so a move is seen whole (the address written, then target
 * and before); a completion racing the check only lowers before, for a
 * request that is done.
 */
static bool leftover(struct blkdev *d, int me)
{
	struct mpio *m = &d->mp;
	if (d->dev->irq != DRV_IRQ_MSI || m->iop || !at_submit(mpio_effective(d)) ||
	    __atomic_load_n(&m->target, __ATOMIC_SEQ_CST) == me)
		return false;
	spin_lock(&m->route_lock);
	bool left = m->target != me && __atomic_load_n(&m->before, __ATOMIC_SEQ_CST) == 0;
	spin_unlock(&m->route_lock);
	return left;
}

/* Every interrupt of the device (drv_irq_set_hook), interrupts off. */
static void on_interrupt(struct drv_dev *dev, void *ctx)
{
	struct blkdev *d = ctx;
	int me = cpu_id();
	__atomic_fetch_add(&d->mp.interrupts[me], 1, __ATOMIC_RELAXED);
	if (mpio_effective(d) == MPIO_POL_BROADCAST && !d->mp.iop) {
		broadcast(d, me);
		return;
	}
	spin_lock(&d->mp.lock);
	if (leftover(d, me)) {
		__atomic_fetch_add(&d->mp.left[me], 1, __ATOMIC_RELAXED);
	} else {
		uint64_t done = d->completed[me];
		drv_irq_run(dev);
		if (!d->mp.iop && d->completed[me] == done)      /* the IOP's finish elsewhere */
			__atomic_fetch_add(&d->mp.empty[me], 1, __ATOMIC_RELAXED);
	}
	spin_unlock(&d->mp.lock);
}

/* ---- control ------------------------------------------------------------------------ */

void mpio_attach(struct blkdev *d)
{
	struct mpio *m = &d->mp;
	spin_init(&m->lock, "mpio-dev", LOCK_MPIO_DEV);
	spin_init(&m->route_lock, "mpio-route", LOCK_MPIO_ROUTE);
	m->mode = MPIO_SYMMETRIC;
	m->policy = MPIO_POL_MASTER;
	m->fixed_cpu = 0;
	for (int c = ncpus - 1; c > 0; c--)      /* the lowest scheduling CPU after the master */
		if (is_online(c))
			m->fixed_cpu = c;
	m->target = -1;
	m->relay_vector = -1;
	m->load_when = time_ns();
	/* One interrupt the policies can point: MSI or INTx.  A device with a
	 * vector per CPU (NVMe's MSI-X queues) is its own answer to paper 001's
	 * question, and like the ramdisk it takes no policy. */
	m->has_irq = d->dev && (d->dev->irq == DRV_IRQ_MSI || d->dev->irq == DRV_IRQ_INTX);
	if (!m->has_irq)
		return;
	int v = intr_alloc_vector();
	if (v >= 0 && intr_register(v, on_relay, d, d->name) == 0)
		m->relay_vector = v;
	else
		kprintf("mpio: %s: no vector for broadcast\n", d->name);
	point(d, MPIO_MASTER, NULL);         /* the default policy; no request yet */
	drv_irq_set_hook(d->dev, on_interrupt, d);
}

int mpio_check(struct blkdev *d, int mode, int policy, int fixed_cpu)
{
	struct mpio *m = &d->mp;
	if (mode != MPIO_KEEP && mode != MPIO_SYMMETRIC && mode != MPIO_FUNNEL)
		return -EINVAL;
	if (policy != MPIO_KEEP && (policy < 0 || policy >= MPIO_POLICIES || !m->has_irq))
		return -EINVAL;
	if (policy == MPIO_POL_BROADCAST && m->relay_vector < 0)
		return -EINVAL;
	if (fixed_cpu != MPIO_KEEP && (fixed_cpu < 0 || fixed_cpu >= ncpus || !is_online(fixed_cpu)))
		return -EINVAL;
	return 0;
}

void mpio_set(struct blkdev *d, int mode, int policy, int fixed_cpu)
{
	struct mpio *m = &d->mp;
	if (mode != MPIO_KEEP)
		mpio_set_mode(d, mode);          /* funnel: waits out symmetric submits */
	spin_lock(&m->route_lock);
	if (fixed_cpu != MPIO_KEEP)
		m->fixed_cpu = fixed_cpu;
	if (policy != MPIO_KEEP)
		m->policy = policy;
	__atomic_add_fetch(&m->seq, 1, __ATOMIC_SEQ_CST);   /* what is in flight is not solo */
	int now = mpio_effective(d);
	if (m->has_irq && m->iop)
		point(d, iop_cpu(), NULL);
	else if (m->has_irq && !at_submit(now))
		point(d, now == MPIO_POL_FIXED ? m->fixed_cpu : MPIO_MASTER, NULL);
	spin_unlock(&m->route_lock);
}

/* ---- the I/O processor's side (iop.c) ----------------------------------------------- */

int mpio_check_iop(struct blkdev *d, int on)
{
	if (on != MPIO_KEEP && on != 0 && on != 1)
		return -EINVAL;
	return on == 1 && iop_cpu() < 0 ? -EINVAL : 0;
}

/*
 * Requests already in a mailbox are executed whatever is set after them,
 * and a completion is signalled by the IOP wherever the interrupt lands,
 * so no request is lost by a switch (iop.c).  Switching on points the
 * interrupt at the IOP; switching off points it as the policy says
 * (issuer, idle, busiest, load: at the next submit).
 */
void mpio_set_iop(struct blkdev *d, int on)
{
	struct mpio *m = &d->mp;
	spin_lock(&m->route_lock);
	__atomic_store_n(&m->iop, on, __ATOMIC_SEQ_CST);
	__atomic_add_fetch(&m->seq, 1, __ATOMIC_SEQ_CST);   /* what is in flight is not solo */
	spin_unlock(&m->route_lock);
	mpio_set(d, MPIO_KEEP, MPIO_KEEP, MPIO_KEEP);       /* points the interrupt */
}

int mpio_iop_target(struct blkdev *d, struct blk_req *r)
{
	struct mpio *m = &d->mp;
	int cpu, me = r->issuer;
	switch (m->policy) {
	case MPIO_POL_FIXED:
		return m->fixed_cpu;
	case MPIO_POL_ISSUER:
		return me;
	case MPIO_POL_IDLE:
		return pick_idle(me);
	case MPIO_POL_BUSIEST:
		return pick_busiest(me);
	case MPIO_POL_BROADCAST:
		return -1;
	case MPIO_POL_LOAD:
		spin_lock(&m->route_lock);
		cpu = pick_load(m, me);
		spin_unlock(&m->route_lock);
		return cpu;
	}
	return MPIO_MASTER;
}

void mpio_reset(struct blkdev *d)
{
	struct mpio *m = &d->mp;
	d->reads = d->writes = d->errors = 0;
	m->retargets = m->solo = m->solo_on_issuer = 0;
	m->iop_cmds = 0;
	for (int c = 0; c < MPIO_CPUS; c++) {
		m->iop_ipis[c] = 0;
		d->issued[c] = d->completed[c] = 0;
		m->interrupts[c] = m->lost[c] = 0;
		m->left[c] = m->empty[c] = 0;
	}
}
