/*
 * user/lib/arch/x86_64/start.S — crt0: where every user program begins.
 *
 * The kernel enters _start with rdi = argc, rsi = argv, rsp 16-byte
 * aligned and every other register zero.  Clear the frame pointer (the end
 * of every backtrace), keep the stack aligned for the call, and hand over
 * to __libc_start(argc, argv), which never returns.
 */
	.section .text.start, "ax", @progbits
	.globl _start
	.type _start, @function
_start:
	xorl %ebp, %ebp
	andq $-16, %rsp
	call __libc_start
	ud2			/* __libc_start returned: crash loudly */
	.size _start, . - _start

	.section .note.GNU-stack, "", @progbits
