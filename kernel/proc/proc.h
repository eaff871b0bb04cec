/*
 * proc.h — user processes: an address space, its threads, a parent.
 *
 * A process is spawned from a program in the boot archive, runs one or
 * more user threads (kernel threads with the process's address space that
 * spend their life in ring 3), and ends when its last thread is gone: by
 * exit, by kill from an ancestor, or by a fault, which kills only it.
 * Its address space and kernel stacks are freed once the last thread has
 * switched away (proc_thread_reaped): by the serialising thread
 * (serialiser.c), or with serialise=off by the scheduler at once; the
 * parent collects the status with wait.  Nothing a program does reaches a kernel panic.
 */
#ifndef HAKO_PROC_H
#define HAKO_PROC_H

#include <stdbool.h>
#include <stdint.h>
#include <list.h>
#include <sched.h>
#include <serialiser.h>
#include <spinlock.h>
#include <thread.h>
#include <hako.h>

#define PROC_MAX        64          /* live + zombie processes: spawn says -EAGAIN beyond */
#define PROC_PRIO       PRIO_DEFAULT
#define PROC_PRIO_MAX   (PRIO_DEFAULT + 8)   /* highest priority a program may ask for */
/* Program segments lie in [HAKO_USER_IMAGE_BASE, this), so the heap fits below the stacks. */
#define HAKO_USER_HEAP_LIMIT (HAKO_THREAD_STACK_AREA - HAKO_HEAP_MAX)

struct thread;
struct addrspace;
struct ispc_port;
struct proc_service;

enum uthread_state { UT_FREE, UT_LIVE, UT_EXITED };

/* One thread slot; slot i > 0 owns the stack slot i of the thread-stack area. */
struct uthread {
	enum uthread_state state;
	struct thread *t;
	int tid;
	int code;                        /* exit code once UT_EXITED */
	bool joining;                    /* a thread_join is under way */
	uint64_t rip, rsp, a0, a1;       /* where it starts in ring 3, rdi, rsi */
	uint64_t super_stack;            /* a supervisor-mode process's thread: the base of the
	                                  * stack it runs on in ring 0 (a kernel stack, kstack.h,
	                                  * in the kernel half: super_arch.c); 0 otherwise */
	struct proc *proc;
	bool stack_pending;              /* its stack slot is queued for the serialiser
					  * (set under join_wq.lock, cleared under it and
					  * t->exit_wq.lock): not reusable, not joinable */
	struct ser_work stack_work;
};

enum proc_state { P_ALIVE, P_ZOMBIE };

struct proc {
	int pid;
	char name[HAKO_PATH_MAX];
	enum proc_state state;           /* under proc_lock */
	struct proc *parent;             /* NULL: orphan, freed as soon as it ends */
	struct list_node children;       /* under proc_lock */
	struct list_node sibling;
	struct addrspace *as;
	struct spinlock lock;            /* the fields below */
	struct uthread threads[HAKO_MAX_THREADS];
	int live;                        /* threads not yet reaped */
	int running;                     /* threads not yet exited */
	int refs;                        /* under the tree lock: the parent's, kill's */
	struct ser_work end_work;        /* proc_end on the serialising thread */
	bool exiting;                    /* exit or kill under way: threads leave */
	int status;                      /* what wait reports */
	struct waitq join_wq;            /* thread_join sleepers */
	uint64_t heap_base, brk;         /* heap [heap_base, brk), filled on first touch */
	uint64_t user_frames;            /* frames mapped for the program */
	struct ispc_port *ispc;          /* its queues (ispc.c), made on first use */
	bool ica_window;                 /* the whole ICA region is mapped (ica_fast.c) */
	uint32_t blk_open;               /* block devices opened, a bit per number (sys_blk.c) */
	struct proc_service *service;    /* a service process's record (below), NULL: a program */
	uint32_t priv;                   /* HAKO_PRIV_* it holds: priv.c (atomic, only shrinks) */
};

void proc_init(void);                /* after the archive is found */
/* Start a program (argv NULL-terminated, kernel memory) as a child of parent (NULL: the kernel). */
int proc_spawn(struct proc *parent, const char *path, int argc, char *const argv[]);
/* The same, with setup(p, arg) run once the process is built and before
 * its thread starts (a driver process gets its driver process there); a setup error
 * undoes the spawn. */
int proc_spawn_with(struct proc *parent, const char *path, int argc, char *const argv[],
		    int (*setup)(struct proc *p, void *arg), void *arg);
/* proc_spawn_with, in a mode: PROC_SUPERVISOR runs the process in supervisor
 * mode (paper 003's driver placement, arch_super_start): every page of its
 * address space a supervisor page, each thread on a stack in the kernel
 * half.  -ENOSYS where the arch has no such mode (ARCH_HAS_SUPERVISOR_PROCS). */
#define PROC_SUPERVISOR 1u
int proc_spawn_mode(struct proc *parent, const char *path, int argc, char *const argv[],
		    unsigned mode, int (*setup)(struct proc *p, void *arg), void *arg);
/* The program the kernel runs (may power off): pid 1 unless driver processes came first. */
extern int proc_init_pid;
int proc_wait(struct proc *parent, int pid, int *status);   /* pid -1: any child */
int proc_kill(struct proc *killer, int pid);
void proc_exit(int status) __attribute__((noreturn));       /* the whole process */
void proc_thread_exit(int code) __attribute__((noreturn));  /* this thread only */
int proc_thread_create(uint64_t rip, uint64_t arg);
/* Process create without the start, for timing it (kinternal.c): a
 * process with its memory and main thread, in the table, child of nobody;
 * proc_discard_unstarted frees it all again. */
struct proc *proc_create_unstarted(const char *path);
void proc_discard_unstarted(struct proc *p);
int proc_thread_join(int tid);

/* Called by p's thread: is it p's only one (no other can run p's code)? */
static inline bool proc_alone(struct proc *p)
{
	return __atomic_load_n(&p->running, __ATOMIC_ACQUIRE) == 1;
}
/* The running thread's user side and process; NULL in a kernel thread
 * (inline: every system call asks). */
static inline struct uthread *uthread_current(void)
{
	return thread_current()->owner;
}

static inline struct proc *proc_current(void)
{
	struct uthread *u = uthread_current();
	return u ? u->proc : NULL;
}
int proc_count(void);

/*
 * A service process: one the kernel runs for a subsystem of its own (a
 * driver process, drvproc.c).  The subsystem keeps this record inside its
 * own state (and finds that from p->service); proc and sched act on the
 * record alone: its threads' switches are counted in `switches`
 * (sched.c), they may use the ports of `io` in ring 3 (arch_thread_switched_in),
 * and any program that is not a service process itself may kill it (the
 * subsystem starts it again).
 */
struct arch_io_grant;
struct proc_service {
	struct switch_count switches;
	const struct arch_io_grant *io;  /* ports open to its threads, NULL: none */
};
/* p becomes s's service process (s NULL: no longer one), every thread it
 * has too.  From proc_spawn_with's setup (before its thread runs) or from
 * an exit hook (its threads are gone). */
void proc_set_service(struct proc *p, struct proc_service *s);

/* Memory (proc_mem.c). */
#define FAULT_WRITE 1
#define FAULT_EXEC  2
int proc_page_fault(uint64_t addr, unsigned access);         /* 0, -EFAULT or -ENOMEM */
long proc_brk(struct proc *p, uint64_t end);
void proc_free_stack_slot(struct proc *p, int slot);         /* page by page (serialise=off) */
void proc_free_stack_slot_chunked(struct proc *p, int slot); /* SER_UNMAP_CHUNK pages a lock hold */
/* Is [addr, addr + len) inside the running thread's supervisor-mode stack
 * (uthread.super_stack; false for every other thread)?  Its end, or 0. */
bool proc_own_stack(uint64_t addr, uint64_t len);
uint64_t proc_own_stack_top(void);
struct elf_image;
int proc_load(struct proc *p, const struct elf_image *img, const uint8_t *file);
int proc_setup_stack(struct proc *p, int argc, char *const argv[], uint64_t *rsp, uint64_t *uargv);
uint64_t thread_stack_top(int slot);
/*
 * The ICA area (HAKO_ICA_AREA, uapi/hako.h) is filled on demand by the
 * subsystem that owns it (ipc/ica.c), which gives its fault handler here
 * at boot: a touch there calls fn(p, va) (0: the page is mapped now, or
 * -EFAULT or -ENOMEM).  Without one a touch there is -EFAULT.
 */
void proc_on_ica_fault(int (*fn)(struct proc *p, uint64_t va));

/* Called by the arch layer and the scheduler. */
void proc_fault_exit(int cause, const char *what, uint64_t addr, uint64_t rip) __attribute__((noreturn));
void proc_leave_killed(void) __attribute__((noreturn));   /* the killed thread leaves */
/* On the way back to user mode: leaves if the thread was killed (inline:
 * every system call passes here). */
static inline void proc_return_to_user(void)
{
	if (thread_current()->killed)
		proc_leave_killed();
}
struct proc *proc_thread_reaped(struct uthread *u); /* after its last switch away: p if it was the last */
void proc_end(struct proc *p);                     /* then this, with nothing held: queues or runs the end */

/*
 * Exit hooks: a subsystem that keeps state per process registers one at
 * boot, and a process's end calls each with the process, in rank order
 * (lowest first), once its threads are gone and before its address space
 * and semaphores go, with nothing held (on the serialising thread, or at
 * once with serialise=off).  So proc calls no subsystem that builds on
 * it.  The ranks, in the order they run:
 */
enum proc_exit_rank {
	PROC_EXIT_ISPC = 10,         /* ipc: requests and ICAs, while the address space is there */
	PROC_EXIT_DRVPROC = 20,      /* drvproc: a driver process's device stops, its DMA memory goes */
	PROC_EXIT_NIC = 30,          /* NICs for programs: its cards closed, its kernel senders stopped */
};
struct proc_exit_hook {
	int rank;                    /* enum proc_exit_rank */
	void (*fn)(struct proc *p);
	struct proc_exit_hook *next; /* proc.c's list, in rank order */
};
/* At boot, before the first process exists (the list is read unlocked). */
void proc_on_exit(struct proc_exit_hook *h);
const struct proc_exit_hook *proc_exit_hooks(void);   /* the list's first, for the ktest */

/* The boot archive of programs (initrd.c). */
void initrd_init(const void *data, uint64_t size);
int initrd_find(const char *name, const void **data, uint64_t *size);
int initrd_name(int index, const char **name);

#endif
