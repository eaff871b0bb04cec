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
	PUSH_GPRS_TO_R11
	pushq %r12
	pushq %r13
	pushq %r14
	pushq %r15
	.endm

	/* PUSH_GPRS's first eleven, r10 to r11. */
	.macro PUSH_GPRS_TO_R11
	pushq %r10
	pushq %r9
	pushq %r8
	pushq %rdi
	pushq %rsi
	pushq %rdx
	pushq %rax
	pushq %rcx
	pushq %rbx
	pushq %rbp
	pushq %r11
	.endm

	/*
	 * PUSH_GPRS for syscall_entry: the same frame, but r12..r15 get
	 * their slots only.  The handler's C code keeps them (callee-saved),
	 * so the sysret way out has them as they came; syscall_entry writes
	 * the slots for the calls whose frame may be read (the words calls,
	 * those it sends to syscall_dispatch) and before it leaves the iretq
	 * way.
	 */
	.macro PUSH_SYSCALL_GPRS
	PUSH_GPRS_TO_R11
	subq $32, %rsp                   /* r12, r13, r14, r15 */
	.endm

	.macro POP_GPRS
	popq %r15
	popq %r14
	popq %r13
	popq %r12
	popq %r11
	popq %rbp
	popq %rbx
	popq %rcx
	popq %rax
	POP_GPRS_FROM_RDX
	.endm

	/* rdx to r10 (syscall_entry's sysret way, the result in rax already). */
	.macro POP_GPRS_FROM_RDX
	popq %rdx
	popq %rsi
	popq %rdi
	popq %r8
	popq %r9
	popq %r10
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
	CALL_LINKED syscall_dispatch
	.endm

	/* Call fn with interrupts on, under the frame-pointer link below. */
	.macro CALL_LINKED fn
	SYSCALL_FRAME_LINK
	sti
	call \fn
	cli
	addq $16, %rsp
	.endm

	/* The frame-pointer link above alone (two words; addq $16 drops it). */
	.macro SYSCALL_FRAME_LINK
	pushq 17*8(%rsp)                 /* the caller's rip */
	pushq %rbp
	movq %rsp, %rbp
	.endm

#endif
