/*
 * user/lib/arch/x86_64/thread_entry.S — where every new thread begins.
 *
 * thread_start() asks the kernel to run __thread_entry with rdi = a
 * struct thread_boot pointer.  Whatever alignment the kernel chose for the
 * new stack, align it as the C ABI wants before the call, and clear the
 * frame pointer so backtraces end here.  __thread_main never returns.
 */
	.text
	.globl __thread_entry
	.type __thread_entry, @function
__thread_entry:
	xorl %ebp, %ebp
	andq $-16, %rsp
	call __thread_main
	ud2
	.size __thread_entry, . - __thread_entry

	.section .note.GNU-stack, "", @progbits
