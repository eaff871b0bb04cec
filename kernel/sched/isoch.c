/*
 * isoch.c — periodic (isochronous) threads: paper 004's isochronous
 * scheduler, with a statically reserved period and budget per thread.
 *
 * A periodic thread is pinned to its CPU and runs at a priority above
 * every program's (ISOCH_PRIO_TOP down, shorter period higher: rate
 * monotonic), so the ordinary scheduler picks it first and preempts the
 * normal threads for it; nothing is added to the switch path.  Two
 * one-shot timers per thread on its CPU do the rest:
 *
 *   release  at every period start: opens a job, wakes the thread if it
 *            waits for it (isoch_wait) or was stopped for its budget,
 *            re-arms itself one period on and arms the budget timer;
 *   budget   when the job may have used its budget: compares the time
 *            the thread ran since the release (runtime_tsc, kept by the
 *            switch) with the budget; short, it re-arms for the rest;
 *            used up, the overrun is counted and the thread stopped
 *            (sched_stop_locked) until the next release, which gives the
 *            same job a fresh budget.  It never runs on stolen time.
 *
 * A release that finds the previous job still open (and not stopped for
 * its budget) is a missed release.  The release latency is measured when
 * the thread runs again in isoch_wait: now minus its period start.
 *
 * Booted with isoch=table, the started threads of a CPU are dispatched
 * from a reserved schedule instead (isoch_table.c): all run at
 * ISOCH_PRIO_TOP, and the table's slot timer wakes and stops them at
 * their reservations; START, STOP and a thread's end rebuild the table,
 * and neither the release nor the budget timer is armed.
 *
 * Locking: isoch_lock guards the per-CPU lists and reservations and
 * each thread's `isoch` pointer; a thread's release state is guarded by
 * its CPU's run-queue lock and changed only on that CPU (the timers run
 * there; START and STOP are sent there, on_cpu).
 */
#include <stdint.h>
#include <string.h>
#include <cpu.h>
#include <errno.h>
#include <cmdline.h>
#include <heap.h>
#include <isoch.h>
#include <isoch_int.h>
#include <proc.h>
#include <sched.h>
#include <smp.h>
#include <thread.h>
#include <time.h>

#define ISOCH_PRIO_TOP (NPRIO - 1)   /* down to TOP - HAKO_ISOCH_PER_CPU + 1 > PROC_PRIO_MAX */

_Static_assert(ISOCH_PRIO_TOP - HAKO_ISOCH_PER_CPU + 1 > PROC_PRIO_MAX,
	       "periodic threads must rank above every program");


static struct spinlock isoch_lock = SPINLOCK_INIT("isoch", LOCK_ISOCH);
static struct {
	struct list_node list;
	int n;
	uint32_t util_ppm;
	uint64_t gen;                    /* of the last table asked for */
} icpu[MAX_CPUS];
bool isoch_table_mode;

/* Liu & Layland's bound n(2^(1/n) - 1) in ppm, n = 1..HAKO_ISOCH_PER_CPU. */
static const uint32_t rm_bound_ppm[HAKO_ISOCH_PER_CPU] = {
	1000000, 828427, 779763, 756828, 743492, 734772, 728627, 724062,
};

static uint32_t bound_for(int n)
{
	uint32_t b = rm_bound_ppm[n - 1];
	return b < HAKO_ISOCH_UTIL_CAP_PPM ? b : HAKO_ISOCH_UTIL_CAP_PPM;
}

/* ---- on the thread's CPU, under its run-queue lock -------------------- */

/* TSC ticks t has run, up to now.  Caller holds c->rq.lock, on c. */
static uint64_t ran(struct cpu *c, struct thread *t, uint64_t now)
{
	return t->runtime_tsc + (c->current == t ? now - t->switched_in_tsc : 0);
}

static void released(struct timer *tm, void *arg)
{
	struct isoch *is = arg;
	struct cpu *c = this_cpu();
	struct thread *t = is->t;
	spin_lock(&c->rq.lock);
	uint64_t now = arch_tsc();
	is->release = tm->deadline;
	if (is->job_open && !is->throttled)
		is->st.missed++;
	is->st.releases++;
	is->job_open = true;
	is->ran_at_release = ran(c, t, now);
	/* Stopped for its budget and woken since (a kill), then asleep on a
	 * wait queue: that queue's waker wakes it, not we. */
	bool wake = is->waiting || (is->throttled && !t->wait_on);
	is->throttled = false;
	timer_arm(&is->release_timer, is->release + is->period);
	timer_arm(&is->budget_timer, now + is->budget);
	spin_unlock(&c->rq.lock);
	if (wake)
		sched_wakeup(t);
}

static void budget_check(struct timer *tm, void *arg)
{
	struct isoch *is = arg;
	struct cpu *c = this_cpu();
	struct thread *t = is->t;
	spin_lock(&c->rq.lock);
	uint64_t now = arch_tsc();
	if (is->started && is->job_open && !is->throttled) {
		uint64_t used = ran(c, t, now) - is->ran_at_release;
		if (used < is->budget) {
			uint64_t rest = is->budget - used;
			if (c->current != t && rest < is->budget / 4)
				rest = is->budget / 4;   /* not running: no need to poll */
			timer_arm(tm, now + rest);
		} else if (sched_stop_locked(c, t)) {
			is->st.overruns++;
			is->throttled = true;
		} else                   /* asleep on something else: look again later */
			timer_arm(tm, now + is->budget / 4);
	}
	spin_unlock(&c->rq.lock);
}

static void start_here(void *arg)
{
	struct isoch *is = arg;
	struct cpu *c = this_cpu();
	spin_lock(&c->rq.lock);
	if (!is->started) {
		is->started = true;
		is->job_open = false;
		is->throttled = false;
		if (!isoch_table_mode)   /* the table's first reservation releases it */
			timer_arm(&is->release_timer, arch_tsc());   /* the first release: now */
	}
	spin_unlock(&c->rq.lock);
}

static void stop_here(void *arg)
{
	struct isoch *is = arg;
	struct cpu *c = this_cpu();
	spin_lock(&c->rq.lock);
	timer_cancel(&is->release_timer);
	timer_cancel(&is->budget_timer);
	bool wake = is->waiting || (is->throttled && !is->t->wait_on);
	is->started = false;
	is->job_open = false;
	is->waiting = false;
	is->throttled = false;
	spin_unlock(&c->rq.lock);
	if (wake)
		sched_wakeup(is->t);
}

struct on_cpu_call {
	void (*fn)(void *);
	void *arg;
	volatile bool done;
};

static void on_cpu_run(void *arg)
{
	struct on_cpu_call *call = arg;
	call->fn(call->arg);
	call->done = true;
}

void isoch_on_cpu(int cpu, void (*fn)(void *), void *arg)
{
	struct on_cpu_call call = { fn, arg, false };
	while (!call.done) {
		push_off();
		if (cpu_id() == cpu)
			on_cpu_run(&call);
		pop_off();
		if (!call.done)
			smp_call_mask(1ull << cpu, on_cpu_run, &call, true);
	}
}

/* ---- reservations, under isoch_lock ---------------------------------- */

static void lists_init(void)
{
	if (icpu[0].list.next)
		return;
	for (int i = 0; i < MAX_CPUS; i++)
		list_init(&icpu[i].list);
	const char *mode = cmdline_get(&kcmdline, "isoch");
	isoch_table_mode = mode && strcmp(mode, "table") == 0;
}

int isoch_started_on(int cpu, struct isoch **who, struct iplan_task *t, uint64_t *gen)
{
	int n = 0;
	spin_lock(&isoch_lock);
	list_for_each(pos, &icpu[cpu].list) {
		struct isoch *is = list_entry(pos, struct isoch, link);
		if (!__atomic_load_n(&is->started, __ATOMIC_ACQUIRE) || n == IPLAN_MAX_TASKS)
			continue;
		who[n] = is;
		t[n++] = (struct iplan_task){ is->period_ns, is->budget_ns };
	}
	*gen = ++icpu[cpu].gen;
	spin_unlock(&isoch_lock);
	return n;
}

/*
 * Give the periodic threads of cpu their priorities: started ones rate
 * monotonic from ISOCH_PRIO_TOP down (their list is by period), stopped
 * ones their own.  The caller's own change is returned (-1: none) for it
 * to make after unlocking, as setting its own priority yields.
 */
static int reprioritise(int cpu)
{
	struct thread *me = thread_current();
	int rank = 0, mine = -1;
	list_for_each(n, &icpu[cpu].list) {
		struct isoch *is = list_entry(n, struct isoch, link);
		/* table: one at a time is runnable, in its reservation */
		int want = !is->started ? is->normal_prio
			 : isoch_table_mode ? ISOCH_PRIO_TOP : ISOCH_PRIO_TOP - rank;
		rank++;
		if (is->t == me)
			mine = want;
		else if (is->t->prio != want)
			sched_set_priority(is->t, want);
	}
	return mine;
}

static void set_own_prio(int prio)
{
	struct thread *me = thread_current();
	if (prio >= 0 && me->prio != prio)
		sched_set_priority(me, prio);
}

static void fill_info(struct isoch *is, struct hako_isoch *out)
{
	*out = is->st;
	out->period_ns = tsc_to_ns(is->period);
	out->budget_ns = tsc_to_ns(is->budget);
	out->cpu = is->cpu;
	out->util_ppm = icpu[is->cpu].util_ppm;
	out->bound_ppm = bound_for(icpu[is->cpu].n);
	out->started = is->started;
	out->prio = (uint32_t)is->t->prio;
	out->mode = isoch_table_mode ? HAKO_ISOCH_MODE_TABLE : HAKO_ISOCH_MODE_RM;
	itable_info(is->cpu, out);
}

long isoch_create(struct thread *t, struct hako_isoch *req)
{
	uint64_t p = req->period_ns, b = req->budget_ns;
	int cpu = req->cpu;
	req->why = HAKO_ISOCH_WHY_NONE;
	if (p < HAKO_ISOCH_PERIOD_MIN_NS || p > HAKO_ISOCH_PERIOD_MAX_NS ||
	    b < HAKO_ISOCH_BUDGET_MIN_NS || b > p)
		return -EINVAL;
	if (cpu < 0 || cpu >= ncpus || !(sched_cpu_mask() & (1ull << cpu)))
		return -EINVAL;
	struct isoch *is = kzalloc(sizeof *is);
	if (!is)
		return -ENOMEM;
	is->t = t;
	is->proc = proc_current();
	is->tid = t->tid;
	is->cpu = cpu;
	is->period = ns_to_tsc(p);
	is->budget = ns_to_tsc(b);
	is->period_ns = p;
	is->budget_ns = b;
	is->util_ppm = (uint32_t)((b * 1000000 + p - 1) / p);
	is->normal_prio = t->prio;
	is->normal_affinity = t->affinity;
	timer_init(&is->release_timer, released, is);
	timer_init(&is->budget_timer, budget_check, is);

	spin_lock(&isoch_lock);
	lists_init();
	long err = 0;
	uint32_t util = icpu[cpu].util_ppm + is->util_ppm;
	int n = icpu[cpu].n + 1;
	if (t->isoch)
		err = -EBUSY;
	else if (n > HAKO_ISOCH_PER_CPU)
		err = -ENOSPC, req->why = HAKO_ISOCH_WHY_COUNT;
	else if (util > bound_for(n))
		err = -ENOSPC, req->why = HAKO_ISOCH_WHY_UTIL;
	req->util_ppm = util;
	req->bound_ppm = bound_for(n <= HAKO_ISOCH_PER_CPU ? n : HAKO_ISOCH_PER_CPU);
	if (!err) {
		struct list_node *pos = icpu[cpu].list.next;
		while (pos != &icpu[cpu].list && list_entry(pos, struct isoch, link)->period <= is->period)
			pos = pos->next;
		list_insert_between(&is->link, pos->prev, pos);
		icpu[cpu].n = n;
		icpu[cpu].util_ppm = util;
		t->isoch = is;
		fill_info(is, req);
	}
	spin_unlock(&isoch_lock);
	if (err) {
		kfree(is);
		return err;
	}
	long r = sched_set_affinity(t, 1ull << cpu);   /* the caller moves there now */
	if (t != thread_current() && t->state == T_RUNNING && t->cpu != cpu)
		smp_send_resched(t->cpu);    /* another moves at its next switch: now */
	return r;
}

/* The caller's process's periodic thread tid, held against its exit (put). */
static struct isoch *get(int tid)
{
	struct proc *p = proc_current();
	if (tid == 0)
		tid = thread_current()->tid;
	struct isoch *found = NULL;
	spin_lock(&isoch_lock);
	lists_init();
	for (int c = 0; c < ncpus && !found; c++)
		list_for_each(n, &icpu[c].list) {
			struct isoch *is = list_entry(n, struct isoch, link);
			if (is->proc == p && is->tid == tid) {
				found = is;
				is->users++;
				break;
			}
		}
	spin_unlock(&isoch_lock);
	return found;
}

static void put(struct isoch *is)
{
	spin_lock(&isoch_lock);
	is->users--;
	spin_unlock(&isoch_lock);
}

/* Take is off its CPU's list (no new get finds it); caller holds isoch_lock. */
static int unlist(struct isoch *is)
{
	list_remove(&is->link);
	icpu[is->cpu].n--;
	icpu[is->cpu].util_ppm -= is->util_ppm;
	is->retiring = true;
	return reprioritise(is->cpu);
}

/*
 * One turn of a wait for another thread (a user letting go of an isoch, a
 * DESTROY retiring it), which may have a lower priority: on one CPU a spin
 * would never let it run.  A live thread naps; a dying one (exiting, or
 * killed: it does not sleep) goes to the lowest priority, as its own no
 * longer matters, and yields.  Caller holds nothing.
 */
#define ISOCH_NAP_NS 10000ull

static void step_aside(bool exiting)
{
	struct thread *me = thread_current();
	if (!exiting && !me->killed) {
		thread_sleep_ns(ISOCH_NAP_NS);
		return;
	}
	if (me->prio != 0)
		sched_set_priority(me, 0);   /* yields */
	else
		sched_yield();
}

/*
 * Stop is for good and free it; it is unlisted.  Caller holds nothing;
 * exiting: the caller is its thread, on its way out.  The first stop wakes
 * a waiter (which then lets go of it); once nobody uses it, nothing can
 * start it again, and the second stop, on its CPU with interrupts off,
 * leaves no timer armed or running.  Its thread cannot end before: its
 * exit waits for t->isoch to clear.
 */
static void retire(struct isoch *is, bool exiting)
{
	isoch_on_cpu(is->cpu, stop_here, is);
	if (isoch_table_mode)
		itable_rebuild(is->cpu);   /* for the others; unlisted, so without it */
	while (__atomic_load_n(&is->users, __ATOMIC_ACQUIRE) > 0)
		step_aside(exiting);
	isoch_on_cpu(is->cpu, stop_here, is);
	if (isoch_table_mode)
		itable_forget(is);
	spin_lock(&isoch_lock);
	is->t->isoch = NULL;
	spin_unlock(&isoch_lock);
	kfree(is);
}

static long start_stop(struct isoch *is, bool start)
{
	isoch_on_cpu(is->cpu, start ? start_here : stop_here, is);
	/* A rebuild without the stopped thread only gets smaller: a failure
	 * (no memory) leaves the old table, which skips a stopped thread. */
	long r = isoch_table_mode ? itable_rebuild(is->cpu) : 0;
	if (r < 0 && start)
		isoch_on_cpu(is->cpu, stop_here, is);
	spin_lock(&isoch_lock);
	int mine = reprioritise(is->cpu);
	spin_unlock(&isoch_lock);
	set_own_prio(mine);
	return start ? r : 0;
}

long isoch_op(int op, int tid, struct hako_isoch *out)
{
	struct isoch *is = get(tid);
	if (!is)
		return -ESRCH;
	long r = 0;
	switch (op) {
	case HAKO_ISOCH_START:
		r = start_stop(is, true);
		break;
	case HAKO_ISOCH_STOP:
		r = start_stop(is, false);
		break;
	case HAKO_ISOCH_INFO:
		spin_lock(&isoch_lock);
		fill_info(is, out);
		spin_unlock(&isoch_lock);
		break;
	case HAKO_ISOCH_DESTROY: {
		struct thread *t = is->t, *me = thread_current();
		uint64_t affinity = is->normal_affinity;
		int prio = is->normal_prio;
		spin_lock(&isoch_lock);
		if (is->retiring) {      /* another DESTROY, or its thread's exit, got there first */
			is->users--;
			spin_unlock(&isoch_lock);
			return -ESRCH;
		}
		int mine = unlist(is);
		is->users--;
		if (t != me) {           /* listed until now, so alive: no yield for another */
			sched_set_affinity(t, affinity);
			sched_set_priority(t, prio);
		}
		spin_unlock(&isoch_lock);
		set_own_prio(mine);
		retire(is, false);
		if (t == me) {
			sched_set_affinity(t, affinity);
			set_own_prio(prio);
		}
		return 0;
	}
	default:
		r = -EINVAL;
	}
	put(is);
	return r;
}

/* ---- the periodic thread itself -------------------------------------- */

static bool wait_go(struct thread *t, void *arg)
{
	struct isoch *is = arg;
	if (is->job_open) {
		is->job_open = false;
		is->st.completions++;
	}
	if (!is->started || this_cpu()->id != is->cpu)
		return false;
	is->waiting = true;
	return true;
}

static void record_latency(struct isoch *is, uint64_t lat_ns)
{
	if (!is->st.lat_count++ || lat_ns < is->st.lat_min_ns)
		is->st.lat_min_ns = lat_ns;
	is->st.lat_sum_ns += lat_ns;
	if (lat_ns > is->st.lat_max_ns)
		is->st.lat_max_ns = lat_ns;
	uint64_t b = lat_ns / HAKO_ISOCH_HIST_NS;
	is->st.hist[b < HAKO_ISOCH_HIST ? b : HAKO_ISOCH_HIST - 1]++;
}

long isoch_wait(void)
{
	struct thread *t = thread_current();
	spin_lock(&isoch_lock);
	struct isoch *is = t->isoch;
	if (is && (is->retiring || !is->started))
		is = NULL;
	if (is)
		is->users++;             /* a DESTROY from another thread waits for us */
	spin_unlock(&isoch_lock);
	if (!is)
		return -EINVAL;
	if (cpu_id() != is->cpu)
		sched_migrate(is->cpu);
	if (isoch_table_mode)
		itable_job_done(is);
	sched_sleep_if(wait_go, is);
	push_off();
	struct cpu *c = this_cpu();
	spin_lock(&c->rq.lock);
	pop_off();
	bool woke = is->waiting && c->id == is->cpu;
	if (woke) {
		is->waiting = false;
		record_latency(is, tsc_to_ns(arch_tsc() - is->release));
	}
	bool started = is->started;
	spin_unlock(&c->rq.lock);
	put(is);
	if (t->killed)
		return -EINTR;
	return woke || started ? 0 : -EINVAL;
}

void isoch_thread_exit(struct thread *t)
{
	spin_lock(&isoch_lock);
	struct isoch *is = t->isoch;
	bool mine = is && !is->retiring;
	if (mine)
		unlist(is);              /* its own priority no longer matters */
	spin_unlock(&isoch_lock);
	if (mine)
		retire(is, true);
	while (__atomic_load_n(&t->isoch, __ATOMIC_ACQUIRE))
		step_aside(true);        /* a DESTROY from another thread is retiring it */
}
