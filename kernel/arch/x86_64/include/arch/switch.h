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
 *     thread and resume next where it parked;
 *   arch_switch_to_user(&prev->saved_rsp, next, result, release, value):
 *     park it and resume next, asleep in a words call, straight into its
 *     return to user mode (sched_direct.h's sched_switch_direct_user);
 *     arch_thread_words(next) is where its words go first.
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
#include <arch/trapframe.h>
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

/* t's system-call frame (t sleeps in a system call: its frame is at the
 * top of its kernel stack): the words of a words call (hako_ispc.h), in
 * the registers the return restores them to. */
static inline uint64_t *arch_thread_words(struct thread *t)
{
	struct trapframe *tf = (struct trapframe *)(t->kstack + KSTACK_SIZE - sizeof *tf);
	return tf->words;
}

/*
 * Park the running thread as arch_switch does, then store `value` into
 * *release (a lock's ticket, given back once this thread's registers are
 * saved) and leave for next's user mode as next's own return from its
 * words call would, with `result` in rax: next's rbx and r12-r15 from its
 * system-call frame, where the words calls' entry stored them, then the
 * checks and the way out of every call (syscall_entry.S,
 * syscall_return_checks).  next's kernel frames above that frame are
 * dropped.  Interrupts are off and stay off; the running thread resumes
 * below, by an arch_switch into it, as after arch_switch.
 */
static inline void arch_switch_to_user(uint64_t *save_rsp, struct thread *next, long result,
				       volatile uint32_t *release, uint32_t value)
	__attribute__((always_inline));
static inline void arch_switch_to_user(uint64_t *save_rsp, struct thread *next, long result,
				       volatile uint32_t *release, uint32_t value)
{
	uint64_t frame = next->kstack + KSTACK_SIZE - sizeof(struct trapframe);
	register volatile uint32_t *rel __asm__("r8") = release;
	__asm__ volatile("leaq 1f(%%rip), %%rax\n\t"
			 "pushq %%rax\n\t"           /* where this thread resumes */
			 "pushq %%rbp\n\t"
			 "movq %%rsp, (%%rdi)\n\t"
			 "movl %%ecx, (%%r8)\n\t"    /* the lock given back */
			 "movq %%rsi, %%rsp\n\t"
			 "movq %%rdx, %%rax\n\t"
			 "movq %c[rbx](%%rsp), %%rbx\n\t"
			 "movq %c[r12](%%rsp), %%r12\n\t"
			 "movq %c[r13](%%rsp), %%r13\n\t"
			 "movq %c[r14](%%rsp), %%r14\n\t"
			 "movq %c[r15](%%rsp), %%r15\n\t"
			 "jmp syscall_return_checks\n"
			 "1:"
			 : "+D"(save_rsp), "+S"(frame), "+d"(result), "+c"(value), "+r"(rel)
			 : [rbx] "i"(__builtin_offsetof(struct trapframe, rbx)),
			   [r12] "i"(__builtin_offsetof(struct trapframe, r12)),
			   [r13] "i"(__builtin_offsetof(struct trapframe, r13)),
			   [r14] "i"(__builtin_offsetof(struct trapframe, r14)),
			   [r15] "i"(__builtin_offsetof(struct trapframe, r15))
			 : "rax", "rbx", "r9", "r10", "r11", "r12", "r13", "r14", "r15", "memory", "cc");
}

#endif
