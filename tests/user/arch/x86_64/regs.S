# selftest/arch/x86_64/regs.S — a system call seen from the registers the
# C ABI keeps (rbx, rbp, r12..r15), for syscall_keeps_callee_saved_registers
# and ispc_call_keeps_callee_saved_registers.
#
# long regs_kept_across_syscall(long nr, const long a[4], long out[7]): each
# of those holds a known value across `syscall` number nr with arguments
# a[0..3]; 0 if all came back, else a bit for each that did not (rbx 1,
# rbp 2, r12 4, r13 8, r14 16, r15 32).  out (NULL: not stored) gets the
# call's result (rax) and the six registers a words call leaves its words
# in (rdx, rsi, rdi, r8, r9, r10).
	# eax |= bit unless reg holds value (rcx: scratch)
	.macro CHECK_KEPT reg, value, bit
	movabsq $\value, %rcx
	cmpq %rcx, \reg
	je 1f
	orl $\bit, %eax
1:
	.endm

	.text
	.globl regs_kept_across_syscall
regs_kept_across_syscall:
	pushq %rbx
	pushq %rbp
	pushq %r12
	pushq %r13
	pushq %r14
	pushq %r15
	pushq %rdx                       /* out */
	movq %rdi, %rax
	movq 24(%rsi), %r10
	movq 16(%rsi), %rdx
	movq (%rsi), %rdi
	movq 8(%rsi), %rsi
	movabsq $0x1111111111111111, %rbx
	movabsq $0x2222222222222222, %rbp
	movabsq $0x3333333333333333, %r12
	movabsq $0x4444444444444444, %r13
	movabsq $0x5555555555555555, %r14
	movabsq $0x6666666666666666, %r15
	syscall
	popq %rcx                        /* out */
	testq %rcx, %rcx
	jz 2f
	movq %rax, (%rcx)
	movq %rdx, 8(%rcx)
	movq %rsi, 16(%rcx)
	movq %rdi, 24(%rcx)
	movq %r8, 32(%rcx)
	movq %r9, 40(%rcx)
	movq %r10, 48(%rcx)
2:	xorl %eax, %eax
	CHECK_KEPT %rbx, 0x1111111111111111, 1
	CHECK_KEPT %rbp, 0x2222222222222222, 2
	CHECK_KEPT %r12, 0x3333333333333333, 4
	CHECK_KEPT %r13, 0x4444444444444444, 8
	CHECK_KEPT %r14, 0x5555555555555555, 16
	CHECK_KEPT %r15, 0x6666666666666666, 32
	popq %r15
	popq %r14
	popq %r13
	popq %r12
	popq %rbp
	popq %rbx
	ret
	.section .note.GNU-stack,"",@progbits
