/*
 * switch.S — kernel thread context switch on SH-4.
 *
 * arch_switch(&old->saved_sp, new->saved_sp) pushes the registers the
 * calling convention keeps across a call (r8-r14, pr, mach, macl), parks
 * the stack pointer (sign-extended into the uint64_t, as the kernel's
 * addresses are: arch/layout.h), and resumes the other thread where it
 * parked, or, for a new thread, at thread_entry_trampoline.  The first
 * argument is in r4, the new stack pointer's low word in r5.
 * Switch frame, from the saved stack pointer up: macl, mach, r14-r8, pr.
 */
	.text
	.globl arch_switch
	.balign 4
arch_switch:
	sts.l	pr, @-r15
	mov.l	r8, @-r15
	mov.l	r9, @-r15
	mov.l	r10, @-r15
	mov.l	r11, @-r15
	mov.l	r12, @-r15
	mov.l	r13, @-r15
	mov.l	r14, @-r15
	sts.l	mach, @-r15
	sts.l	macl, @-r15
	mov.l	r15, @r4
	mov	r15, r0
	shll	r0
	subc	r0, r0                  /* the sign of r15, all 32 bits */
	mov.l	r0, @(4, r4)
	mov	r5, r15
	lds.l	@r15+, macl
	lds.l	@r15+, mach
	mov.l	@r15+, r14
	mov.l	@r15+, r13
	mov.l	@r15+, r12
	mov.l	@r15+, r11
	mov.l	@r15+, r10
	mov.l	@r15+, r9
	mov.l	@r15+, r8
	lds.l	@r15+, pr
	rts
	nop

	.globl thread_entry_trampoline
	.balign 4
thread_entry_trampoline:
	mov	#0, r14
	mov.l	.Lfirst_run, r0
	jsr	@r0
	nop
1:	bra	1b
	nop

	.balign 4
.Lfirst_run:	.long	thread_first_run
