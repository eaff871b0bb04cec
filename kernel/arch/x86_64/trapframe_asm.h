/*
 * trapframe_asm.h — the register half of struct trapframe, for assembly.
 *
 * PUSH_GPRS saves the general registers in the order trapframe.h lists
 * them (backwards, as the stack grows down); POP_GPRS undoes it.  Used by
 * the interrupt entry (vectors.S) and the syscall entry (syscall_entry.S),
 * so both build the same frame.
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

#endif
