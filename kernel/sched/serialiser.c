/*
 * serialiser.c — paper 004's serialising thread.
 *
 * The rule it enforces: no preemption-off section longer than 100 us
 * (Table 2 of the paper: 11-71 us).  In Hako preemption is off exactly
 * while interrupts are off (any spinlock held) or an interrupt runs
 * (preempt_trace.c), so work whose length grows with what a process owns
 * must neither hold a lock for all of it nor run where the scheduler
 * calls it.  Such work is queued here and done by one kernel thread,
 * preemptibly, in bounded steps that drop their lock between steps:
 *
 *   process end (proc.c, proc_end): freeing its threads, releasing its
 *     ICAs SER_ICA_CHUNK at a time (ica.c), its cards and semaphores,
 *     and freeing its address space, instead of by whichever thread
 *     next switches in on the CPU that reaped the last thread;
 *   a departed thread's stack slot (proc_mem.c): unmapped SER_UNMAP_CHUNK
 *     pages per address-space lock hold, one ranged TLB shootdown each,
 *     instead of one lock hold and one shootdown per page by the exiting
 *     thread; skipped when the whole process is ending (vm_destroy frees
 *     it all);
 *   the idle CPUs' steal scan of a long ready queue is bounded in
 *     sched.c under the same switch.
 *
 * What the callers see does not change: a parent's wait sees a child gone
 * only after its end work here has freed everything (the zombie is made
 * last), and thread_join returns only after the joined thread's stack
 * slot is unmapped, so every frame is back when either returns.
 *
 * serialise=off (kernel command line) keeps every such piece of work
 * inline, so the "before" table stays reproducible: ./hako bench preempt
 * boots both.  What the switch changes is decided in serialiser.h alone
 * (serialiser_on, serialiser_chunk, serialiser_run, and the SER_* bounds);
 * the callers ask it.
 *
 * Priority PRIO_DEFAULT + 1: above ordinary programs, so teardown keeps
 * up with them, below raised and periodic threads, which preempt it.
 */
#include <stdint.h>
#include <string.h>
#include <cmdline.h>
#include <panic.h>
#include <sched.h>
#include <serialiser.h>
#include <spinlock.h>
#include <thread.h>

bool serialise_on = true;

static struct waitq work_wq;             /* its lock guards queue, queued, done */
static struct list_node queue = LIST_INIT(queue);
static uint64_t queued, done;            /* pieces of work ever queued and finished */

void serialiser_queue(struct ser_work *w)
{
	spin_lock(&work_wq.lock);
	list_push_back(&queue, &w->link);
	queued++;
	waitq_wake_all(&work_wq);
	spin_unlock(&work_wq.lock);
}

void serialiser_drain(void)
{
	if (!serialise_on)
		return;
	spin_lock(&work_wq.lock);
	uint64_t mine = queued;
	while (done < mine)
		waitq_wait_locked(&work_wq);
	spin_unlock(&work_wq.lock);
}

static void serialiser_thread(void *unused)
{
	spin_lock(&work_wq.lock);
	for (;;) {
		while (list_empty(&queue))
			waitq_wait_locked(&work_wq);
		struct ser_work *w = list_entry(list_pop_front(&queue), struct ser_work, link);
		spin_unlock(&work_wq.lock);
		w->fn(w);                    /* may free w */
		spin_lock(&work_wq.lock);
		done++;
		waitq_wake_all(&work_wq);    /* serialiser_drain */
	}
}

void serialiser_init(void)
{
	const char *opt = cmdline_get(&kcmdline, "serialise");
	serialise_on = !(opt && strcmp(opt, "off") == 0);
	waitq_init(&work_wq, "serialiser", LOCK_WAITQ);
	if (serialise_on && !thread_spawn("serialiser", serialiser_thread, NULL, PRIO_DEFAULT + 1))
		panic("boot: cannot create the serialising thread");
}
