/*
 * isoch_table.c — the reserved schedule (booted with isoch=table): paper
 * 004's isochronous scheduler as the paper describes it, "the period and
 * execution time of every periodic thread reserved statically in advance,
 * CPU time handed out according to the reserved schedule".
 *
 * Per CPU a table (isoch_plan.c) covers the hyperperiod of its started
 * periodic threads: entries of one job each, in time order, the budgets
 * placed earliest deadline first in their periods.  A slot timer on the
 * CPU walks it: at an entry's start its thread's job is released (the
 * job's first entry) or resumed, and woken; at its end the thread is
 * stopped (sched_stop_locked) if it still runs, an overrun if that was
 * the job's last entry.  Periodic threads all run at ISOCH_PRIO_TOP and
 * only one is runnable at a time; the time no entry covers goes to the
 * normal threads, and so does the rest of an entry whose job ended early,
 * unless the next entry follows without a gap and is released: then that
 * one begins at once (itable_job_done), the periodic thread switch.
 *
 * START, STOP and a thread's end rebuild the table (itable_rebuild) in
 * the calling thread, with no lock held and preemption on, in chunks of
 * BUILD_CHUNK events; only the hand-over runs on the CPU with interrupts
 * off: the new table is in force at once if the CPU has none, else from
 * the end of the current hyperperiod (when every period of the old one
 * ends, so no job in progress is cut short).  Tables carry a generation
 * number (isoch_started_on), and an older one never replaces a newer one.
 *
 * Locking: a CPU's itcpu fields, and the tables it points to, are
 * guarded by that CPU's run-queue lock and changed only on that CPU (the
 * slot timer runs there; the hand-over and itable_forget are sent there).
 * A table is freed by whoever takes it out of itcpu, under that lock.
 */
#include <stdint.h>
#include <string.h>
#include <cpu.h>
#include <errno.h>
#include <heap.h>
#include <isoch_int.h>
#include <sched.h>
#include <thread.h>
#include <time.h>

#define BUILD_CHUNK 64                   /* builder events between preemption points */

struct itable {
	uint64_t gen;
	uint64_t hyper;                      /* TSC ticks, like the entries */
	uint64_t hyper_ns;
	uint32_t len;
	struct isoch *who[IPLAN_MAX_TASKS];  /* by entry.task; NULL once forgotten */
	struct iplan_entry e[];
};

static struct itcpu {
	struct itable *tab;                  /* in force */
	struct itable *next;                 /* in force from the end of tab's hyperperiod */
	uint64_t gen;                        /* the newer of the two's */
	uint64_t epoch;                      /* TSC: the current hyperperiod's start */
	uint32_t cur;                        /* the entry under way or the next one */
	bool in_entry;
	bool timer_ready;
	struct timer slot;
} itc[MAX_CPUS];

static uint64_t tables_live;

static void table_free(struct itable *t)
{
	if (t) {
		kfree(t);
		__atomic_sub_fetch(&tables_live, 1, __ATOMIC_RELAXED);
	}
}

/* ---- dispatch, on the CPU under its run-queue lock --------------------- */

/* The thread of e, if it is still started. */
static struct isoch *owner(struct itable *tab, const struct iplan_entry *e)
{
	struct isoch *is = tab->who[e->task];
	return is && is->started ? is : NULL;
}

/* e begins: release or resume its job; the thread to wake, if any. */
static struct thread *begin_entry(struct itcpu *s, const struct iplan_entry *e)
{
	struct isoch *is = owner(s->tab, e);
	if (!is)
		return NULL;
	struct thread *t = is->t;
	bool wake = is->throttled && !t->wait_on;   /* stopped at its last entry's end */
	if (e->first) {
		if (is->job_open && !is->throttled)
			is->st.missed++;
		is->st.releases++;
		is->release = s->epoch + e->release;
		is->job_open = true;
		wake = wake || is->waiting;
	}
	is->throttled = false;
	return wake ? t : NULL;
}

/* e ends: its thread leaves the CPU if it still runs (or waits to). */
static void end_entry(struct cpu *c, struct itcpu *s, const struct iplan_entry *e)
{
	struct isoch *is = owner(s->tab, e);
	if (!is)
		return;
	if (e->last && is->job_open)
		is->st.overruns++;
	if (sched_stop_locked(c, is->t))
		is->throttled = true;
}

/* The entry after cur; at the end of the hyperperiod the next one begins,
 * with the next table if one waits. */
static void advance(struct itcpu *s)
{
	s->in_entry = false;
	if (++s->cur < s->tab->len)
		return;
	s->cur = 0;
	s->epoch += s->tab->hyper;
	if (s->next) {
		table_free(s->tab);
		s->tab = s->next;
		s->next = NULL;
	}
}

static void slot_fired(struct timer *tm, void *arg)
{
	struct itcpu *s = arg;
	struct cpu *c = this_cpu();
	struct thread *wake[IPLAN_MAX_TASKS];
	int nwake = 0;
	spin_lock(&c->rq.lock);
	uint64_t now = arch_tsc();
	while (s->tab) {
		/* Far behind (a stalled CPU): whole hyperperiods are skipped, so
		 * the walk crosses at most two of them. */
		if (!s->in_entry && s->cur == 0 && now >= s->epoch + 2 * s->tab->hyper)
			s->epoch += ((now - s->epoch) / s->tab->hyper - 1) * s->tab->hyper;
		const struct iplan_entry *e = &s->tab->e[s->cur];
		if (s->in_entry) {
			if (now < s->epoch + e->end) {
				timer_arm(tm, s->epoch + e->end);
				break;
			}
			struct isoch *is = owner(s->tab, e);
			end_entry(c, s, e);
			for (int i = 0; is && i < nwake; i++)   /* begun and ended late: */
				if (wake[i] == is->t) {          /* it stays where it was */
					wake[i] = wake[--nwake];
					is->throttled = !is->waiting;
				}
			advance(s);
		} else {
			if (now < s->epoch + e->start) {
				timer_arm(tm, s->epoch + e->start);
				break;
			}
			s->in_entry = true;
			struct thread *t = begin_entry(s, e);
			if (t && nwake < IPLAN_MAX_TASKS)
				wake[nwake++] = t;
		}
	}
	spin_unlock(&c->rq.lock);
	for (int i = 0; i < nwake; i++)
		sched_wakeup(wake[i]);
}

void itable_job_done(struct isoch *is)
{
	push_off();
	struct cpu *c = this_cpu();
	spin_lock(&c->rq.lock);
	pop_off();
	struct itcpu *s = &itc[c->id];
	struct itable *tab = s->tab;
	struct thread *wake = NULL;
	if (tab && s->in_entry && c->id == is->cpu && owner(tab, &tab->e[s->cur]) == is &&
	    s->cur + 1 < tab->len) {
		const struct iplan_entry *e = &tab->e[s->cur], *n = e + 1;
		struct isoch *to = owner(tab, n);
		if (to && to != is && n->start == e->end &&
		    (!n->first || s->epoch + n->release <= arch_tsc())) {
			s->cur++;
			wake = begin_entry(s, n);
			timer_arm(&s->slot, s->epoch + n->end);
		}
	}
	spin_unlock(&c->rq.lock);
	if (wake)
		sched_wakeup(wake);
}

/* ---- hand-over and forgetting, sent to the CPU ------------------------- */

struct handover {
	struct itable *tab;                  /* NULL: no started thread */
	uint64_t gen;
	bool taken;
};

static void handover_here(void *arg)
{
	struct handover *h = arg;
	struct cpu *c = this_cpu();
	struct itcpu *s = &itc[c->id];
	spin_lock(&c->rq.lock);
	if (!s->timer_ready) {
		timer_init(&s->slot, slot_fired, s);
		s->timer_ready = true;
	}
	if (h->gen > s->gen) {
		s->gen = h->gen;
		h->taken = true;
		table_free(s->next);
		s->next = NULL;
		if (s->tab && h->tab) {
			s->next = h->tab;        /* from the end of this hyperperiod */
		} else {
			table_free(s->tab);
			s->tab = h->tab;
			s->cur = 0;
			s->in_entry = false;
			s->epoch = arch_tsc();
			if (s->tab)
				timer_arm(&s->slot, s->epoch + s->tab->e[0].start);
			else
				timer_cancel(&s->slot);
		}
	}
	spin_unlock(&c->rq.lock);
}

static void forget_here(void *arg)
{
	struct isoch *is = arg;
	struct cpu *c = this_cpu();
	struct itcpu *s = &itc[c->id];
	spin_lock(&c->rq.lock);
	struct itable *tabs[2] = { s->tab, s->next };
	for (int k = 0; k < 2; k++)
		for (int i = 0; tabs[k] && i < IPLAN_MAX_TASKS; i++)
			if (tabs[k]->who[i] == is)
				tabs[k]->who[i] = NULL;
	spin_unlock(&c->rq.lock);
}

void itable_forget(struct isoch *is)
{
	isoch_on_cpu(is->cpu, forget_here, is);
}

void itable_info(int cpu, struct hako_isoch *out)
{
	struct cpu *c = &cpus[cpu];
	spin_lock(&c->rq.lock);
	struct itable *tab = itc[cpu].tab;
	out->table_len = tab ? tab->len : 0;
	out->hyper_ns = tab ? tab->hyper_ns : 0;
	spin_unlock(&c->rq.lock);
	out->tables_live = __atomic_load_n(&tables_live, __ATOMIC_RELAXED);
}

/* ---- building, in the caller, preemptible ------------------------------ */

/* A table of n started threads, or NULL with *err set. */
static struct itable *build(struct isoch **who, const struct iplan_task *task, int n, long *err)
{
	uint64_t hyper;
	*err = iplan_hyperperiod(task, n, HAKO_ISOCH_PERIOD_MAX_NS, &hyper);
	if (*err)
		return NULL;
	uint64_t cap = iplan_entries_bound(task, n, hyper);
	if (cap > HAKO_ISOCH_TABLE_MAX)
		cap = HAKO_ISOCH_TABLE_MAX;
	struct itable *tab = kmalloc(sizeof *tab + cap * sizeof tab->e[0]);
	if (!tab) {
		*err = -ENOMEM;
		return NULL;
	}
	__atomic_add_fetch(&tables_live, 1, __ATOMIC_RELAXED);
	memset(tab->who, 0, sizeof tab->who);
	memcpy(tab->who, who, (size_t)n * sizeof who[0]);
	struct iplan p;
	iplan_begin(&p, task, n, hyper, tab->e, (uint32_t)cap);
	int r;
	while ((r = iplan_step(&p, BUILD_CHUNK)) == 1)
		sched_preempt_if_needed();
	if (r < 0) {
		table_free(tab);
		*err = r;
		return NULL;
	}
	for (uint32_t i = 0; i < p.len; i++) {   /* into TSC ticks */
		tab->e[i].start = ns_to_tsc(tab->e[i].start);
		tab->e[i].end = ns_to_tsc(tab->e[i].end);
		tab->e[i].release = ns_to_tsc(tab->e[i].release);
		if (i % BUILD_CHUNK == BUILD_CHUNK - 1)
			sched_preempt_if_needed();
	}
	tab->len = p.len;
	tab->hyper = ns_to_tsc(hyper);
	tab->hyper_ns = hyper;
	return tab;
}

long itable_rebuild(int cpu)
{
	struct isoch *who[IPLAN_MAX_TASKS];
	struct iplan_task task[IPLAN_MAX_TASKS];
	struct handover h = { 0 };
	int n = isoch_started_on(cpu, who, task, &h.gen);
	long err = 0;
	if (n > 0 && !(h.tab = build(who, task, n, &err)))
		return err;
	isoch_on_cpu(cpu, handover_here, &h);
	if (!h.taken)
		table_free(h.tab);               /* a newer one is there already */
	return 0;
}
