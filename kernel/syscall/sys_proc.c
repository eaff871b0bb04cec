/*
 * sys_proc.c — the system calls about processes, threads and memory.
 *
 * Each one checks its arguments (pointers through uaccess, numbers
 * against their range) and hands the work to proc.c / proc_mem.c.
 */
#include <stdint.h>
#include <string.h>
#include <cpu.h>
#include <errno.h>
#include <syscall.h>
#include <heap.h>
#include <priv.h>
#include <proc.h>
#include <sched.h>
#include <smp.h>
#include <thread.h>
#include <uaccess.h>

_Static_assert(PROC_PRIO == HAKO_PRIO_DEFAULT, "programs start at the default priority");

/* argv from user space: at most HAKO_ARGV_MAX strings, HAKO_ARG_BYTES in all. */
struct uargs {
	int argc;
	char *argv[HAKO_ARGV_MAX + 1];
	char bytes[HAKO_ARG_BYTES];
};

static long copy_argv(struct uargs *a, uint64_t uargv)
{
	uint64_t used = 0;
	a->argc = 0;
	for (;;) {
		uintptr_t uptr;                  /* a user pointer is as wide as the kernel's */
		if (copy_from_user(&uptr, uargv + (uint64_t)a->argc * sizeof uptr, sizeof uptr) < 0)
			return -EFAULT;
		if (!uptr)
			break;
		if (a->argc == HAKO_ARGV_MAX)
			return -E2BIG;
		long len = copy_str_from_user(a->bytes + used, uptr, sizeof a->bytes - used);
		if (len < 0)
			return len;
		a->argv[a->argc++] = a->bytes + used;
		used += (uint64_t)len + 1;
	}
	a->argv[a->argc] = NULL;
	return 0;
}

/* proc_spawn_with's setup for spawn_priv: the child keeps only these bits. */
static int keep_privs(struct proc *p, void *keep)
{
	p->priv &= *(uint32_t *)keep;
	return 0;
}

static long spawn(uint64_t upath, uint64_t uargv, uint32_t keep)
{
	char path[HAKO_PATH_MAX];
	long err = copy_str_from_user(path, upath, sizeof path);
	if (err == -E2BIG)
		return -ENOENT;              /* no program has a name that long */
	if (err < 0)
		return err;
	struct uargs *a = kmalloc(sizeof *a);
	if (!a)
		return -ENOMEM;
	if (uargv)
		err = copy_argv(a, uargv);
	else {                           /* no argv: the name alone */
		err = 0;
		a->argc = 1;
		a->argv[0] = path;
		a->argv[1] = NULL;
	}
	if (!err)
		err = proc_spawn_with(proc_current(), path, a->argc, a->argv, keep_privs, &keep);
	kfree(a);
	return err;
}

long sys_spawn(uint64_t upath, uint64_t uargv)
{
	return spawn(upath, uargv, HAKO_PRIV_ALL);
}

/* The child holds the caller's privileges ANDed with keep: never more. */
long sys_spawn_priv(uint64_t upath, uint64_t uargv, uint64_t keep)
{
	if (keep & ~(uint64_t)HAKO_PRIV_ALL)
		return -EINVAL;
	return spawn(upath, uargv, (uint32_t)keep);
}

long sys_priv_get(void)
{
	return priv_of(proc_current());
}

long sys_priv_drop(uint64_t mask)
{
	return priv_drop(proc_current(), mask);
}

long sys_wait(uint64_t upid, uint64_t ustatus)
{
	int status = 0, pid = (int)upid;      /* an int parameter: the upper half is not ours */
	if (pid < -1 || pid == 0)
		return -EINVAL;
	if (ustatus && !user_range_ok(ustatus, sizeof status))
		return -EFAULT;
	int r = proc_wait(proc_current(), pid, &status);
	if (r > 0 && ustatus && copy_to_user(ustatus, &status, sizeof status) < 0)
		return -EFAULT;              /* the child is collected all the same */
	return r;
}

long sys_kill(uint64_t upid)
{
	int pid = (int)upid;
	if (pid <= 0)
		return -ESRCH;
	return proc_kill(proc_current(), pid);
}

long sys_exit(uint64_t code)
{
	proc_exit((int)(code & 0xff));
}

long sys_getpid(void)
{
	return proc_current()->pid;
}

long sys_gettid(void)
{
	return thread_current()->tid;
}

long sys_brk(uint64_t end)
{
	return proc_brk(proc_current(), end);
}

long sys_thread_create(uint64_t entry, uint64_t arg)
{
	if (entry == 0 || entry >= USER_TOP)
		return -EINVAL;
	return proc_thread_create(entry, arg);
}

long sys_thread_exit(uint64_t code)
{
	proc_thread_exit((int)code);
}

long sys_thread_join(uint64_t tid)
{
	if ((int)tid <= 0)
		return -ESRCH;
	return proc_thread_join((int)tid);
}

/*
 * Apply fn to a live thread of the calling process (tid 0: the caller).
 * Another thread is handled under the slot lock, which keeps its struct
 * alive; fn must then not sleep (for t != current neither call does).
 */
long on_own_thread(uint64_t utid, long (*fn)(struct thread *, uint64_t), uint64_t arg)
{
	struct thread *me = thread_current();
	int tid = (int)utid;
	if (tid == 0 || tid == me->tid)
		return fn(me, arg);
	struct proc *p = proc_current();
	long r = -ESRCH;
	spin_lock(&p->join_wq.lock);
	for (int i = 0; i < HAKO_MAX_THREADS; i++)
		if (p->threads[i].state == UT_LIVE && p->threads[i].t &&
		    p->threads[i].tid == tid)
			r = fn(p->threads[i].t, arg);
	spin_unlock(&p->join_wq.lock);
	return r;
}

/* A periodic thread's CPU and priority are isoch.c's (-EBUSY). */
static long set_affinity(struct thread *t, uint64_t mask)
{
	return t->isoch ? -EBUSY : sched_set_affinity(t, mask);
}

static long set_prio(struct thread *t, uint64_t prio)
{
	if (t->isoch)
		return -EBUSY;
	sched_set_priority(t, (int)prio);
	return 0;
}

long sys_set_affinity(uint64_t tid, uint64_t mask)
{
	if (!(mask & sched_cpu_mask()))
		return -EINVAL;
	return on_own_thread(tid, set_affinity, mask);
}

long sys_migrate(uint64_t cpu)
{
	if ((uint32_t)cpu >= (uint32_t)ncpus)
		return -EINVAL;
	return sched_migrate((int)(uint32_t)cpu);
}

long sys_setprio(uint64_t tid, uint64_t prio)
{
	if ((int)prio < 1 || (int)prio > PROC_PRIO_MAX)
		return -EINVAL;
	if ((int)prio > PROC_PRIO && priv_check(HAKO_PRIV_SCHED) < 0)
		return -EPERM;                   /* above the default: ahead of other programs */
	return on_own_thread(tid, set_prio, (uint64_t)(int)prio);
}

long sys_progname(uint64_t index, uint64_t ubuf, uint64_t len)
{
	const char *name;
	if (initrd_name((int)index, &name) < 0)
		return -ENOENT;
	uint64_t n = strlen(name) + 1;
	if (len < n)
		return -ERANGE;
	long err = copy_to_user(ubuf, name, n);
	return err < 0 ? err : (long)(n - 1);
}
