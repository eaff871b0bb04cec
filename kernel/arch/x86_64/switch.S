/*
 * switch.S — kernel thread context switch.
 *
 * arch_switch(&old->saved_rsp, new->saved_rsp) pushes the callee-saved
 * registers, parks the stack pointer, and resumes the other thread where
 * it parked (or, for a new thread, at thread_entry_trampoline).
 */
	.text
	.globl arch_switch
arch_switch:
	pushq %rbp
	pushq %rbx
	pushq %r12
	pushq %r13
	pushq %r14
	pushq %r15
	movq %rsp, (%rdi)
	movq %rsi, %rsp
	popq %r15
	popq %r14
	popq %r13
	popq %r12
	popq %rbx
	popq %rbp
	ret

	.globl thread_entry_trampoline
thread_entry_trampoline:
	xorl %ebp, %ebp
	call thread_first_run            /* never returns */
	ud2
