! selftest/arch/sh4/regs.S — a system call seen from the registers the C
! ABI keeps (r8..r14), for syscall_keeps_callee_saved_registers.
!
! long regs_kept_across_syscall(long nr, const long a[4], long out[7]):
! each of those holds a known value across `trapa #0` with number nr (r3)
! and arguments a[0..3] (r4..r7); 0 if all came back, else a bit for each
! that did not (r8 1, r9 2, r10 4, r11 8, r12 16, r13 32, r14 64).  out
! (NULL: not stored) gets the call's result (r0) in out[0]; SH-4 has no
! words calls, so out[1..6] are left as they are.
	! r0 |= bit unless reg holds value (r1: scratch)
	.macro CHECK_KEPT reg, value, bit
	mov	#\value, r1
	cmp/eq	r1, \reg
	bt	1f
	or	#\bit, r0
1:
	.endm

	.text
	.globl regs_kept_across_syscall
	.type regs_kept_across_syscall, @function
	.balign 2
regs_kept_across_syscall:
	mov.l	r8, @-r15
	mov.l	r9, @-r15
	mov.l	r10, @-r15
	mov.l	r11, @-r15
	mov.l	r12, @-r15
	mov.l	r13, @-r15
	mov.l	r14, @-r15
	mov.l	r6, @-r15		! out
	mov	r4, r3
	mov.l	@(12,r5), r7
	mov.l	@(8,r5), r6
	mov.l	@r5, r4
	mov.l	@(4,r5), r5
	mov	#81, r8
	mov	#82, r9
	mov	#83, r10
	mov	#84, r11
	mov	#85, r12
	mov	#86, r13
	mov	#87, r14
	trapa	#0
	mov.l	@r15+, r1		! out
	tst	r1, r1
	bt	2f
	mov.l	r0, @r1
2:	mov	#0, r0
	CHECK_KEPT r8, 81, 1
	CHECK_KEPT r9, 82, 2
	CHECK_KEPT r10, 83, 4
	CHECK_KEPT r11, 84, 8
	CHECK_KEPT r12, 85, 16
	CHECK_KEPT r13, 86, 32
	CHECK_KEPT r14, 87, 64
	mov.l	@r15+, r14
	mov.l	@r15+, r13
	mov.l	@r15+, r12
	mov.l	@r15+, r11
	mov.l	@r15+, r10
	mov.l	@r15+, r9
	rts
	mov.l	@r15+, r8
	.size regs_kept_across_syscall, . - regs_kept_across_syscall
	.section .note.GNU-stack,"",@progbits
