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
 * One switch does not ask the run queue: sched_switch_direct, for the
 * fastpath of server calls (ipc/ispc_fastpath.c), puts the running thread
 * to sleep on a wait queue and runs a thread asleep on another, on this
 * CPU, in its place, under the same lock protocol as every switch.  And
 * one wake-up does not queue the thread it wakes: sched_wake_switch (a
 * semaphore post, sem.c) runs a sleeper of this CPU that would preempt
 * the waker at once, instead of at the end of the call.
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

static void rq_push(struct cpu *c, struct thread *t)
{
	if (t->on_rq)
		panic("sched: thread %d queued twice", t->tid);
	t->on_rq = true;
	list_push_back(&c->rq.queue[t->prio], &t->rq_link);
	c->rq.bitmap |= 1u << t->prio;
	c->rq_len = ++c->rq.count;
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

static bool allowed(struct thread *t, int cpu) { return t->affinity & (1ull << cpu); }

/* Least loaded online CPU the thread may use (running counts as one). */
static int pick_cpu(struct thread *t)
{
	int best = -1, best_load = 1 << 30;
	uint64_t online = sched_cpu_mask();
	for (int i = 0; i < ncpus; i++) {
		if (!allowed(t, i) || !(online & (1ull << i)))
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
	return allowed(t, c->id) ? -1 : pick_cpu(t);
}

/* A switch out of or into a party whose switches are counted (sched.h): a
 * call of its own, given the threads (their fields are read here), so the
 * switch of two uncounted threads only tests two fields. */
static __attribute__((noinline))
void count_switch(struct thread *from, struct thread *to, bool as_switch)
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
 * Run next in prev's place on c, for `slice` ticks.  Caller holds
 * c->rq.lock (and nothing else); next is on no run queue and may run on
 * c (next->cpu is c->id).  Returns in prev, later, with the lock released.
 * `direct` (a constant): the call in sched_switch_direct, whose switches
 * may also be made without the lock (c->direct_unlocked; see there), so
 * its resume asks whether there is one to release.
 */
static inline __attribute__((always_inline))
void switch_to(struct cpu *c, struct thread *prev, struct thread *next, uint64_t slice, bool direct)
{
	uint64_t now = arch_tsc();
	next->state = T_RUNNING;        /* next->cpu is c->id: it was on c's queue */
	next->no_steal = false;
	next->slice_left = slice;
	if (next == prev) {
		spin_unlock(&c->rq.lock);
		return;
	}
	prev->runtime_tsc += now - prev->switched_in_tsc;
	next->switched_in_tsc = now;
	c->current = next;
	bool idle = !direct && next == c->idle_thread;   /* direct: woken by hand, never idle */
	c->idle = idle;
	c->cur_prio = idle ? PRIO_IDLE : next->prio;
	c->prev = prev;
	c->ctx_switches++;
	bool intena = c->intena;
	if (prev->switches || next->switches)
		count_switch(prev, next, prev->as != next->as);
	arch_thread_switched_in(next);
	sync_post(HAKO_SYNC_THREAD, prev);   /* it runs again no earlier than now */
	arch_switch(&prev->saved_rsp, next->saved_rsp);
	c = this_cpu();                  /* prev may resume on another CPU */
	c->intena = intena;
	if (direct && c->direct_unlocked) {
		c->direct_unlocked = false;  /* prev of that switch sleeps: nothing else to do */
		c->prev = NULL;
		sync_wait(HAKO_SYNC_THREAD, c->current);   /* as sched_finish_switch does */
	} else if (c->prev_target < 0 && c->prev->state != T_DEAD) {
		/* sched_finish_switch's common case, inline: prev stays (asleep
		 * or queued here), so only the lock is left to release. */
		sync_wait(HAKO_SYNC_THREAD, c->current);
		c->prev = NULL;
		spin_unlock(&c->rq.lock);
	} else
		sched_finish_switch();
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
	switch_to(c, prev, next, sched_slice_ticks, false);
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
			if (allowed(t, me->id) && !t->no_steal) {
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
	if (t == thread_current() && !allowed(t, cpu_id()))
		sched_yield();               /* switch_away moves it */
	return 0;
}

int sched_migrate(int cpu)
{
	if (cpu < 0 || cpu >= ncpus || !(sched_cpu_mask() & (1ull << cpu)))
		return -EINVAL;
	struct thread *t = thread_current();
	if (!allowed(t, cpu))
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

/*
 * The direct switch (ISPC's fastpath, ipc/ispc_fastpath.c): the running
 * thread starts a killable wait on wq and next, asleep on next_wq on this
 * CPU, runs in its place at once, with what is left of the running
 * thread's time slice: next is taken off next_wq, but no run queue is
 * touched and no other thread is considered.
 *
 * Locking: caller holds wq->guard, which must also be next_wq's guard, and
 * nothing else (interrupts are off while it is held).  The running
 * thread's state and next's are changed under this CPU's run-queue lock,
 * taken after the guard (its rank is below), and that lock is held across
 * the switch exactly as in switch_away, so a waker on another CPU cannot
 * queue the sleeper before its registers are saved.  Returns with
 * wq->guard held again: true once woken (the caller rechecks its
 * condition, as after any killable wait), false without having slept if
 * a precondition failed (the caller then wakes next and waits the usual
 * way): the running thread is killed, next is not asleep on next_wq here
 * or is killed, a switch is already due here, or a thread of a higher
 * priority than next's is runnable here.
 *
 * The guard goes with the switch when next sleeps in here too
 * (next->direct_wait): next resumes below, where it would take the guard
 * at once, so it is handed over held (guard_handed) instead of released
 * and taken again.  Nothing else can take the guard in between: it is
 * held by whoever runs here, and every other user of it (a waker or
 * thread_interrupt on another CPU) waits for it as it would have waited
 * for next's own acquire.  A thread asleep in here and woken the general
 * way (waitq_wake_*, thread_interrupt) finds guard_handed false and takes
 * the guard itself.
 *
 * That switch is also made without the run-queue lock, because the
 * guard, held across it, already keeps out everyone the lock would:
 *   - the running thread: it is on wq->sleepers, which only holders of
 *     the guard wake, so nobody can queue it before its registers are
 *     saved (the guard is released by next, after the switch).  A kill
 *     (thread_interrupt) sets killed before it reads wait_on, and
 *     wait_begin sets wait_on before it reads killed (both fenced), so
 *     the killer either finds wq and waits for the guard, or we saw the
 *     kill and did not sleep;
 *   - next: asleep on next_wq (guarded) on this CPU, so no run queue,
 *     steal or migration has it, and its `cpu` stays; T_RUNNING is
 *     stored before wait_on is cleared (release), so a killer that finds
 *     wait_on clear and calls sched_wakeup sees next running, not asleep;
 *   - neither is periodic (isoch.c, which stops and wakes its threads
 *     under the run-queue lock), and no timer wakes a waitq sleeper;
 *   - this CPU's queue is not touched; a thread woken onto it meanwhile
 *     is noticed by the kick its waker sends (kick reads cur_prio without
 *     a lock in every case).
 * The switch leaves c->direct_unlocked set, so next's resume in
 * switch_to has no lock to release.  Any other switch into a thread asleep
 * in here (the general wake-up, or this function with the lock) holds the
 * run-queue lock and next's resume releases it as usual.
 */
bool sched_switch_direct(struct waitq *wq, struct thread *next, struct waitq *next_wq)
{
	struct cpu *c = this_cpu();      /* interrupts are off: wq->guard is held */
	struct thread *t = c->current;
	if (!thread_wait_begin(t, wq))
		return false;
	bool hand = next->direct_wait;   /* the guard goes with the switch, no rq lock */
	if (!hand)
		spin_lock(&c->rq.lock);
	bool ok = c->ncli == (hand ? 1 : 2) && !c->need_resched && next->cpu == c->id &&
		  next->state == T_SLEEPING && next->wait_on == next_wq && !next->killed &&
		  !next->isoch && !t->isoch &&
		  (!c->rq.bitmap || 31 - __builtin_clz(c->rq.bitmap) <= next->prio);
	if (!ok) {
		if (!hand)
			spin_unlock(&c->rq.lock);
		t->wait_on = NULL;
		return false;
	}
	list_remove(&next->rq_link);     /* off next_wq: woken by hand */
	next->handed = false;
	t->state = T_SLEEPING;           /* with the rq lock or the guard held: see above */
	list_push_back(&wq->sleepers, &t->rq_link);
	t->direct_wait = true;
	c->prev_target = -1;
	if (hand) {
		next->state = T_RUNNING;     /* before wait_on is cleared: see above */
		__atomic_store_n(&next->wait_on, NULL, __ATOMIC_RELEASE);
		next->guard_handed = true;   /* held on: next resumes below */
		c->direct_unlocked = true;
	} else {
		next->wait_on = NULL;
		spin_unlock(wq->guard);
	}
	switch_to(c, t, next, t->slice_left, true);
	t->direct_wait = false;
	if (t->guard_handed)
		t->guard_handed = false;
	else
		spin_lock(wq->guard);
	return true;
}

/*
 * Run t here at once, in place of the running thread: the wake-up of a
 * thread asleep on this CPU that would preempt the running thread at the
 * end of its system call anyway (sem_post, with semdirect=on), made
 * without queueing t and taking it off the queue again.  t has just been
 * taken off a wait queue guarded by `guard` (its wait_on cleared), so
 * nobody but a killer's sched_wakeup can wake it meanwhile, and that one
 * locks this CPU's run queue.
 *
 * The scheduler's rules decide as they would have at the call's end: t
 * last ran here, is still asleep, and has a higher priority than the
 * running thread and than every queued thread, so the switch_away of
 * that preemption would have picked it; the running thread is queued
 * behind its priority's others, as that sched_yield queues it.  Neither
 * is periodic (isoch.c), no switch is already due here, and the running
 * thread stays on this CPU (no migration or affinity change pending:
 * switch_away would move it).  Equal priority is no preemption: the
 * waker runs on (vclockcheck's main thread posts to four workers in a
 * row and must not wait behind the one on its own CPU).
 *
 * Locking: caller holds guard and nothing else.  The states change under
 * this CPU's run-queue lock (taken after the guard, its rank is below),
 * held across the switch as in switch_away; the guard is released just
 * before the switch.  True: switched, returns when the caller runs again,
 * without the guard.  False: nothing done, the guard still held; the
 * caller wakes t the usual way (sched_wakeup).
 */
bool sched_wake_switch(struct spinlock *guard, struct thread *t)
{
	struct cpu *c = this_cpu();      /* interrupts are off: guard is held */
	struct thread *me = c->current;
	spin_lock(&c->rq.lock);
	bool ok = c->ncli == 2 && !c->need_resched && t->cpu == c->id &&
		  t->state == T_SLEEPING && t->prio > me->prio && !t->isoch && !me->isoch &&
		  me->state == T_RUNNING && me != c->idle_thread && me->migrate_to < 0 &&
		  allowed(me, c->id) &&
		  (!c->rq.bitmap || 31 - __builtin_clz(c->rq.bitmap) < t->prio);
	if (!ok) {
		spin_unlock(&c->rq.lock);
		return false;
	}
	me->state = T_RUNNABLE;
	rq_push(c, me);
	c->prev_target = -1;
	sync_post(HAKO_SYNC_THREAD, t);  /* as sched_wakeup: its run comes after this */
	spin_unlock(guard);
	switch_to(c, me, t, sched_slice_ticks, false);
	return true;
}
