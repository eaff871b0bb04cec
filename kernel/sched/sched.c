/*
 * sched.c — per-CPU run queues, the context-switch protocol, idle loops,
 * load balancing, affinity and migration; the scheduler's side of a wait.
 *
 * The switch protocol: a CPU switches only while holding its own run
 * queue lock, and the thread it switches to releases that lock first
 * thing (sched_finish_switch).  So a thread found on a run queue has
 * always finished saving its registers.  A thread leaving for another CPU
 * (migration, affinity) is put on that CPU's queue only after the switch,
 * by the next thread on the old CPU.  Every wake-up goes to the CPU the
 * thread last ran on, which it cannot reach before its switch completes.
 * For that, a thread marks itself T_SLEEPING only under its own run-queue
 * lock, held from there to the end of the switch.
 *
 * A thread's `cpu` names the run queue that owns it: the queue it is on,
 * the CPU it runs on, or the CPU it last ran on while it sleeps.  It
 * changes only under the run-queue lock of the CPU it names, so whoever
 * locks cpus[t->cpu] and then finds t->cpu unchanged (lock_rq_of) holds
 * the thread still: its queue, state and priority cannot move under it.
 * A thread moving elsewhere gets its new `cpu` under the old lock and is
 * queued there under the new one; between the two it is on no queue.
 *
 * Threads go to sleep on wait queues (waitq.c) through sched_sleep_on
 * here.
 *
 * The switches that are given the thread to run instead of asking the
 * run queue (ISPC's fastpath, a semaphore post) are in sched_direct.c;
 * the switch step itself (switch_to) is shared through sched_switch.h.
 *
 * A CPU can be withdrawn from scheduling at boot, before any thread
 * exists (sched_withdraw_cpu: the I/O processor, mpio/iop.c): it leaves
 * sched_cpu_mask, so no pick, affinity, migration or steal puts a thread
 * there, and its idle loop runs the loop it was given instead.
 */
#include <stdint.h>
#include <errno.h>
#include <cpu.h>
#include <panic.h>
#include <sched.h>
#include <serialiser.h>
#include <smp.h>
#include <thread.h>
#include <time.h>
#include <region.h>
#include "sched_switch.h"

uint64_t sched_slice_ticks = 2;

static uint64_t withdrawn;                       /* CPUs that run no thread */
static void (*volatile own_loop[MAX_CPUS])(void);

uint64_t sched_cpu_mask(void) { return smp_online_mask() & ~withdrawn; }

void sched_withdraw_cpu(int cpu, void (*loop)(void))
{
	__atomic_fetch_or(&withdrawn, 1ull << cpu, __ATOMIC_SEQ_CST);
	own_loop[cpu] = loop;
	smp_send_resched(cpu);           /* out of its hlt, into the loop */
}

static void rq_remove(struct cpu *c, struct thread *t)
{
	t->on_rq = false;
	list_remove(&t->rq_link);
	if (list_empty(&c->rq.queue[t->prio]))
		c->rq.bitmap &= ~(1u << t->prio);
	c->rq_len = --c->rq.count;
}

static struct thread *rq_highest(struct cpu *c)
{
	if (!c->rq.bitmap)
		return NULL;
	int p = 31 - __builtin_clz(c->rq.bitmap);
	return list_entry(c->rq.queue[p].next, struct thread, rq_link);
}


/* Least loaded online CPU the thread may use (running counts as one). */
static int pick_cpu(struct thread *t)
{
	int best = -1, best_load = 1 << 30;
	uint64_t online = sched_cpu_mask();
	for (int i = 0; i < ncpus; i++) {
		if (!sched_allowed(t, i) || !(online & (1ull << i)))
			continue;
		int load = cpus[i].rq_len + (cpus[i].idle ? 0 : 1);
		if (load < best_load)
			best = i, best_load = load;
	}
	return best >= 0 ? best : 0;
}

static void kick(int cpu, int prio)
{
	if (prio > cpus[cpu].cur_prio)
		smp_send_resched(cpu);
}

/* Lock the run queue that owns t (see the top of the file): read its
 * CPU, lock that queue, and try again if t moved before the lock was had. */
static struct cpu *lock_rq_of(struct thread *t)
{
	for (;;) {
		int cpu = __atomic_load_n(&t->cpu, __ATOMIC_ACQUIRE);
		struct cpu *c = &cpus[cpu];
		spin_lock(&c->rq.lock);
		if (t->cpu == cpu)
			return c;
		spin_unlock(&c->rq.lock);
	}
}

/* Queue t on the CPU its `cpu` names already; t is on no queue. */
static void enqueue_owned(struct thread *t)
{
	struct cpu *c = lock_rq_of(t);
	t->state = T_RUNNABLE;
	rq_push(c, t);
	int prio = t->prio;
	spin_unlock(&c->rq.lock);
	kick(c->id, prio);
}

void sched_enqueue_new(struct thread *t)
{
	int cpu = pick_cpu(t);
	struct cpu *old = lock_rq_of(t);
	__atomic_store_n(&t->cpu, cpu, __ATOMIC_RELEASE);
	spin_unlock(&old->rq.lock);
	sync_post(HAKO_SYNC_THREAD, t);  /* its first run comes after this */
	enqueue_owned(t);
}

/* Where a thread that stops running here must go instead, or -1. */
static int leave_target(struct cpu *c, struct thread *t)
{
	if (t->migrate_to >= 0) {
		int k = t->migrate_to;
		t->migrate_to = -1;
		return k == c->id ? -1 : k;
	}
	return sched_allowed(t, c->id) ? -1 : pick_cpu(t);
}

/* A switch out of or into a party whose switches are counted (sched.h): a
 * call of its own, given the threads (their fields are read here), so the
 * switch of two uncounted threads only tests two fields. */
__attribute__((noinline))
void sched_count_switch(struct thread *from, struct thread *to, bool as_switch)
{
	struct switch_count *out = from->switches, *in = to->switches;
	if (out == in)
		return;                      /* between two threads of one party */
	if (out)
		__atomic_fetch_add(&out->out, 1, __ATOMIC_RELAXED);
	if (in)
		__atomic_fetch_add(&in->in, 1, __ATOMIC_RELAXED);
	if (as_switch)
		__atomic_fetch_add(&(in ? in : out)->as, 1, __ATOMIC_RELAXED);
}

/*
 * Give this CPU to the best runnable thread.  Caller holds c->rq.lock
 * (and nothing else) and has set current->state if it is not staying
 * runnable.  Returns in the old thread, later, with the lock released.
 */
static void switch_away(struct cpu *c)
{
	struct thread *prev = c->current;
	if (c->ncli != 1)
		panic("sched: switch with %d locks held", c->ncli);
	c->prev_target = -1;
	if (prev->state == T_RUNNING && prev != c->idle_thread) {
		prev->state = T_RUNNABLE;
		c->prev_target = leave_target(c, prev);
		if (c->prev_target < 0)
			rq_push(c, prev);
	}
	struct thread *next = rq_highest(c);
	if (next)
		rq_remove(c, next);
	else
		next = c->idle_thread;
	switch_to(c, prev, next, sched_slice_ticks, SWITCH_PICKED);
}

/* First thing a thread does after being switched to. */
void sched_finish_switch(void)
{
	struct cpu *c = this_cpu();
	struct thread *prev = c->prev;
	int target = c->prev_target;
	sync_wait(HAKO_SYNC_THREAD, c->current);   /* after its wake-up and its last run */
	c->prev = NULL;
	c->prev_target = -1;
	/* Read prev's state while the lock still holds it: once released, a
	 * sleeping prev can be woken, run elsewhere, die and be reaped there,
	 * and reading T_DEAD here afterwards would reap it a second time. */
	bool dead = prev && prev->state == T_DEAD;
	bool move = prev && prev->state == T_RUNNABLE && target >= 0;
	if (move) {
		prev->no_steal = true;
		__atomic_store_n(&prev->cpu, target, __ATOMIC_RELEASE);
	}
	spin_unlock(&c->rq.lock);
	if (dead)
		thread_reap(prev);
	else if (move)
		enqueue_owned(prev);
}

static struct cpu *lock_own_rq(void)
{
	push_off();
	struct cpu *c = this_cpu();
	spin_lock(&c->rq.lock);
	pop_off();
	return c;
}

void sched_yield(void)
{
	struct cpu *c = lock_own_rq();
	c->need_resched = false;
	switch_away(c);
}

/* current->state is already T_DEAD. */
void sched_block(void)
{
	switch_away(lock_own_rq());
}

/*
 * Sleep until tm fires (its function wakes us) or a kill does.  The state
 * changes and the timer is armed under our run-queue lock, which the
 * switch holds until our registers are saved: a wake-up from this CPU's
 * timer or from thread_interrupt elsewhere cannot queue us while we still
 * run (an idle CPU could steal and resume us from stale registers).
 */
void sched_sleep_timed(struct timer *tm, uint64_t deadline)
{
	struct cpu *c = lock_own_rq();
	struct thread *t = c->current;
	if (t->killed) {                 /* set before thread_interrupt took this lock */
		spin_unlock(&c->rq.lock);
		return;
	}
	t->state = T_SLEEPING;
	timer_arm(tm, deadline);
	switch_away(c);
}

/*
 * Sleep until sched_wakeup if go(t, arg), asked under our run-queue lock
 * (so a waker that decides under that lock cannot slip in between): the
 * wait of a class that keeps its own state, isoch.c.  A killed thread
 * does not sleep.
 */
void sched_sleep_if(bool (*go)(struct thread *t, void *arg), void *arg)
{
	struct cpu *c = lock_own_rq();
	struct thread *t = c->current;
	if (t->killed || !go(t, arg)) {
		spin_unlock(&c->rq.lock);
		return;
	}
	t->state = T_SLEEPING;
	switch_away(c);
}

/*
 * Take t off this CPU until sched_wakeup (isoch.c's budget): running, it
 * switches away at the end of the interrupt; queued, it leaves the queue.
 * Caller holds this CPU's run-queue lock; false if t was neither running
 * nor queued here.  t must be pinned here: woken
 * before its switch it is queued while still running, which is safe only
 * if no other CPU may take it.
 */
bool sched_stop_locked(struct cpu *c, struct thread *t)
{
	if (c->current == t && t->state == T_RUNNING) {
		t->state = T_SLEEPING;
		c->need_resched = true;
		return true;
	}
	if (t->state == T_RUNNABLE && t->on_rq && t->cpu == c->id) {
		rq_remove(c, t);
		t->state = T_SLEEPING;
		return true;
	}
	return false;                    /* asleep already, or on its way elsewhere */
}

void sched_request_resched(void)
{
	this_cpu()->need_resched = true;
}

void sched_preempt_if_needed(void)
{
	struct cpu *c = this_cpu();
	/* The idle loop yields by itself; switching away from it in the middle
	 * of an interrupt nested in its own reaping (sched_finish_switch runs
	 * with interrupts on) led to a thread reaped twice on -smp 1.  An
	 * interrupt nested in a handler that re-enabled interrupts
	 * (irq_nest) must not switch away from under that handler. */
	if (c->need_resched && c->ncli == 0 && c->irq_nest == 0 && c->current != c->idle_thread)
		sched_yield();
}

void sched_wakeup(struct thread *t)
{
	struct cpu *c = lock_rq_of(t);
	bool woke = t->state == T_SLEEPING;
	int prio = t->prio;
	if (woke) {
		t->state = T_RUNNABLE;
		rq_push(c, t);
		sync_post(HAKO_SYNC_THREAD, t);
	}
	spin_unlock(&c->rq.lock);
	if (woke)
		kick(c->id, prio);
}

/* Take one thread that may run on `me` from the busiest other CPU. */
static bool steal(struct cpu *me)
{
	int busiest = -1, most = 0;
	for (int i = 0; i < ncpus; i++)
		if (i != me->id && cpus[i].rq_len > most)
			busiest = i, most = cpus[i].rq_len;
	if (busiest < 0)
		return false;
	struct cpu *v = &cpus[busiest];
	struct thread *found = NULL;
	/* serialise=on: SER_STEAL_SCAN threads at most, and no waiting for the lock. */
	int budget = serialiser_chunk(SER_STEAL_SCAN, INT32_MAX);
	if (!serialiser_on())
		spin_lock(&v->rq.lock);
	else if (!spin_trylock(&v->rq.lock))
		return false;
	for (int p = NPRIO - 1; p >= 0 && !found && budget > 0; p--)
		list_for_each(n, &v->rq.queue[p]) {
			struct thread *t = list_entry(n, struct thread, rq_link);
			if (sched_allowed(t, me->id) && !t->no_steal) {
				found = t;
				break;
			}
			if (--budget == 0)
				break;
		}
	if (found) {
		rq_remove(v, found);
		__atomic_store_n(&found->cpu, me->id, __ATOMIC_RELEASE);
	}
	spin_unlock(&v->rq.lock);
	if (found)
		enqueue_owned(found);
	return found != NULL;
}

void sched_tick(void)
{
	struct cpu *c = this_cpu();
	struct thread *t = c->current;
	if (c->idle) {
		if (c->rq_len || steal(c))
			c->need_resched = true;
		return;
	}
	if (t->slice_left > 0)
		t->slice_left--;
	if (t->slice_left == 0 && c->rq.bitmap && 31 - __builtin_clz(c->rq.bitmap) >= t->prio)
		c->need_resched = true;
}

void sched_idle_loop(void)
{
	for (;;) {
		struct cpu *c = this_cpu();
		if (own_loop[c->id]) {
			c->idle = false;
			arch_irq_enable();
			own_loop[c->id]();       /* never returns */
		}
		arch_irq_disable();
		if (c->rq_len || steal(c)) {
			arch_irq_enable();
			sched_yield();
			continue;
		}
		c->idle = true;
		arch_idle();                 /* sti; hlt — no wake-up lost */
	}
}

int sched_set_affinity(struct thread *t, uint64_t mask)
{
	mask &= sched_cpu_mask();
	if (!mask)
		return -EINVAL;
	t->affinity = mask;
	if (t == thread_current() && !sched_allowed(t, cpu_id()))
		sched_yield();               /* switch_away moves it */
	return 0;
}

int sched_migrate(int cpu)
{
	if (cpu < 0 || cpu >= ncpus || !(sched_cpu_mask() & (1ull << cpu)))
		return -EINVAL;
	struct thread *t = thread_current();
	if (!sched_allowed(t, cpu))
		return -EINVAL;
	if (cpu == cpu_id())
		return 0;
	t->migrate_to = cpu;
	sched_yield();
	return 0;
}

void sched_set_priority(struct thread *t, int prio)
{
	if (prio < 0)
		prio = 0;
	if (prio >= NPRIO)
		prio = NPRIO - 1;
	struct cpu *c = lock_rq_of(t);
	/* Runnable but in no queue (between two CPUs) is possible: ask on_rq. */
	bool queued = t->on_rq;
	if (queued)
		rq_remove(c, t);
	t->prio = prio;
	if (queued)
		rq_push(c, t);
	if (t == c->current)
		c->cur_prio = prio;
	spin_unlock(&c->rq.lock);
	if (t == thread_current())
		sched_yield();               /* a higher one may be waiting now */
}

void sched_init_cpu(void)
{
	struct cpu *c = this_cpu();
	spin_init(&c->rq.lock, "runqueue", LOCK_RUNQUEUE);
	for (int p = 0; p < NPRIO; p++)
		list_init(&c->rq.queue[p]);
	list_init(&c->timers);
	spin_init(&c->timer_lock, "timers", LOCK_TIMERS);
	c->prev_target = -1;
	c->idle_thread = thread_adopt_idle(c);
	c->current = c->idle_thread;
	c->cur_prio = PRIO_IDLE;
}

/* Caller holds wq->guard; t is the running thread.  Returns with the
 * guard taken again if relock. */
void sched_sleep_on(struct waitq *wq, struct thread *t, bool relock)
{
	struct cpu *c = this_cpu();      /* interrupts are off: wq->guard is held */
	spin_lock(&c->rq.lock);
	t->state = T_SLEEPING;           /* under the rq lock: see sched_sleep_timed */
	list_push_back(&wq->sleepers, &t->rq_link);
	spin_unlock(wq->guard);
	switch_away(c);
	if (relock)
		spin_lock(wq->guard);
}
