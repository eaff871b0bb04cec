/*
 * thread_arch.c — the x86_64 details of a thread: its first stack frame
 * and what changes on the CPU when it is switched in.
 */
#include <stdint.h>
#include <cpu.h>
#include <thread.h>
#include <vm.h>
#include "arch_cpu.h"
#include <arch/layout.h>
#include <arch/portio.h>

extern char thread_entry_trampoline[];

/* Six zeroed callee-saved registers, then the trampoline as return address. */
uint64_t arch_thread_stack_init(uint64_t top)
{
	uint64_t *sp = (uint64_t *)(top & ~15ull);
	*--sp = 0;                                   /* alignment: rsp%16==8 at entry */
	*--sp = (uint64_t)thread_entry_trampoline;
	for (int i = 0; i < 6; i++)
		*--sp = 0;
	return (uint64_t)sp;
}

/* arch_switch pushed rbp first, then five more registers (switch.S). */
uint64_t arch_switch_frame_pointer(uint64_t saved_rsp)
{
	return ((const uint64_t *)saved_rsp)[5];
}

void arch_thread_switched_in(struct thread *t)
{
	struct cpu *c = this_cpu();      /* interrupts are off: the switch holds a lock */
	struct arch_cpu *ac = c->arch;
	uint64_t top = t->kstack + KSTACK_SIZE;
	ac->tss.rsp[0] = top;            /* the stack for interrupts from ring 3 */
	c->head.syscall_kstack = top;    /* and for syscall_entry (gs:16) */
	/* A driver process's ports and system-call entry, or none: the common
	 * switch, between threads without a grant on a CPU with nothing
	 * loaded, only looks (the call's prologue cost 22 instructions a switch). */
	if (t->io || ac->io_loaded)
		arch_io_bitmap_load(t->io);
	vm_switch(t->as ? t->as : &kernel_as);
}
