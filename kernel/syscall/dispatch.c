/*
 * dispatch.c — every system call enters the kernel here: one table,
 * generated from kernel/uapi/syscalls.def (tools/build/gensyscalls.py),
 * indexed by the call's number.  A number outside the table or in a hole
 * of it gives -ENOSYS.  Results are >= 0 on success, -errno on failure.
 * The handlers are in the sys_*.c files of this folder.  With
 * irqtrace=on the thread's context becomes the call's number, so its
 * preemption-off sections are charged to it (preempt_trace.c).
 *
 * On the way out a reschedule the call asked for is honoured at once: a
 * call that woke a thread of higher priority on this CPU (sem_post, a
 * reply, a release) switches to it here, not at the next interrupt,
 * which may be a whole tick later.
 *
 * An arch may dispatch the common call itself (x86_64: syscall_entry.S,
 * the table walked in assembly with the arguments still in their
 * registers): it sends here only what it does not handle (irqtrace=on),
 * and calls syscall_exit_work when a reschedule or a kill is pending.
 */
#include <stdint.h>
#include <cpu.h>
#include <errno.h>
#include <proc.h>
#include <sched.h>
#include <preempt_trace.h>
#include <spinlock.h>
#include <syscall.h>
#include <arch/syscall.h>
#include <hako_perf.h>

/* A reschedule the call asked for, then a kill: the thread leaves. */
static inline void exit_work(void)
{
	if (this_cpu()->need_resched)
		sched_preempt_if_needed();
	proc_return_to_user();
}

void syscall_exit_work(void) { exit_work(); }

void syscall_dispatch(struct trapframe *tf)
{
	uint64_t nr = arch_syscall_nr(tf);
	int64_t r = -ENOSYS;
	if (irq_trace)
		preempt_trace_set_ctx(nr < HAKO_PERF_MAX_CALLS ? HAKO_PERF_CTX_CALL(nr) : HAKO_PERF_CTX_TRAP);
	bool words = nr >= SYSCALL_FIRST_WORDS && nr < syscall_count;
	if (words)
		arch_irq_disable();          /* as the words calls always run (ipc/ispc_call.c) */
	if (nr < syscall_count)
		r = syscall_table[nr].fn(arch_syscall_arg(tf, 0), arch_syscall_arg(tf, 1),
					 arch_syscall_arg(tf, 2), arch_syscall_arg(tf, 3),
					 arch_syscall_arg(tf, 4), arch_syscall_arg(tf, 5));
	if (words)
		arch_irq_enable();           /* the exit work runs as after every other call */
	arch_syscall_set_result(tf, r);
	exit_work();
}

long sys_nosys(void) { return -ENOSYS; }
