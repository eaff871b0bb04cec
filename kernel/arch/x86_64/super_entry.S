/*
 * super_entry.S — the system-call entry of a supervisor-mode process
 * (paper 003's placement of a driver: ring 0, its own address space; the
 * decisions are in super_arch.c).
 *
 * Such a process calls the kernel with the same `syscall` instruction as a
 * ring-3 program (the same binary runs in both placements).  From ring 0
 * the CPU does what it does from ring 3 — rip to rcx, rflags to r11, CS/SS
 * from STAR (the kernel's, so the privilege stays 0), IF, DF, TF, AC
 * cleared — and jumps to LSTAR, which holds super_syscall_entry while a
 * supervisor thread runs on this CPU (gdt.c, arch_io_bitmap_load).  GS is
 * already the kernel's (a supervisor thread never swaps it), so there is
 * no swapgs; the stack moves from the process's stack to the thread's
 * kernel stack (gs:16) like a ring-3 entry's, and the frame records the
 * process's ring-0 code selector (SEL_SCODE) and the kernel SS.  The way back is trap_return's iretq, which resumes the
 * process in ring 0 on its own stack (sysret would drop to ring 3).
 */
#include <arch/layout.h>
#include "trapframe_asm.h"
#include "arch_cpu.h"

#define VECTOR_SYSCALL 256              /* as in syscall_entry.S: a syscall frame */

	.text
	.code64
	.globl super_syscall_entry
super_syscall_entry:
	movq %rsp, %gs:8                 /* the process's stack, for a moment */
	movq %gs:16, %rsp                /* this thread's kernel stack */
	pushq $SEL_KDATA                 /* ss */
	pushq %gs:8                      /* rsp */
	pushq %r11                       /* rflags */
	pushq $SEL_SCODE                 /* cs: the supervisor process's own code selector */
	pushq %rcx                       /* rip */
	pushq $0                         /* error */
	pushq $VECTOR_SYSCALL
	PUSH_GPRS
	CALL_SYSCALL_DISPATCH
	jmp trap_return                  /* iretq to ring 0; CS RPL 0: no swapgs */
