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

/* serialise=on|off (default on): off keeps every such piece of work
 * inline where it was (the "before" of paper 004's Table 2). */
extern bool serialise_on;

void serialiser_init(void);                 /* reads serialise=, starts the thread */
void serialiser_queue(struct ser_work *w);  /* runs w->fn later, in queue order; holds nothing */
void serialiser_drain(void);                /* returns once all queued before it has run */

/* Bounds that keep each lock hold of the deferred work short. */
#define SER_UNMAP_CHUNK 16       /* pages unmapped per address-space lock hold */
#define SER_ICA_CHUNK   1        /* ICAs released per ica_lock hold (~30 instructions a page) */

#endif
