/*
 * super_arch.c — the x86_64 side of a supervisor-mode process (paper
 * 003's placement of a driver: a process in ring 0, in an address space
 * of its own, entered by an address-space switch without a privilege
 * change).  The generic side is kernel/drvproc/drvproc_super.c.
 *
 * Decisions:
 *  - Pages.  Every page of the process is a supervisor page (U=0; vm_map
 *    drops VM_USER in an address space marked supervisor), so SMEP lets
 *    ring 0 run its code and SMAP lets it touch its data without stac.
 *    The kernel reaches them as it reaches a program's (arch_copy_user:
 *    SMAP does not apply to U=0 pages).
 *  - Stack.  Interrupts and exceptions taken in ring 0 push on the
 *    current stack (no TSS stack switch without an IST), and the stack
 *    must stay valid across a CR3 load (an interrupt in the process may
 *    preempt it).  So each thread runs on a stack in the shared kernel
 *    half: a second stack from the kernel-stack window (kstack_alloc,
 *    KSTACK_SIZE with an unmapped guard page under it), mapped in every
 *    address space.  The thread's own kernel stack stays for system
 *    calls (super_syscall_entry moves to it as a ring-3 entry does), so a
 *    call never runs on top of the process's frames.  An interrupt in the
 *    process runs its handler on the process's stack, as one taken in a
 *    kernel thread runs on that thread's; this is why driver programs
 *    are built with -mno-red-zone (ARCH_DRVHOST_CFLAGS).  The process
 *    passes buffers on that stack to system calls as any program does:
 *    the kernel's pointer check takes the running thread's own stack as
 *    its memory when the user half says no (user_range_ok, proc_own_stack).
 *  - Entry.  The thread starts with an iretq to ring 0 (rsp: the top of
 *    that stack, rdi/rsi: argc/argv as in ring 3), with a code selector
 *    of its own, SEL_SCODE (DPL 0 like the kernel's): an interrupted
 *    frame then shows whose code ran with one test (tf_from_user).  GS holds the
 *    kernel's per-CPU base throughout: nothing swaps it (trap_common and
 *    trap_return swap only for CS RPL 3).
 *  - Kernel calls.  The unchanged `syscall` instruction: from ring 0 it
 *    loads the kernel CS again and jumps to LSTAR.  While a supervisor
 *    thread runs, this CPU's LSTAR holds super_syscall_entry (no swapgs,
 *    SEL_SCODE and the kernel SS in the frame, return by iretq): the thread's I/O grant
 *    says ring0 and arch_io_bitmap_load, on the switch, loads the entry
 *    (and loads syscall_entry back on the switch to any other thread).
 *    Programs' system calls keep their path instruction for instruction;
 *    the cost is one wrmsr on a switch into or out of a supervisor thread.
 *  - Faults and kills.  trap() treats a frame as the process's when its
 *    code selector is a process's (tf_from_user): ring 3's, or SEL_SCODE.  So
 *    a page fault in the process is served or kills it, any other
 *    exception kills it, and a kill is noticed on the way back from an
 *    interrupt, exactly as for a ring-3 process.  A wild stack pointer
 *    (the page fault finds no stack to push on) becomes a double fault,
 *    taken on the CPU's double-fault stack; its frame is the process's
 *    too, so the process is killed from there (its thread never returns
 *    to that stack).  What ring 0 cannot be protected from: a wild write
 *    or jump into the kernel half (mapped in every address space),
 *    cli/hlt/wrmsr, ports outside the grant (the I/O bitmap binds ring 3
 *    only), and a second double fault on the same CPU before the first
 *    killed thread has switched away.
 */
#include <stdint.h>
#include <cpu.h>
#include "arch_cpu.h"
#include <arch/trapframe.h>
#include "x86.h"

void arch_enter_user(struct trapframe *tf) __attribute__((noreturn));

/* Start the running thread in ring 0 at rip with the stack rsp (in the
 * kernel half), rdi/rsi = a0/a1; its frame is built where a ring-3
 * thread's is, at the top of its kernel stack. */
void arch_super_start(uint64_t rip, uint64_t rsp, uint64_t a0, uint64_t a1)
{
	struct trapframe *tf = (struct trapframe *)(this_cpu()->head.syscall_kstack - sizeof *tf);
	*tf = (struct trapframe){
		.rip = rip, .cs = SEL_SCODE, .rflags = RFLAGS_IF, .rsp = rsp, .ss = SEL_KDATA,
		.rdi = a0, .rsi = a1,
	};
	arch_enter_user(tf);
}
