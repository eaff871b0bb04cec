/*
 * trapframe_asm.h — the register half of struct trapframe, for assembly.
 *
 * PUSH_GPRS saves the general registers in the order trapframe.h lists
 * them (backwards, as the stack grows down); POP_GPRS undoes it.  Used by
 * the interrupt entry (vectors.S) and the syscall entries (syscall_entry.S,
 * super_entry.S), so all build the same frame.
 */
#ifndef HAKO_ARCH_TRAPFRAME_ASM_H
#define HAKO_ARCH_TRAPFRAME_ASM_H

	.macro PUSH_GPRS
	pushq %rax
	pushq %rbx
	pushq %rcx
	pushq %rdx
	pushq %rsi
	pushq %rdi
	pushq %rbp
	pushq %r8
	pushq %r9
	pushq %r10
	pushq %r11
	pushq %r12
	pushq %r13
	pushq %r14
	pushq %r15
	.endm

	.macro POP_GPRS
	popq %r15
	popq %r14
	popq %r13
	popq %r12
	popq %r11
	popq %r10
	popq %r9
	popq %r8
	popq %rbp
	popq %rdi
	popq %rsi
	popq %rdx
	popq %rcx
	popq %rbx
	popq %rax
	.endm

	/*
	 * With a system call's struct trapframe just built on the kernel
	 * stack: a frame-pointer link for backtraces (the caller's rip),
	 * syscall_dispatch(tf) with interrupts on, then interrupts off and
	 * the link gone, rsp at the frame again.  syscall_entry.S and
	 * super_entry.S share it.
	 */
	.macro CALL_SYSCALL_DISPATCH
	movq %rsp, %rdi
	pushq 17*8(%rsp)                 /* frame link for backtraces: the caller's rip */
	pushq %rbp
	movq %rsp, %rbp
	sti
	call syscall_dispatch
	cli
	addq $16, %rsp
	.endm

#endif
