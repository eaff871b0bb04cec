# selftest/arch/x86_64/forbidden.S — instructions a program may not run,
# for the tests that check the kernel kills it (and only it) for trying.
	.text
	.globl do_cli, do_hlt, do_x87, do_sse, do_wrmsr, do_int3, do_ud2, do_tf_syscall
do_cli:	cli
	ret
do_hlt:	hlt
	ret
do_x87:	fninit
	fld1
	ret
do_sse:	xorps %xmm0, %xmm0
	ret
do_wrmsr:
	xorl %eax, %eax
	xorl %edx, %edx
	movl $0xc0000082, %ecx
	wrmsr
	ret
do_int3:
	int3
	ret
do_ud2:	ud2
	ret
# Single-step (TF) set right before syscall: the #DB fires on the kernel's
# first instruction; the kernel must shrug it off, then the step trap in
# ring 3 after sysret ends the program.
do_tf_syscall:
	xorl %eax, %eax                  # sys_null
	pushfq
	orq $0x100, (%rsp)
	popfq
	syscall
	nop
	ret
	.section .note.GNU-stack,"",@progbits
