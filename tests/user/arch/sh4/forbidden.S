! tests/user/arch/sh4/forbidden.S — instructions an SH-4 program may not
! run, for the tests that check the kernel kills it (and only it) for
! trying: privileged ones (masking interrupts, sleeping, loading VBR),
! the FPU (SR.FD is set for user mode), a trap the kernel does not serve,
! an undefined instruction (H'0000; the F-prefixed undefined codes raise
! the FPU's exception first).  SH-4 has no single-step flag: do_tf_syscall
! is a plain system call followed by an undefined one.
	.text
	.globl do_cli, do_hlt, do_x87, do_sse, do_wrmsr, do_int3, do_ud2, do_tf_syscall
	.balign 2
do_cli:	stc	sr, r0
	or	#0xf0, r0
	ldc	r0, sr
	rts
	nop
do_hlt:	sleep
	rts
	nop
do_x87:	fldi1	fr0
	rts
	nop
do_sse:	fmov	fr0, fr1
	rts
	nop
do_wrmsr:
	mov	#0, r0
	ldc	r0, vbr
	rts
	nop
do_int3:
	trapa	#1
	rts
	nop
do_ud2:	.short	0x0000
	rts
	nop
do_tf_syscall:
	mov	#0, r3                   ! sys_null
	trapa	#0
	.short	0x0000
	rts
	nop
	.section .note.GNU-stack,"",@progbits
