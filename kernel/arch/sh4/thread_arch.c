/*
 * thread_arch.c — the SH-4 details of a thread: its first switch frame
 * and what changes on the CPU when it is switched in.
 */
#include <stdint.h>
#include <cpu.h>
#include <thread.h>
#include <vm.h>
#include <arch/layout.h>
#include <arch/trapframe.h>
#include "sh4.h"

extern char thread_entry_trampoline[];

#define SWITCH_WORDS 10                       /* macl, mach, r14-r8, pr (switch.S) */

uint64_t arch_thread_stack_init(uint64_t top)
{
	uint32_t *sp = (uint32_t *)(uint32_t)(top & ~7ull);
	*--sp = (uint32_t)thread_entry_trampoline;   /* pr */
	for (int i = 1; i < SWITCH_WORDS; i++)
		*--sp = 0;
	return (uint64_t)(void *)sp;
}

/* r14, the frame pointer, is the third word of the switch frame. */
uint64_t arch_switch_frame_pointer(uint64_t saved_sp)
{
	return (uint64_t)(int64_t)(int32_t)((const uint32_t *)(uint32_t)saved_sp)[2];
}

void arch_thread_switched_in(struct cpu *c, struct thread *t)
{
	uint64_t top = t->kstack + KSTACK_SIZE;
	sh4_kstack_top = (uint32_t)top;          /* the stack for entries from user mode */
	c->head.kstack = top;
	vm_switch(t->as ? t->as : &kernel_as);
}
