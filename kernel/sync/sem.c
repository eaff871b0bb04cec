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
 * on the poster's CPU, with at least the poster's priority, runs at once
 * in the poster's place (sched_wake_switch): the poster stays runnable at
 * the head of its queue.  With semdirect=off, or when the scheduler does
 * not allow it, the waiter is queued (sched_wakeup) and runs when the
 * scheduler picks it.
 */
#include <stdint.h>
#include <errno.h>
#include <sched.h>
#include <sem.h>
#include <thread.h>
#include <region.h>
#include <cmdline.h>
#include <string.h>

#define SEM_MAX 64
#define SEM_VALUE_MAX 0x7fffffff

/*
 * A semaphore's count, whether it may have sleepers and its generation
 * while it exists share one word (`state`), so that the two common cases
 * take no lock: a post that nobody waits for adds to the count, and a wait
 * that finds a unit takes it, each with one compare-and-swap that also
 * checks the generation (a destroyed semaphore, or one made again in its
 * slot, fails it).  Everything else (a post to a sleeper, a wait that
 * sleeps, create, destroy) runs under the lock as before and changes the
 * word with atomics too, since the lock-free cases race with it.
 *
 * The argument: SEM_SLEEPERS is set, under the lock, by a waiter that
 * found the count 0, in the same compare-and-swap that sees the 0, before
 * it goes on the queue (it holds the lock until it sleeps); it is cleared,
 * under the lock, only by a post that leaves the queue empty (or finds it
 * so).  So while a thread sleeps or is about to, the bit is set and every
 * post takes the lock and finds it; a lock-free post that got in first
 * made the count 1, and the waiter's swap fails and it takes that unit.
 * A set bit with nobody queued (a waiter killed) only sends posts the
 * long way, which clears it.
 */
#define SEM_COUNT(w) ((uint32_t)(w))
#define SEM_SLEEPERS (1ull << 32)
#define SEM_GEN_SHIFT 40             /* generation 0: not in use */

struct sem {
	struct waitq wq;             /* its lock guards the fields below */
	bool used;
	uint32_t gen;
	int owner;                   /* pid */
	uint64_t state;              /* count, SEM_SLEEPERS, generation: see above */
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

/* The slot an id names, or NULL (a negative id names none); *gen: the
 * generation it names, never 0 for a slot returned. */
static inline struct sem *sem_slot(uint64_t sid, uint64_t *gen)
{
	uint64_t id = (uint32_t)sid;
	uint64_t slot = id & 0xff;
	*gen = id >> 8;
	return slot < SEM_MAX && *gen ? &sems[slot] : NULL;
}

/* The semaphore id names, locked; NULL if none.
 * Inline: post and wait, the process switch's two calls, each ask once. */
static inline __attribute__((always_inline)) struct sem *sem_get(uint64_t sid)
{
	uint64_t gen;
	struct sem *s = sem_slot(sid, &gen);
	if (!s)
		return NULL;
	spin_lock(&s->wq.lock);
	if (s->used && s->gen == gen)
		return s;
	spin_unlock(&s->wq.lock);
	return NULL;
}

/* Add a unit to a semaphore of generation gen unless it is gone, full, or
 * may have sleepers (then the caller takes the lock); lock-free or not. */
static inline bool count_up(struct sem *s, uint64_t gen, uint64_t refuse)
{
	uint64_t w = __atomic_load_n(&s->state, __ATOMIC_RELAXED);
	do {
		if (w >> SEM_GEN_SHIFT != gen || (w & refuse) || SEM_COUNT(w) >= SEM_VALUE_MAX)
			return false;
	} while (!__atomic_compare_exchange_n(&s->state, &w, w + 1, true,
					      __ATOMIC_RELEASE, __ATOMIC_RELAXED));
	return true;
}

/* Take a unit of a semaphore of generation gen if it has one; lock-free
 * or not.  Without one and with mark, sets SEM_SLEEPERS in the swap that
 * saw the count 0 (caller holds the lock and is about to sleep). */
static inline bool count_down(struct sem *s, uint64_t gen, bool mark)
{
	uint64_t w = __atomic_load_n(&s->state, __ATOMIC_RELAXED);
	for (;;) {
		if (w >> SEM_GEN_SHIFT != gen)
			return false;
		uint64_t to = SEM_COUNT(w) ? w - 1 : w | SEM_SLEEPERS;
		if (!SEM_COUNT(w) && (!mark || (w & SEM_SLEEPERS)))
			return false;
		if (__atomic_compare_exchange_n(&s->state, &w, to, true,
						__ATOMIC_ACQUIRE, __ATOMIC_RELAXED))
			return SEM_COUNT(w) != 0;
	}
}

static void sem_kill(struct sem *s)
{
	s->used = false;
	__atomic_store_n(&s->state, 0, __ATOMIC_RELAXED);   /* lock-free users fail from now */
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
			__atomic_store_n(&s->state, (uint64_t)s->gen << SEM_GEN_SHIFT | (uint32_t)value,
					 __ATOMIC_RELAXED);
			long id = (long)((uint64_t)s->gen << 8 | (uint64_t)i);
			spin_unlock(&s->wq.lock);
			return id;
		}
		spin_unlock(&s->wq.lock);
	}
	return -EAGAIN;
}

/* The post under the lock (a function of its own, so the lock-free case
 * in sem_post saves no registers). */
static __attribute__((noinline)) long post_locked(int id, uint64_t gen)
{
	struct sem *s = sem_get(id);
	if (!s)
		return -EINVAL;
	/* Whoever is first gets the unit; the bit goes when the queue empties. */
	struct list_node *first = s->wq.sleepers.next;
	if (first->next == &s->wq.sleepers)
		__atomic_fetch_and(&s->state, ~SEM_SLEEPERS, __ATOMIC_RELAXED);
	int woke = __atomic_load_n(&sem_direct_on, __ATOMIC_RELAXED) ?
		   waitq_hand_over_run(&s->wq) : waitq_hand_over(&s->wq);
	if (woke == 2)
		return 0;                    /* the waiter ran here: the lock went before the switch */
	long r = 0;
	if (woke)
		;
	else if (count_up(s, gen, 0))
		sync_post(HAKO_SYNC_SEM, s);
	else
		r = -ERANGE;
	spin_unlock(&s->wq.lock);
	return r;
}

long sem_post(int id)
{
	uint64_t gen;
	struct sem *s = sem_slot(id, &gen);
	if (s && count_up(s, gen, SEM_SLEEPERS)) {
		sync_post(HAKO_SYNC_SEM, s);     /* a waiter that takes the unit comes after this */
		return 0;                    /* nobody sleeps: no lock */
	}
	return post_locked(id, gen);
}

/* The wait under the lock (see post_locked). */
static __attribute__((noinline)) long wait_locked(int id, uint64_t gen)
{
	struct sem *s = sem_get(id);
	if (!s)
		return -EINVAL;
	struct thread *me = thread_current();
	while (!count_down(s, gen, true)) {  /* none: SEM_SLEEPERS is set now */
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
	sync_wait(HAKO_SYNC_SEM, s);
	spin_unlock(&s->wq.lock);
	return 0;
}

long sem_wait(int id)
{
	uint64_t gen;
	struct sem *s = sem_slot(id, &gen);
	if (s && count_down(s, gen, false)) {
		sync_wait(HAKO_SYNC_SEM, s);
		return 0;                    /* a unit was there: no lock */
	}
	return wait_locked(id, gen);
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
