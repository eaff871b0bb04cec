/*
 * user/lib/arch/sh4/thread_entry.S — where every new SH-4 thread begins.
 *
 * thread_start() asks the kernel to run __thread_entry with r4 = a
 * struct thread_boot pointer.  Align the stack to 8, clear the frame
 * pointer so backtraces end here, call __thread_main (it never returns).
 */
	.text
	.globl __thread_entry
	.type __thread_entry, @function
__thread_entry:
	mov	#0, r14
	mov	#-8, r0
	and	r0, r15
	mov.l	1f, r0
	jsr	@r0
	nop
	.short	0xfffd
	.balign 4
1:	.long	__thread_main
	.size __thread_entry, . - __thread_entry

	.section .note.GNU-stack, "", @progbits
