/*
 * thread.h — kernel threads (and, later, the kernel side of user threads).
 */
#ifndef HAKO_THREAD_H
#define HAKO_THREAD_H

#include <stdbool.h>
#include <stdint.h>
#include <cpu.h>
#include <list.h>
#include <sched.h>
#include <time.h>

enum thread_state { T_NEW, T_RUNNABLE, T_RUNNING, T_SLEEPING, T_DEAD };

struct addrspace;
struct isoch;

struct arch_io_grant;

struct thread {
	uint64_t saved_rsp;              /* while not running */
	uint64_t kstack;                 /* base of its kernel stack */
	int tid;
	char name[16];
	enum thread_state state;
	int prio;
	uint64_t affinity;               /* CPUs it may run on */
	int cpu;                         /* CPU it runs or last ran on */
	int migrate_to;                  /* -1, or a CPU to move to at the next switch */
	bool no_steal;                   /* just migrated: balancing must not move it */
	uint64_t slice_left;             /* ticks */
	struct list_node rq_link;        /* run queue or wait queue */
	bool on_rq;                      /* rq_link is in a run queue (under its lock) */
	struct list_node all_link;
	void (*entry)(void *);
	void *arg;
	struct timer sleep_timer;
	struct waitq exit_wq;            /* joiners */
	int exit_code;
	bool detached;                   /* freed at exit, nobody joins */
	bool joined;
	struct addrspace *as;            /* NULL: kernel only */
	uint64_t runtime_tsc;
	uint64_t switched_in_tsc;
	void *owner;                     /* the process, for user threads */
	volatile bool killed;            /* leave at the next chance (user threads) */
	struct waitq *volatile wait_on;  /* the wait queue it sleeps on, if any */
	bool handed;                     /* woken by waitq_hand_over */
	bool direct_wait;                /* asleep in sched_switch_direct: resumes there */
	bool guard_handed;               /* resumed by sched_switch_direct with the guard held */
	/* Asleep in sched_switch_direct in a words call's dedicated wait
	 * (ipc/ispc_call.c, which sets and clears it, under ica_lock): what it
	 * waits for there (the request, or the port it receives on), so that
	 * the thread which switches to it may end the call for it and resume
	 * it straight to user mode (sched_switch_direct_user); NULL otherwise. */
	const void *words_wait;
	bool user_resumable;             /* a ring-3 thread whose words calls may end in
	                                  * sched_switch_direct_user (not a supervisor-mode
	                                  * one, irqtrace off: proc sets it at its start) */
	struct isoch *isoch;             /* periodic (isoch.c), under its lock; NULL: normal */
	uint16_t perf_ctx;               /* irqtrace=on: its context (uapi/hako_perf.h), 0: kernel */
	const struct arch_io_grant *io;  /* ports open to it in ring 3 (a driver process), NULL: none */
	struct switch_count *switches;   /* its party's switch counts (sched.h), NULL: not counted */
};

struct thread *thread_create(const char *name, void (*entry)(void *), void *arg, int prio, uint64_t affinity);
void thread_start(struct thread *t);
struct thread *thread_spawn(const char *name, void (*entry)(void *), void *arg, int prio);
void thread_discard(struct thread *t);   /* a thread created and never started: freed */
void thread_exit(int code) __attribute__((noreturn));
int thread_join(struct thread *t);       /* waits, frees, returns the exit code */
void thread_detach(struct thread *t);
void thread_sleep_ns(uint64_t ns);
/* The thread running on this CPU (inline: a server call asks several times). */
static inline struct thread *thread_current(void)
{
	return (struct thread *)arch_this_cpu_read64(offsetof(struct cpu, current));
}
/* Make t stop waiting and leave: sets killed, wakes it from any sleep. */
void thread_interrupt(struct thread *t);
void thread_for_each(void (*fn)(struct thread *));   /* thread dump only */
struct hako_psinfo;
int thread_info(int index, struct hako_psinfo *out);  /* ps: 0 or -ENOENT */
void thread_dump_all(void);              /* thread_dump.c: every CPU and thread */
static inline bool thread_killed(struct thread *t) { return t->killed; }

/*
 * t (running, holding wq->guard) is to wait on wq: false, and not waiting, if
 * it is killed already.  wait_on lets thread_interrupt (waitq.c) find the
 * sleeper and wake it early, so every waiter rechecks its condition in a
 * loop; the fence pairs with the one there (killed is set before wait_on is
 * read), so either the killer finds wq or t sees the kill.
 */
static inline bool thread_wait_begin(struct thread *t, struct waitq *wq)
{
	t->wait_on = wq;
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
	if (!t->killed)
		return true;
	t->wait_on = NULL;
	return false;
}
/* Take the first sleeper off wq (caller holds wq->guard), its wait over;
 * `handed`: fulfilled (waitq_wait_handed).  It is asleep still: the caller
 * wakes or runs it.  NULL if none.  Inline: every post and wake-up. */
static inline struct thread *waitq_take_first(struct waitq *wq, bool handed)
{
	struct list_node *n = list_pop_front(&wq->sleepers);
	if (!n)
		return NULL;
	struct thread *t = list_entry(n, struct thread, rq_link);
	t->wait_on = NULL;
	t->handed = handed;              /* seen after the switch: the rq lock orders it */
	return t;
}
/* waitq_hand_over without the wake-up: the first sleeper, off wq and its
 * wait fulfilled, or NULL if none. */
static inline struct thread *waitq_take_handed(struct waitq *wq) { return waitq_take_first(wq, true); }

void thread_free(struct thread *t);      /* for sched: stack and struct */
int thread_count(void);

#endif
