/*
 * switch.S — where a new kernel thread starts: arch_switch (arch/switch.h)
 * resumes it here the first time, from the frame arch_thread_stack_init
 * built (thread_arch.c).
 */
	.text

	.globl thread_entry_trampoline
thread_entry_trampoline:
	xorl %ebp, %ebp
	call thread_first_run            /* never returns */
	ud2
