/*
 * thread.c — creating, running, sleeping, exiting and joining threads.
 *
 * A thread's kernel stack (KSTACK_SIZE, with a guard page below it: kstack.c) is freed by
 * the next thread to run on its CPU once it has switched away for the
 * last time (thread_reap); only then do joiners wake, so a joiner never
 * frees a struct whose stack is still in use.
 */
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cpu.h>
#include <errno.h>
#include <heap.h>
#include <isoch.h>
#include <kprintf.h>
#include <kstack.h>
#include <panic.h>
#include <pmm.h>
#include <proc.h>
#include <smp.h>
#include <thread.h>

static struct spinlock threads_lock = SPINLOCK_INIT("threads", LOCK_THREADS);
static struct list_node all_threads = LIST_INIT(all_threads);
static int next_tid = 1;
static int nthreads;

/* One gs-relative load: wherever we are moved, `current` there is us. */
int thread_count(void) { return nthreads; }

static void sleep_timer_fired(struct timer *tm, void *arg)
{
	sched_wakeup(arg);
}

static struct thread *thread_alloc(const char *name, int prio, uint64_t affinity)
{
	struct thread *t = kzalloc(sizeof *t);
	if (!t)
		return NULL;
	strlcpy(t->name, name, sizeof t->name);
	t->prio = prio;
	t->affinity = affinity ? affinity : ~0ull;
	t->migrate_to = -1;
	t->state = T_NEW;
	timer_init(&t->sleep_timer, sleep_timer_fired, t);
	waitq_init(&t->exit_wq, "thread-exit", LOCK_WAITQ);
	list_init(&t->rq_link);
	spin_lock(&threads_lock);
	t->tid = next_tid++;
	list_push_back(&all_threads, &t->all_link);
	nthreads++;
	spin_unlock(&threads_lock);
	return t;
}

struct thread *thread_create(const char *name, void (*entry)(void *), void *arg, int prio, uint64_t affinity)
{
	if (prio < 0 || prio >= NPRIO)
		return NULL;
	uint64_t stack = kstack_alloc();
	if (!stack)
		return NULL;
	struct thread *t = thread_alloc(name, prio, affinity);
	if (!t) {
		kstack_free(stack);
		return NULL;
	}
	t->kstack = stack;
	t->entry = entry;
	t->arg = arg;
	t->saved_rsp = arch_thread_stack_init(t->kstack + KSTACK_SIZE - KSTACK_ENTRY_FRAME);
	return t;
}

void thread_start(struct thread *t)
{
	sched_enqueue_new(t);
}

struct thread *thread_spawn(const char *name, void (*entry)(void *), void *arg, int prio)
{
	struct thread *t = thread_create(name, entry, arg, prio, 0);
	if (t)
		thread_start(t);
	return t;
}

/* The context a CPU booted on becomes its idle thread. */
struct thread *thread_adopt_idle(struct cpu *c)
{
	struct thread *t = thread_alloc("idle", 0, 1ull << c->id);
	if (!t)
		panic("thread: no memory for idle thread of cpu %d", c->id);
	t->prio = PRIO_IDLE;
	t->kstack = c->idle_stack;
	t->state = T_RUNNING;
	t->cpu = c->id;
	t->detached = true;
	t->switched_in_tsc = arch_tsc();
	return t;
}

/* Called from thread_entry_trampoline on a new thread's first run. */
void thread_first_run(void)
{
	this_cpu()->intena = true;       /* start with interrupts on */
	sched_finish_switch();
	struct thread *t = thread_current();
	t->entry(t->arg);
	thread_exit(0);
}

void thread_exit(int code)
{
	struct thread *t = thread_current();
	t->exit_code = code;
	if (t->isoch)
		isoch_thread_exit(t);
	timer_cancel_sync(&t->sleep_timer);
	t->state = T_DEAD;
	sched_block();
	panic("thread_exit: dead thread %d ran again", t->tid);
}

/* For the thread dump: fn on every thread, if the list can be had. */
void thread_for_each(void (*fn)(struct thread *))
{
	bool locked = false;
	for (int i = 0; i < 1000000 && !locked; i++)
		locked = spin_trylock(&threads_lock);
	if (!locked) {
		kprintf("threads: list lock held elsewhere, not walked\n");
		return;
	}
	list_for_each(n, &all_threads)
		fn(list_entry(n, struct thread, all_link));
	spin_unlock(&threads_lock);
}

static void thread_unlink_free(struct thread *t)
{
	spin_lock(&threads_lock);
	list_remove(&t->all_link);
	nthreads--;
	spin_unlock(&threads_lock);
	kfree(t);
}

void thread_discard(struct thread *t)
{
	kstack_free(t->kstack);
	thread_unlink_free(t);
}

/* After the last switch away from a dead thread: free its stack. */
void thread_reap(struct thread *t)
{
	kstack_free(t->kstack);
	t->kstack = 0;
	if (t->detached) {
		thread_unlink_free(t);
		return;
	}
	struct uthread *u = t->owner;    /* t may be freed once joined is set */
	spin_lock(&t->exit_wq.lock);
	t->joined = true;                /* reaped: joiners may free it now */
	waitq_wake_all(&t->exit_wq);
	spin_unlock(&t->exit_wq.lock);
	/* Counted only now, so when the last one is, every thread of the
	 * process is joinable and proc_end never waits. */
	struct proc *ended = u ? proc_thread_reaped(u) : NULL;
	if (ended)
		proc_end(ended);             /* t was the last thread of a process */
}

int thread_join(struct thread *t)
{
	if (t->detached || t == thread_current())
		return -EINVAL;
	spin_lock(&t->exit_wq.lock);
	while (!t->joined)
		waitq_wait_locked(&t->exit_wq);
	spin_unlock(&t->exit_wq.lock);
	int code = t->exit_code;
	thread_unlink_free(t);
	return code;
}

void thread_detach(struct thread *t)
{
	t->detached = true;
}

void thread_sleep_ns(uint64_t ns)
{
	struct thread *t = thread_current();
	sched_sleep_timed(&t->sleep_timer, arch_tsc() + ns_to_tsc(ns));
	timer_cancel_sync(&t->sleep_timer);   /* woken early (thread_interrupt) */
}

/* ps: the INDEX-th thread of the list into out; 0, or -ENOENT past the
 * last.  A thread on the list has its process (proc_teardown joins every
 * thread, so takes it off the list, before the process is freed).  The
 * state and CPU are read as they are at that moment, without the
 * scheduler's locks. */
int thread_info(int index, struct hako_psinfo *out)
{
	int err = -ENOENT;
	spin_lock(&threads_lock);
	list_for_each(n, &all_threads) {
		if (index-- > 0)
			continue;
		struct thread *t = list_entry(n, struct thread, all_link);
		struct uthread *u = t->owner;
		*out = (struct hako_psinfo){
			.pid = u ? u->proc->pid : 0, .tid = t->tid,
			.state = (int32_t)__atomic_load_n(&t->state, __ATOMIC_RELAXED),
			.cpu = __atomic_load_n(&t->cpu, __ATOMIC_RELAXED), .prio = t->prio,
			.runtime_tsc = __atomic_load_n(&t->runtime_tsc, __ATOMIC_RELAXED),
		};
		strlcpy(out->name, t->name, sizeof out->name);
		err = 0;
		break;
	}
	spin_unlock(&threads_lock);
	return err;
}
