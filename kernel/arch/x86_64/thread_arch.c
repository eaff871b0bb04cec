/*
 * thread_arch.c — the x86_64 details of a thread: its first stack frame
 * and where a parked thread's frame pointer is.  The switch itself, and
 * what changes on the CPU when a thread is switched in, are inline in
 * arch/switch.h.
 */
#include <stdint.h>
#include <arch/arch.h>
#include <arch/switch.h>

extern char thread_entry_trampoline[];

/* A zero frame pointer, then the trampoline as the address to resume at
 * (arch/switch.h's frame). */
uint64_t arch_thread_stack_init(uint64_t top)
{
	uint64_t *sp = (uint64_t *)(top & ~15ull);
	*--sp = 0;                                   /* alignment: rsp%16==8 at entry */
	*--sp = (uint64_t)thread_entry_trampoline;
	*--sp = 0;                                   /* rbp */
	return (uint64_t)sp;
}

uint64_t arch_switch_frame_pointer(uint64_t saved_rsp)
{
	return ((const uint64_t *)saved_rsp)[ARCH_SWITCH_FRAME_RBP];
}
