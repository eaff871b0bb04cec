/*
 * trap.c — where every SH-4 exception and interrupt lands (vectors.S).
 *
 * tf->event is EXPEVT for an exception, INTEVT for an interrupt
 * (interrupt codes are 0x200 and up, exceptions below 0x200 except the
 * trapa code 0x160).  An exception in the kernel is a bug unless it is a
 * fault inside a user copy: print the registers and power off.  One in
 * user mode goes to the process layer (user_arch.c).  A trapa is a system
 * call.  An interrupt goes to its source: TMU channel 0 (the timer, as
 * VECTOR_TIMER through the generic interrupt layer), TMU channel 2 (the
 * vectors the kernel raised itself, softirq.c) or the SCIF; then the
 * scheduler may preempt.
 */
#include <stdint.h>
#include <console.h>
#include <cpu.h>
#include <intr.h>
#include <intr_pack.h>
#include <kstack.h>
#include <kprintf.h>
#include <panic.h>
#include <proc.h>
#include <sched.h>
#include <syscall.h>
#include <arch/arch.h>
#include <arch/trapframe.h>
#include "sh4.h"

static uint64_t sext(uint32_t a) { return (uint64_t)(int64_t)(int32_t)a; }

static const char *event_name(uint32_t event)
{
	switch (event) {
	case EXPEVT_TLB_MISS_R: return "TLB miss (read)";
	case EXPEVT_TLB_MISS_W: return "TLB miss (write)";
	case EXPEVT_INITIAL_W: return "initial page write";
	case EXPEVT_TLB_PROT_R: return "TLB protection violation (read)";
	case EXPEVT_TLB_PROT_W: return "TLB protection violation (write)";
	case EXPEVT_ADDR_ERR_R: return "address error (read)";
	case EXPEVT_ADDR_ERR_W: return "address error (write)";
	case EXPEVT_ILLEGAL: return "illegal instruction";
	case EXPEVT_SLOT_ILLEGAL: return "illegal slot instruction";
	case 0x800: return "FPU disabled";
	case 0x820: return "slot FPU disabled";
	default: return "exception";
	}
}

static void trapframe_dump(const struct trapframe *tf)
{
	uint64_t off = 0;
	const char *name = ksym_lookup(sext(tf->spc), &off);
	kprintf("  pc  %08x <%s+0x%lx>  pr %08x  sr %08x  tea %08x\n", tf->spc,
		name ? name : "?", off, tf->pr, tf->ssr, tf->tea);
	for (int i = 0; i < 16; i += 4)
		kprintf("  r%-2d %08x %08x %08x %08x\n", i, tf->r[i], tf->r[i + 1], tf->r[i + 2], tf->r[i + 3]);
}

static void kernel_exception(struct trapframe *tf)
{
	console_panic_mode();
	kprintf("\nKERNEL FAULT: %s (EXPEVT %03x) on cpu %d\n", event_name(tf->event), tf->event, cpu_id());
	if (kstack_is_guard(sext(tf->tea)))
		kprintf("  kernel stack overflow: tea is in the guard page under a thread's stack\n");
	trapframe_dump(tf);
	arch_power_off(POWER_PANIC);
}

static bool is_page_fault(uint32_t event)
{
	return event == EXPEVT_TLB_MISS_R || event == EXPEVT_TLB_MISS_W || event == EXPEVT_INITIAL_W ||
	       event == EXPEVT_TLB_PROT_R || event == EXPEVT_TLB_PROT_W;
}

static void interrupt(uint32_t intevt)
{
	this_cpu()->irqs++;
	if (intevt == INTEVT_TUNI0) {
		sh4_timer_irq();
		sh4_deliver(VECTOR_TIMER);
	} else if (intevt == INTEVT_TUNI2) {
		sh4_softirq();
	} else if (intevt >= INTEVT_SCIF_ERI && intevt <= INTEVT_SCIF_TXI) {
		sh4_serial_irq();
	} else {
		kprintf("intr: unexpected INTEVT %03x\n", intevt);
	}
	intr_pack_irq_exit();
	sched_preempt_if_needed();
}

/*
 * A user-mode gUSA sequence (GCC's atomics for SH in user mode: r0 the
 * sequence's end, r1 the saved stack pointer, r15 minus its length) that
 * an exception or interrupt cut starts again from its beginning, so its
 * read-modify-write is atomic on this one CPU.
 */
static void gusa_rollback(struct trapframe *tf)
{
	if (tf->r[15] < 0xc0000000u)
		return;
	if (tf->spc < tf->r[0])
		tf->spc = tf->r[0] + tf->r[15];
	tf->r[15] = tf->r[1];
}

void trap(struct trapframe *tf)
{
	uint32_t event = tf->event;
	if (tf_from_user(tf))
		gusa_rollback(tf);
	if (event >= 0x200 && event != EXPEVT_TRAPA && event != 0x800 && event != 0x820) {
		interrupt(event);
	} else if (event == EXPEVT_TRAPA && tf_from_user(tf) && mmio_read32(SH4_TRA) == 0) {
		arch_irq_enable();
		syscall_dispatch(tf);
		arch_irq_disable();
	} else if (tf_from_user(tf)) {
		user_exception(tf);          /* returns only if the fault was served; trapa #N, N > 0, kills */
	} else if (!(is_page_fault(event) && uaccess_fault(tf))) {
		kernel_exception(tf);
	}
	if (tf_from_user(tf)) {
		proc_return_to_user();       /* a killed thread leaves here */
		arch_irq_disable();
	}
}
