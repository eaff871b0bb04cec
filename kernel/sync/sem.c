/*
 * sem.c — counting semaphores for user programs, the kernel's simplest
 * way for processes to wait for each other (and what sysbench ping-pongs
 * through).
 *
 * A fixed table of SEM_MAX; an id is slot | generation << 8, so an id
 * whose semaphore was destroyed and reused never reaches the new one.
 * Any process may post or wait on an id it knows; only the creator may
 * destroy it, and its semaphores go when it ends.  Waiters of a destroyed
 * semaphore get -EINVAL.  The system calls are in syscall/sys_sem.c.
 *
 * A post that wakes a waiter hands it the unit.  With semdirect=on (the
 * default; sem_direct_on, switchable at run time) a waiter that last ran
 * on the poster's CPU and would preempt it at the end of the call (a
 * higher priority) runs at once in the poster's place (sched_wake_switch),
 * without the run-queue round trip; the poster stays runnable.  With
 * semdirect=off, or in every other case, the waiter is queued
 * (sched_wakeup) and runs when the scheduler picks it.
 *
 * sem_post_wait posts one semaphore and waits on another in one call, so
 * the poster is known to be about to wait: with semdirect=on, when it
 * will sleep (no unit to take) and the waiter it hands the unit to last
 * ran on its CPU, the poster goes to sleep and that waiter runs in its
 * place at once, whatever its priority (the poster gives its CPU up
 * either way), with the rest of the poster's time slice, and neither
 * passes through the run queue (sched_wait_run).  Otherwise it is
 * sem_post then sem_wait.
 */
#include <stdint.h>
#include <errno.h>
#include <sched.h>
#include <sem.h>
#include <thread.h>
#include <region.h>
#include <cmdline.h>
#include <spin_nested.h>
#include <string.h>

#define SEM_MAX 64
#define SEM_VALUE_MAX 0x7fffffff

struct sem {
	struct waitq wq;             /* its lock guards the fields below */
	bool used;
	uint32_t gen;
	int owner;                   /* pid */
	int64_t value;
};

static struct sem sems[SEM_MAX];
bool sem_direct_on = true;

void sem_init(void)
{
	const char *v = cmdline_get(&kcmdline, "semdirect");   /* on or off: options.c */
	sem_direct_on = !v || strcmp(v, "off") != 0;
	for (int i = 0; i < SEM_MAX; i++) {
		waitq_init(&sems[i].wq, "sem", LOCK_WAITQ);
		sems[i].gen = 1;
	}
}

/* The slot id names, or NULL (a negative id names none); the semaphore
 * there is id's while its lock is held and sem_is says so. */
static inline struct sem *sem_slot(uint64_t sid)
{
	uint64_t slot = (uint32_t)sid & 0xff;
	return slot < SEM_MAX ? &sems[slot] : NULL;
}

static inline bool sem_is(const struct sem *s, uint64_t sid)
{
	return s->used && s->gen == (uint32_t)sid >> 8;
}

/* The semaphore id names, locked; NULL if none.  Inline: post and wait,
 * the process switch's two calls, each ask once. */
static inline __attribute__((always_inline)) struct sem *sem_get(uint64_t sid)
{
	struct sem *s = sem_slot(sid);
	if (!s)
		return NULL;
	spin_lock(&s->wq.lock);
	if (sem_is(s, sid))
		return s;
	spin_unlock(&s->wq.lock);
	return NULL;
}

static void sem_kill(struct sem *s)
{
	s->used = false;
	s->gen = (s->gen + 1) & 0x7fffff;      /* ids stay positive ints */
	if (!s->gen)
		s->gen = 1;
	waitq_wake_all(&s->wq);
}

long sem_create(int value, int owner)
{
	for (int i = 0; i < SEM_MAX; i++) {
		struct sem *s = &sems[i];
		spin_lock(&s->wq.lock);
		if (!s->used) {
			s->used = true;
			s->owner = owner;
			s->value = value;
			long id = (long)((uint64_t)s->gen << 8 | (uint64_t)i);
			spin_unlock(&s->wq.lock);
			return id;
		}
		spin_unlock(&s->wq.lock);
	}
	return -EAGAIN;
}

/* Caller holds s's lock and nobody waits on s: one unit more, or -ERANGE. */
static long count_up(struct sem *s)
{
	if (s->value >= SEM_VALUE_MAX)
		return -ERANGE;
	s->value++;
	sync_post(HAKO_SYNC_SEM, s);     /* a waiter that takes the unit comes after this */
	return 0;
}

long sem_post(int id)
{
	struct sem *s = sem_get(id);
	if (!s)
		return -EINVAL;
	/* The unit goes straight to the first waiter, if any. */
	int woke = __atomic_load_n(&sem_direct_on, __ATOMIC_RELAXED) ?
		   waitq_hand_over_run(&s->wq) : waitq_hand_over(&s->wq);
	if (woke == 2)
		return 0;                    /* the waiter ran here: the lock went before the switch */
	long r = woke ? 0 : count_up(s);
	spin_unlock(&s->wq.lock);
	return r;
}

long sem_wait(int id)
{
	struct sem *s = sem_get(id);
	if (!s)
		return -EINVAL;
	struct thread *me = thread_current();
	while (s->value == 0) {
		if (me->killed) {
			spin_unlock(&s->wq.lock);
			return -EINTR;
		}
		if (waitq_wait_handed(&s->wq))
			return 0;            /* sem_post handed its unit to us */
		s = sem_get(id);             /* woken by a kill or a destroy */
		if (!s)
			return -EINVAL;
	}
	s->value--;
	sync_wait(HAKO_SYNC_SEM, s);
	spin_unlock(&s->wq.lock);
	return 0;
}

/*
 * The wait half of sem_post_wait when its post took a waiter, w, off the
 * queue with the unit (waitq_take_handed): w is asleep and ours to wake.
 * s is the semaphore wait_id names, locked, when w last ran on this CPU
 * (a glance: sched_wait_run asks again), else NULL.  If the caller is to
 * sleep on s (no unit there), it sleeps and w runs in its place at once
 * (sched_wait_run); otherwise w is woken the usual way and the caller
 * waits as sem_wait does.  Caller holds s's lock (if s) and nothing else.
 */
static inline __attribute__((always_inline))
long wait_running(struct thread *w, struct sem *s, int wait_id)
{
	struct thread *me = thread_current();
	if (s && s->value == 0) {
		me->handed = false;
		if (thread_wait_begin(me, &s->wq)) {
			if (sched_wait_run(&s->wq, w)) {
				/* handed stays as it is: every wait clears it first */
				return me->handed ? 0 : sem_wait(wait_id);   /* else woken by a kill or a destroy */
			}
			me->wait_on = NULL;
		}
	}
	if (s)
		spin_unlock(&s->wq.lock);
	sched_wakeup(w);
	return sem_wait(wait_id);
}

long sem_post_wait(int post_id, int wait_id)
{
	struct sem *p = sem_get(post_id);
	if (!p)
		return -EINVAL;
	struct thread *w = NULL;
	long r = 0;
	if (__atomic_load_n(&sem_direct_on, __ATOMIC_RELAXED))
		w = waitq_take_handed(&p->wq);   /* the unit goes to the first waiter */
	if (!w && !waitq_hand_over(&p->wq))
		r = count_up(p);
	struct cpu *c = this_cpu();          /* interrupts are off: p is locked */
	struct sem *s = w && w->cpu == c->id ? sem_slot(wait_id) : NULL;
	/* The wait's semaphore locked before the post's is released, if its
	 * lock is free: one outermost lock hold fewer.  Two semaphores' locks
	 * share a rank, so only a trylock, which cannot wait, may nest them
	 * (a busy lock, or wait_id naming p, takes the long way). */
	if (s && spin_trylock_nested(c, &s->wq.lock)) {
		if (sem_is(s, wait_id)) {
			spin_unlock_nested(&p->wq.lock);   /* its count goes to s's lock */
			return wait_running(w, s, wait_id);
		}
		spin_unlock_nested(&s->wq.lock);
	}
	spin_unlock(&p->wq.lock);
	if (r < 0)
		return r;
	if (!w)
		return sem_wait(wait_id);
	return wait_running(w, w->cpu == thread_current()->cpu ? sem_get(wait_id) : NULL, wait_id);
}

long sem_destroy(int id, int pid)
{
	struct sem *s = sem_get(id);
	if (!s)
		return -EINVAL;
	long r = s->owner == pid ? 0 : -EPERM;
	if (r == 0)
		sem_kill(s);
	spin_unlock(&s->wq.lock);
	return r;
}

void sem_release_owner(int pid)
{
	for (int i = 0; i < SEM_MAX; i++) {
		struct sem *s = &sems[i];
		spin_lock(&s->wq.lock);
		if (s->used && s->owner == pid)
			sem_kill(s);
		spin_unlock(&s->wq.lock);
	}
}
