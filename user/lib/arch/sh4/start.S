/*
 * user/lib/arch/sh4/start.S — crt0: where every SH-4 user program begins.
 *
 * The kernel enters _start with r4 = argc, r5 = argv (the first two C
 * arguments already) and r15 the stack.  Clear the frame pointer (r14,
 * the end of every backtrace), align the stack to 8 and call
 * __libc_start(argc, argv), which never returns.
 */
	.section .text.start, "ax", @progbits
	.globl _start
	.type _start, @function
_start:
	mov	#0, r14
	mov	#-8, r0
	and	r0, r15
	mov.l	1f, r0
	jsr	@r0
	nop
	.short	0xfffd			/* __libc_start returned: an illegal instruction */
	.balign 4
1:	.long	__libc_start
	.size _start, . - _start

	.section .note.GNU-stack, "", @progbits
