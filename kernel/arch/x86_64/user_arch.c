/*
 * user_arch.c — the x86_64 side of user mode: the syscall MSRs, the first
 * entry of a thread into ring 3, and what becomes of an exception taken
 * in ring 3 or inside a user-memory copy.
 *
 * Everything that decides (which address is valid, who is killed) is in
 * the generic process layer (proc.h); this file only speaks trapframes.
 */
#include <stdint.h>
#include <cpu.h>
#include <proc.h>
#include <spinlock.h>
#include <syscall.h>
#include <thread.h>
#include <uaccess.h>
#include "arch_cpu.h"
#include <arch/trapframe.h>
#include "x86.h"

_Static_assert(__builtin_offsetof(struct cpu, current) == CPU_CURRENT, "syscall_entry.S: cpu->current");
_Static_assert(__builtin_offsetof(struct cpu, need_resched) == CPU_NEED_RESCHED,
	       "syscall_entry.S: cpu->need_resched");
_Static_assert(__builtin_offsetof(struct thread, killed) == THREAD_KILLED, "syscall_entry.S: thread->killed");
_Static_assert(sizeof(struct syscall_entry) == SYSCALL_ENTRY_SIZE &&
	       __builtin_offsetof(struct syscall_entry, fn) == 0, "syscall_entry.S: the table's rows");

#define PF_WRITE (1u << 1)
#define PF_FETCH (1u << 4)

extern char syscall_entry[], syscall_entry_traced[], uaccess_start[], uaccess_end[], uaccess_fixup[];
void arch_enter_user(struct trapframe *tf) __attribute__((noreturn));

/* The ring-3 system-call entry (syscall_entry.S): syscall_entry walks the
 * table itself; with irqtrace=on, syscall_entry_traced sends every call
 * to syscall_dispatch. */
uint64_t syscall_entry_user(void)
{
	return (uint64_t)(irq_trace ? syscall_entry_traced : syscall_entry);
}

/*
 * Per CPU: syscall enters at syscall_entry with CS/SS from STAR and IF,
 * DF, TF, AC cleared; sysret returns to SEL_UCODE/SEL_UDATA (STAR[63:48]
 * + 16 and + 8, which is why the GDT has user data before user code).
 */
void syscall_init_cpu(void)
{
	wrmsr(MSR_STAR, ((uint64_t)(SEL_UDATA - 8 - 3) << 48) | ((uint64_t)SEL_KCODE << 32));
	wrmsr(MSR_LSTAR, syscall_entry_user());
	wrmsr(MSR_SFMASK, RFLAGS_IF | RFLAGS_DF | RFLAGS_TF | RFLAGS_AC | RFLAGS_NT | RFLAGS_IOPL);
	wrmsr(MSR_EFER, rdmsr(MSR_EFER) | EFER_SCE);
	/* No FPU/SSE state is kept per thread: x87 and MMX fault (EM), SSE is
	 * off (OSFXSR clear), so a program using them is killed, not corrupted. */
	write_cr0(read_cr0() | (1u << 2));
	write_cr4(read_cr4() & ~(uint64_t)CR4_OSFXSR);
}

/* Start the running thread in ring 3 at rip with the stack rsp, rdi/rsi = a0/a1. */
void arch_user_start(uint64_t rip, uint64_t rsp, uint64_t a0, uint64_t a1)
{
	struct trapframe *tf = (struct trapframe *)(this_cpu()->head.syscall_kstack - sizeof *tf);
	*tf = (struct trapframe){
		.rip = rip, .cs = SEL_UCODE, .rflags = RFLAGS_IF, .rsp = rsp, .ss = SEL_UDATA,
		.rdi = a0, .rsi = a1,
	};
	arch_enter_user(tf);
}

static unsigned fault_access(uint64_t error)
{
	return ((error & PF_WRITE) ? FAULT_WRITE : 0) | ((error & PF_FETCH) ? FAULT_EXEC : 0);
}

static bool in_uaccess(uint64_t rip)
{
	return rip >= (uint64_t)uaccess_start && rip < (uint64_t)uaccess_end;
}

/*
 * A page fault in kernel mode: if it happened inside arch_copy_user* on a
 * user address, serve it like a user fault (demand paging) or make the
 * copy return -EFAULT.  False: a kernel bug, let trap() report it.
 */
bool uaccess_fault(struct trapframe *tf)
{
	uint64_t addr = read_cr2();
	if (!in_uaccess(tf->rip) || addr >= USER_TOP)
		return false;
	if (proc_page_fault(addr, fault_access(tf->error)) < 0)
		tf->rip = (uint64_t)uaccess_fixup;
	return true;
}

static const char *const user_exception_names[32] = {
	[0] = "divide error", [1] = "debug trap", [3] = "breakpoint", [4] = "overflow",
	[5] = "bound range", [6] = "invalid opcode", [7] = "FPU use", [8] = "double fault",
	[10] = "invalid TSS", [11] = "segment not present", [12] = "stack fault",
	[13] = "general protection", [14] = "page fault", [16] = "x87 error",
	[17] = "alignment check", [18] = "machine check", [19] = "SIMD error",
	[21] = "control protection",
};

/* An exception in ring 3: a page to fill in, or the end of the process. */
void user_exception(struct trapframe *tf)
{
	uint64_t addr = tf->vector == 14 ? read_cr2() : 0;
	if (tf->vector == 14) {
		arch_irq_enable();           /* from ring 3: this thread's own stack, nothing held */
		int err = proc_page_fault(addr, fault_access(tf->error));
		if (err == 0)
			return;
		if (err == -ENOMEM)
			proc_fault_exit(HAKO_CAUSE_OOM, "out of memory", addr, tf->rip);
	}
	const char *what = user_exception_names[tf->vector & 31];
	proc_fault_exit((int)tf->vector, what ? what : "exception", addr, tf->rip);
}
