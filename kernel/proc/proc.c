/*
 * proc.c — the life of a process: spawn, exit, kill, wait, and its threads.
 *
 * Locks: the process tree (tree_wq.lock: parent and children links, the
 * table, zombies, reference counts) and a process's join_wq.lock (its
 * thread slots, exiting, status); their place in the lock order is in
 * spinlock.h (LOCK_WAITQ, LOCK_PROC_JOIN).  A process ends in three steps:
 *   1. exit, kill or a fault marks it exiting and interrupts every thread;
 *   2. each thread leaves (uthread_leave) and is reaped by the scheduler
 *      after its last switch away; the last reap calls proc_end, which
 *      hands the end to the serialising thread (serialiser.c; with
 *      serialise=off it runs at once): free the thread structs, run the
 *      exit hooks (proc_on_exit: requests and ICAs, a driver process's
 *      device, cards), free the address space and semaphores, then make
 *      it a zombie;
 *   3. the parent's wait collects the status and drops the last reference.
 * An orphan (parent gone) skips step 3.
 */
#include <stdint.h>
#include <string.h>
#include <cpu.h>
#include <elf.h>
#include <errno.h>
#include <heap.h>
#include <kstack.h>
#include <kprintf.h>
#include <panic.h>
#include <proc.h>
#include <priv.h>
#include <sem.h>
#include <thread.h>
#include <vm.h>

static struct waitq tree_wq;                 /* parents waiting for children */
#define tree_lock (tree_wq.lock)
static struct proc *table[PROC_MAX];
static int next_pid = 1;
static int nprocs;
static struct proc kernel_anchor;            /* parent of what the kernel spawns */
int proc_init_pid = 1;

void proc_init(void)
{
	waitq_init(&tree_wq, "proc-tree", LOCK_WAITQ);
	list_init(&kernel_anchor.children);
}

int proc_count(void) { return nprocs; }

/* ---- the table and references ---------------------------------------- */

static int table_insert(struct proc *p)
{
	spin_lock(&tree_lock);
	int err = -EAGAIN;
	for (int i = 0; i < PROC_MAX; i++)
		if (!table[i]) {
			table[i] = p;
			p->pid = next_pid++;
			nprocs++;
			err = 0;
			break;
		}
	spin_unlock(&tree_lock);
	return err;
}

/* Caller holds tree_lock. */
static void table_remove(struct proc *p)
{
	for (int i = 0; i < PROC_MAX; i++)
		if (table[i] == p) {
			table[i] = NULL;
			nprocs--;
		}
}

/* Caller holds tree_lock. */
static struct proc *table_find(int pid)
{
	for (int i = 0; i < PROC_MAX; i++)
		if (table[i] && table[i]->pid == pid)
			return table[i];
	return NULL;
}

/* Drop a reference; caller holds tree_lock.  True: free it after unlocking. */
static bool put_locked(struct proc *p)
{
	return --p->refs == 0;
}

/* ---- threads ---------------------------------------------------------- */

static void uthread_leave(int code) __attribute__((noreturn));

static void uthread_entry(void *arg)
{
	struct uthread *u = arg;
	if (thread_current()->killed)
		uthread_leave(-1);
	if (u->super_stack)
		arch_super_start(u->rip, u->super_stack + KSTACK_SIZE, u->a0, u->a1);
	arch_user_start(u->rip, u->rsp, u->a0, u->a1);
}

/* Caller holds p->join_wq.lock. */
static struct uthread *slot_alloc(struct proc *p, int from)
{
	for (int i = from; i < HAKO_MAX_THREADS; i++)
		if (p->threads[i].state == UT_FREE && !p->threads[i].stack_pending)
			return &p->threads[i];
	return NULL;
}

static int slot_index(struct proc *p, struct uthread *u) { return (int)(u - p->threads); }

/* t is a thread of s's service process (s NULL: of a program). */
static void serve(struct thread *t, struct proc_service *s)
{
	t->switches = s ? &s->switches : NULL;
	t->io = s ? s->io : NULL;
}

void proc_set_service(struct proc *p, struct proc_service *s)
{
	p->service = s;
	for (int i = 0; i < HAKO_MAX_THREADS; i++)
		if (p->threads[i].state != UT_FREE && p->threads[i].t)
			serve(p->threads[i].t, s);
}

/* The stack a supervisor-mode thread ran on goes back, once its thread is
 * gone (joined or discarded: it may have left the process on that stack). */
static void uthread_free_super_stack(struct uthread *u)
{
	if (u->super_stack)
		kstack_free(u->super_stack);
	u->super_stack = 0;
}

/* A kernel thread that will enter ring 3 (or, in a supervisor-mode
 * process, ring 0 on a stack of its own) at u->rip; not yet started. */
static int uthread_make(struct proc *p, struct uthread *u)
{
	if (p->as->supervisor && !(u->super_stack = kstack_alloc()))
		return -ENOMEM;
	struct thread *t = thread_create(p->name, uthread_entry, u, PROC_PRIO, 0);
	if (!t) {
		uthread_free_super_stack(u);
		return -ENOMEM;
	}
	t->as = p->as;
	t->owner = u;
	t->user_resumable = !p->as->supervisor && !irq_trace;
	serve(t, p->service);
	u->t = t;
	u->proc = p;
	/* Last: a join that finds the tid finds the thread (proc_thread_join). */
	__atomic_store_n(&u->tid, t->tid, __ATOMIC_RELEASE);
	return 0;
}

int proc_thread_create(uint64_t rip, uint64_t arg)
{
	struct proc *p = proc_current();
	spin_lock(&p->join_wq.lock);
	struct uthread *u = p->exiting ? NULL : slot_alloc(p, 1);
	if (u) {
		u->state = UT_LIVE;          /* reserved; t not yet set */
		u->tid = 0;                  /* not the slot's last thread's: no join finds it yet */
	}
	spin_unlock(&p->join_wq.lock);
	if (!u)
		return -EAGAIN;
	u->rip = rip;
	u->rsp = thread_stack_top(slot_index(p, u)) - 8;   /* as if called: rsp % 16 == 8 */
	u->a0 = arg;
	u->a1 = 0;
	u->joining = false;
	int err = uthread_make(p, u);
	spin_lock(&p->join_wq.lock);
	if (err < 0)
		u->state = UT_FREE;
	else {
		p->live++;
		p->running++;
		u->t->killed = p->exiting;   /* a kill that came meanwhile */
	}
	spin_unlock(&p->join_wq.lock);
	if (err < 0)
		return err;
	thread_start(u->t);
	return u->tid;
}

/* On the serialising thread: a departed thread's stack slot goes back,
 * then its joiner (waiting for stack_pending to clear) may go on. */
static void stack_work(struct ser_work *w)
{
	struct uthread *u = (struct uthread *)((char *)w - __builtin_offsetof(struct uthread, stack_work));
	struct proc *p = u->proc;
	proc_free_stack_slot_chunked(p, slot_index(p, u));
	spin_lock(&p->join_wq.lock);
	spin_lock(&u->t->exit_wq.lock);  /* u->t lives until joined, and join waits for this */
	u->stack_pending = false;
	waitq_wake_all(&u->t->exit_wq);
	spin_unlock(&u->t->exit_wq.lock);
	spin_unlock(&p->join_wq.lock);
}

/*
 * This thread leaves for good; the process ends when the last one has.
 * A thread leaving a process that goes on gives its stack slot back: at
 * once, page by page (serialise=off), or through the serialising thread
 * in chunks.  Leaving a process that is ending, the slot is left to
 * vm_destroy, which frees it with the rest (serialise=on).
 */
static void uthread_leave(int code)
{
	struct uthread *u = uthread_current();
	struct proc *p = u->proc;
	spin_lock(&p->join_wq.lock);
	u->code = code;
	u->state = UT_EXITED;
	bool last = --p->running == 0;
	if (last && !p->exiting) {       /* the last thread left by thread_exit */
		p->exiting = true;
		p->status = code & 0xff;
	}
	bool slot = !last && u != &p->threads[0];
	bool defer = slot && serialiser_on();
	if (defer && !p->exiting)
		u->stack_pending = true;
	spin_unlock(&p->join_wq.lock);
	if (slot && !defer)
		proc_free_stack_slot(p, slot_index(p, u));
	else if (u->stack_pending) {
		u->stack_work.fn = stack_work;
		serialiser_queue(&u->stack_work);   /* before our reap, so before proc_end's */
	}
	thread_exit(code);
}

void proc_thread_exit(int code)
{
	uthread_leave(code);
}

int proc_thread_join(int tid)
{
	struct proc *p = proc_current();
	struct uthread *me = uthread_current(), *u = NULL;
	spin_lock(&p->join_wq.lock);
	for (int i = 1; i < HAKO_MAX_THREADS; i++)
		if (p->threads[i].state != UT_FREE && tid > 0 &&
		    __atomic_load_n(&p->threads[i].tid, __ATOMIC_ACQUIRE) == tid)
			u = &p->threads[i];
	int err = !u ? -ESRCH : (u == me || u->joining) ? -EINVAL : 0;
	if (!err)
		u->joining = true;
	spin_unlock(&p->join_wq.lock);
	if (err)
		return err;
	/* Killable: two threads joining each other must not outlive a kill. */
	struct thread *t = u->t, *self = thread_current();
	spin_lock(&t->exit_wq.lock);
	while ((!t->joined || u->stack_pending) && !self->killed)
		waitq_wait_killable(&t->exit_wq);
	bool done = t->joined && !u->stack_pending;
	spin_unlock(&t->exit_wq.lock);
	spin_lock(&p->join_wq.lock);
	u->joining = false;
	spin_unlock(&p->join_wq.lock);
	if (!done)
		return -EINTR;
	int code = thread_join(t);       /* reaped already: frees at once */
	uthread_free_super_stack(u);
	spin_lock(&p->join_wq.lock);
	u->state = UT_FREE;
	u->t = NULL;
	spin_unlock(&p->join_wq.lock);
	return code;
}

/* ---- ending ----------------------------------------------------------- */

/*
 * Mark p exiting with status (the first reason wins) and wake every
 * thread.  Interrupting under join_wq.lock keeps every struct thread
 * alive; a user thread never sleeps on join_wq, so no lock is taken
 * twice.  With serialise=on the lock is dropped every SER_STOP_CHUNK threads
 * and the scan goes on from there: exiting is set by then, so no thread
 * is made meanwhile that would be missed (proc_thread_create refuses, and
 * one already made starts killed), and a slot looked at again is only
 * interrupted twice, which is harmless.
 */
static void proc_stop(struct proc *p, int status)
{
	int chunk = serialiser_chunk(SER_STOP_CHUNK, HAKO_MAX_THREADS);
	spin_lock(&p->join_wq.lock);
	if (!p->exiting) {
		p->exiting = true;
		p->status = status;
	}
	for (int i = 0, n = 0; i < HAKO_MAX_THREADS; i++) {
		if (p->threads[i].state != UT_LIVE || !p->threads[i].t)
			continue;
		thread_interrupt(p->threads[i].t);
		if (++n % chunk == 0) {
			spin_unlock(&p->join_wq.lock);
			spin_lock(&p->join_wq.lock);
		}
	}
	spin_unlock(&p->join_wq.lock);
}

void proc_exit(int status)
{
	proc_stop(proc_current(), status);
	uthread_leave(status & 0xff);
}

void proc_fault_exit(int cause, const char *what, uint64_t addr, uint64_t rip)
{
	struct proc *p = proc_current();
	arch_irq_enable();
	kprintf("pid %d (%s): %s at %lx, rip %lx: killed\n", p->pid, p->name, what, addr, rip);
	proc_stop(p, HAKO_STATUS_KILLED | cause);
	uthread_leave(HAKO_STATUS_KILLED | cause);
}

void proc_leave_killed(void)
{
	arch_irq_enable();
	uthread_leave(-1);
}

/* From the scheduler, after u's thread switched away for good: was it p's last? */
struct proc *proc_thread_reaped(struct uthread *u)
{
	struct proc *p = u->proc;
	spin_lock(&p->join_wq.lock);
	bool last = --p->live == 0;
	spin_unlock(&p->join_wq.lock);
	return last ? p : NULL;
}

/* The exit hooks, lowest rank first; written only at boot. */
static struct proc_exit_hook *exit_hooks;

void proc_on_exit(struct proc_exit_hook *h)
{
	if (next_pid != 1)
		panic("proc_on_exit: a process exists already");
	struct proc_exit_hook **at = &exit_hooks;
	while (*at && (*at)->rank <= h->rank)
		at = &(*at)->next;
	h->next = *at;
	*at = h;
}

const struct proc_exit_hook *proc_exit_hooks(void) { return exit_hooks; }

static void proc_free(struct proc *p)
{
	kfree(p);
}

/* Every thread of p is gone: free what it had, make it a zombie. */
static void proc_teardown(struct proc *p)
{
	for (int i = 0; i < HAKO_MAX_THREADS; i++)
		if (p->threads[i].state != UT_FREE && p->threads[i].t) {
			thread_join(p->threads[i].t);     /* reaped already: frees at once */
			p->threads[i].t = NULL;
			uthread_free_super_stack(&p->threads[i]);
		}
	for (struct proc_exit_hook *h = exit_hooks; h; h = h->next)
		h->fn(p);                    /* ipc, drvproc, NICs: proc.h's ranks */
	vm_destroy(p->as);
	p->as = NULL;
	sem_release_owner(p->pid);
	struct proc *freed[PROC_MAX + 1];
	int nfreed = 0;
	spin_lock(&tree_lock);
	while (!list_empty(&p->children)) {
		struct proc *c = list_entry(list_pop_front(&p->children), struct proc, sibling);
		c->parent = NULL;            /* orphan: nobody will wait for it */
		if (c->state == P_ZOMBIE) {
			table_remove(c);
			if (put_locked(c))
				freed[nfreed++] = c;
		}
	}
	p->state = P_ZOMBIE;
	if (!p->parent) {
		table_remove(p);
		if (put_locked(p))
			freed[nfreed++] = p;
	} else
		waitq_wake_all(&tree_wq);
	spin_unlock(&tree_lock);
	for (int i = 0; i < nfreed; i++)
		proc_free(freed[i]);
}

static void end_work(struct ser_work *w)
{
	proc_teardown((struct proc *)((char *)w - __builtin_offsetof(struct proc, end_work)));
}

/* From the last reap: the end runs on the serialising thread, not in the
 * time of whichever thread switched in here (serialise=off: at once). */
void proc_end(struct proc *p)
{
	p->end_work.fn = end_work;
	serialiser_run(&p->end_work);
}

int proc_wait(struct proc *parent, int pid, int *status)
{
	struct proc *self = parent ? parent : &kernel_anchor;
	struct thread *me = thread_current();
	spin_lock(&tree_lock);
	for (;;) {
		bool any = false;
		list_for_each(n, &self->children) {
			struct proc *c = list_entry(n, struct proc, sibling);
			if (pid != -1 && c->pid != pid)
				continue;
			any = true;
			if (c->state != P_ZOMBIE)
				continue;
			list_remove(&c->sibling);
			table_remove(c);
			int cpid = c->pid;
			*status = c->status;
			bool last = put_locked(c);
			spin_unlock(&tree_lock);
			if (last)
				proc_free(c);
			return cpid;
		}
		if (!any || me->killed) {
			spin_unlock(&tree_lock);
			return !any ? -ECHILD : -EINTR;
		}
		waitq_wait_killable(&tree_wq);
	}
}

/* Is a an ancestor of b (or b itself)?  Caller holds tree_lock. */
static bool is_ancestor(struct proc *a, struct proc *b)
{
	for (; b; b = b->parent)
		if (b == a)
			return true;
	return false;
}

/*
 * A service process (a driver process) is the kernel's child, yet any
 * program that is not itself one may kill it: its subsystem starts it
 * again (drvproc_restart.c), and the restart tests and fault runs need to.
 */
static bool service_killable(struct proc *killer, struct proc *p)
{
	return p->service && !killer->service;
}

int proc_kill(struct proc *killer, int pid)
{
	spin_lock(&tree_lock);
	struct proc *p = table_find(pid);
	int err = !p ? -ESRCH : (killer && !is_ancestor(killer, p) && !service_killable(killer, p))
		  ? -EPERM : 0;
	if (!err && p->state == P_ZOMBIE)
		p = NULL;                    /* already dead: nothing to do */
	else if (!err)
		p->refs++;
	spin_unlock(&tree_lock);
	if (err || !p)
		return err;
	proc_stop(p, HAKO_STATUS_KILLED | HAKO_CAUSE_KILL);
	spin_lock(&tree_lock);
	bool last = put_locked(p);
	spin_unlock(&tree_lock);
	if (last)
		proc_free(p);
	return 0;
}

/* ---- spawning --------------------------------------------------------- */

static struct proc *proc_alloc(const char *path, struct proc *parent)
{
	struct proc *p = kzalloc(sizeof *p);
	if (!p)
		return NULL;
	strlcpy(p->name, path, sizeof p->name);
	list_init(&p->children);
	waitq_init(&p->join_wq, "proc-join", LOCK_PROC_JOIN);
	spin_init(&p->lock, "proc", LOCK_PROC);
	p->refs = 1;
	p->parent = parent ? parent : &kernel_anchor;
	priv_inherit(p, parent);
	return p;
}

/* Build the process, its memory and main thread; nothing runs yet. */
static int proc_build(struct proc *p, const void *file, uint64_t size, int argc, char *const argv[],
		      unsigned mode)
{
	struct elf_image img;
	if (elf_parse(file, size, HAKO_USER_IMAGE_BASE, HAKO_USER_HEAP_LIMIT, &img) < 0)
		return -ENOEXEC;
	p->as = vm_create();
	if (!p->as)
		return -ENOMEM;
	p->as->supervisor = (mode & PROC_SUPERVISOR) != 0;   /* before its first page */
	struct uthread *u = &p->threads[0];
	int err = proc_load(p, &img, file);
	if (!err)
		err = proc_setup_stack(p, argc, argv, &u->rsp, &u->a1);
	if (err)
		return err;
	u->rip = img.entry;
	u->a0 = (uint64_t)argc;
	u->state = UT_LIVE;
	p->live = p->running = 1;
	return uthread_make(p, u);
}

struct proc *proc_create_unstarted(const char *path)
{
	const void *file;
	uint64_t size;
	char *argv[] = { (char *)path, NULL };
	if (initrd_find(path, &file, &size) < 0)
		return NULL;
	struct proc *p = proc_alloc(path, NULL);
	if (!p)
		return NULL;
	if (table_insert(p) < 0 || proc_build(p, file, size, 1, argv, 0) < 0) {
		proc_discard_unstarted(p);
		return NULL;
	}
	return p;
}

void proc_discard_unstarted(struct proc *p)
{
	if (p->threads[0].t)
		thread_discard(p->threads[0].t);
	uthread_free_super_stack(&p->threads[0]);
	if (p->as)
		vm_destroy(p->as);
	if (p->pid) {
		spin_lock(&tree_lock);
		table_remove(p);
		spin_unlock(&tree_lock);
	}
	kfree(p);
}

int proc_spawn(struct proc *parent, const char *path, int argc, char *const argv[])
{
	return proc_spawn_with(parent, path, argc, argv, NULL, NULL);
}

int proc_spawn_with(struct proc *parent, const char *path, int argc, char *const argv[],
		    int (*setup)(struct proc *p, void *arg), void *arg)
{
	return proc_spawn_mode(parent, path, argc, argv, 0, setup, arg);
}

int proc_spawn_mode(struct proc *parent, const char *path, int argc, char *const argv[],
		    unsigned mode, int (*setup)(struct proc *p, void *arg), void *arg)
{
	const void *file;
	uint64_t size;
	if ((mode & PROC_SUPERVISOR) && !ARCH_HAS_SUPERVISOR_PROCS)
		return -ENOSYS;
	if (initrd_find(path, &file, &size) < 0)
		return -ENOENT;
	struct proc *p = proc_alloc(path, parent);
	if (!p)
		return -ENOMEM;
	int err = table_insert(p);
	if (!err)
		err = proc_build(p, file, size, argc, argv, mode);
	if (!err && setup)
		err = setup(p, arg);
	if (err) {
		proc_discard_unstarted(p);      /* also the main thread, when setup failed after it was made */
		return err;
	}
	spin_lock(&tree_lock);
	list_push_back(&p->parent->children, &p->sibling);
	spin_unlock(&tree_lock);
	spin_lock(&p->join_wq.lock);
	p->threads[0].t->killed = p->exiting;   /* killed while being built */
	spin_unlock(&p->join_wq.lock);
	int pid = p->pid;
	thread_start(p->threads[0].t);
	return pid;
}
