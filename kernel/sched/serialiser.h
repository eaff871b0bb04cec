/*
 * serialiser.h — paper 004's serialising thread: long kernel work handed
 * off the paths that hold interrupts off or run in another thread's time
 * (kernel/sched/serialiser.c has the rule and the list of what it runs).
 */
#ifndef HAKO_SERIALISER_H
#define HAKO_SERIALISER_H

#include <stdbool.h>
#include <list.h>

/* One piece of deferred work, embedded in what it works on (no allocation
 * on the paths that hand it over).  fn runs on the serialising thread,
 * preemptibly, with nothing held; queued twice before it ran is a bug. */
struct ser_work {
	struct list_node link;
	void (*fn)(struct ser_work *w);
};

/*
 * serialise=on|off (default on; serialiser_init reads it): off keeps
 * every such piece of work inline where it was (the "before" of paper
 * 004's Table 2).  What the switch changes is decided here and nowhere
 * else: callers ask serialiser_on, serialiser_chunk or serialiser_run.
 * serialise_on is set once at boot; read it through serialiser_on.
 */
extern bool serialise_on;

static inline bool serialiser_on(void) { return serialise_on; }

/* Items a lock-dropping loop handles per lock hold: bound (one of the
 * SER_* bounds below) with serialise=on, whole (all of them: the loop
 * never lets go, or only at its very end) with off. */
static inline int serialiser_chunk(int bound, int whole)
{
	return serialise_on ? bound : whole;
}

void serialiser_init(void);                 /* reads serialise=, starts the thread */
void serialiser_queue(struct ser_work *w);  /* runs w->fn later, in queue order; holds nothing */
void serialiser_drain(void);                /* returns once all queued before it has run */

/* Hand w over: queued (serialise=on), or w->fn(w) here and now (off).
 * Caller holds nothing. */
static inline void serialiser_run(struct ser_work *w)
{
	if (serialise_on)
		serialiser_queue(w);
	else
		w->fn(w);
}

/* Paper 004's bounds: each keeps one lock hold of the work short. */
#define SER_UNMAP_CHUNK 16       /* pages unmapped per address-space lock hold */
#define SER_ICA_CHUNK   1        /* ICAs released per ica_lock hold (~30 instructions a page) */
/* Threads interrupted per join_wq.lock hold by a process's stop (proc.c):
 * 64 at once held it ~11k instructions, ~130 us at 166 MHz. */
#define SER_STOP_CHUNK  8
/* Queued threads an idle CPU looks at per steal (sched.c), which also
 * gives up at once on a queue lock another CPU holds: its scan of a long
 * ready queue stays short and it does not spin with interrupts off on a
 * busy CPU's lock.  It tries again at its next tick. */
#define SER_STEAL_SCAN  32

#endif
