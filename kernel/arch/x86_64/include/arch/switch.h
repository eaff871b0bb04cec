/*
 * arch/switch.h — the x86_64 steps of a thread switch, inline in the
 * scheduler's one switch (sched/sched_switch.h's switch_to), which every
 * switch, the direct ones included, goes through:
 *
 *   arch_thread_switched_in(c, t): what changes on CPU c (the running one,
 *     interrupts off) once t runs there: the kernel stack for entries from
 *     ring 3 (TSS rsp0 and the syscall entry's gs:16), a driver process's
 *     I/O ports (only when t has a grant or this CPU holds one), and t's
 *     address space (vm_switch);
 *   arch_switch(&prev->saved_rsp, next->saved_rsp): park the running
 *     thread and resume next where it parked.
 *
 * The switch frame a parked thread leaves is two words: its frame pointer
 * (rbp) on top, then the address it resumes at.  Every other register is
 * declared clobbered, so the compiler keeps nothing in one across the
 * switch; the functions that switch save the callee-saved registers they
 * use in their own prologues.  A new thread's first frame
 * (arch_thread_stack_init) resumes at thread_entry_trampoline.
 */
#ifndef HAKO_ARCH_SWITCH_H
#define HAKO_ARCH_SWITCH_H

#include <stdint.h>
#include <cpu.h>
#include <thread.h>
#include <vm.h>
#include <arch/layout.h>
#include <arch/portio.h>
#include "../../arch_cpu.h"

#define ARCH_SWITCH_FRAME_RBP 0     /* the saved frame pointer's word in the frame */

/* Always inline: its callers' switches keep their registers across it. */
static inline void arch_thread_switched_in(struct cpu *c, struct thread *t) __attribute__((always_inline));
static inline void arch_thread_switched_in(struct cpu *c, struct thread *t)
{
	struct arch_cpu *ac = c->arch;
	uint64_t top = t->kstack + KSTACK_SIZE;
	ac->tss.rsp[0] = top;            /* the stack for interrupts from ring 3 */
	c->head.syscall_kstack = top;    /* and for syscall_entry (gs:16) */
	/* A driver process's ports and system-call entry, or none: the common
	 * switch, between threads without a grant on a CPU with nothing
	 * loaded, only looks. */
	if (__builtin_expect(t->io || ac->io_loaded, 0))
		arch_io_bitmap_load(t->io);
	vm_switch_on(c, t->as ? t->as : &kernel_as);
}

static inline void arch_switch(uint64_t *save_rsp, uint64_t new_rsp)
{
	__asm__ volatile("leaq 1f(%%rip), %%rax\n\t"
			 "pushq %%rax\n\t"           /* where this thread resumes */
			 "pushq %%rbp\n\t"
			 "movq %%rsp, (%%rdi)\n\t"
			 "movq %%rsi, %%rsp\n\t"
			 "popq %%rbp\n\t"
			 "ret\n"                      /* into the other thread's frame */
			 "1:"
			 : "+D"(save_rsp), "+S"(new_rsp)
			 :
			 : "rax", "rbx", "rcx", "rdx", "r8", "r9", "r10", "r11", "r12", "r13",
			   "r14", "r15", "memory", "cc");
}

#endif
