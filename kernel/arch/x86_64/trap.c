/*
 * trap.c — where every interrupt and exception lands (from vectors.S).
 *
 * Exceptions in the kernel are bugs: print the registers and a symbolized
 * backtrace and power off with a failing status.  Exceptions in user mode
 * go to the process layer (user_arch.c: serve a page or kill only that
 * process).  Vectors 32 and
 * up are device interrupts and IPIs: the generic interrupt layer runs the
 * handler, the LAPIC gets its EOI (unless the handler sent it, as
 * packaged devices do), a batch of packaged interrupts that a timer asked
 * for runs, and the scheduler may preempt.
 */
#include <stdint.h>
#include <console.h>
#include <cpu.h>
#include <intr.h>
#include <intr_pack.h>
#include <kstack.h>
#include <kprintf.h>
#include <panic.h>
#include <preempt_trace.h>
#include <proc.h>
#include <region.h>
#include <sched.h>
#include <smp.h>
#include <spinlock.h>
#include <hako_perf.h>
#include "x86.h"
#include <arch/trapframe.h>
#include "lapic.h"

static const char *const exception_names[32] = {
	"#DE divide error", "#DB debug", "NMI", "#BP breakpoint", "#OF overflow",
	"#BR bound range", "#UD invalid opcode", "#NM device not available",
	"#DF double fault", "coprocessor overrun", "#TS invalid TSS",
	"#NP segment not present", "#SS stack fault", "#GP general protection",
	"#PF page fault", "reserved 15", "#MF x87 error", "#AC alignment check",
	"#MC machine check", "#XM SIMD error", "#VE virtualization",
	"#CP control protection", "reserved 22", "reserved 23", "reserved 24",
	"reserved 25", "reserved 26", "reserved 27", "#HV hypervisor injection",
	"#VC VMM communication", "#SX security", "reserved 31",
};

static void print_symbolized(const char *label, uint64_t pc)
{
	uint64_t off = 0;
	const char *name = ksym_lookup(pc, &off);
	if (name)
		kprintf("  %s %016lx <%s+0x%lx>\n", label, pc, name, off);
	else
		kprintf("  %s %016lx\n", label, pc);
}

void trapframe_dump(const struct trapframe *tf)
{
	print_symbolized("rip", tf->rip);
	kprintf("  cs  %04lx  ss %04lx  rflags %016lx  error %lx\n", tf->cs, tf->ss, tf->rflags, tf->error);
	kprintf("  rax %016lx rbx %016lx rcx %016lx rdx %016lx\n", tf->rax, tf->rbx, tf->rcx, tf->rdx);
	kprintf("  rsi %016lx rdi %016lx rbp %016lx rsp %016lx\n", tf->rsi, tf->rdi, tf->rbp, tf->rsp);
	kprintf("  r8  %016lx r9  %016lx r10 %016lx r11 %016lx\n", tf->r8, tf->r9, tf->r10, tf->r11);
	kprintf("  r12 %016lx r13 %016lx r14 %016lx r15 %016lx\n", tf->r12, tf->r13, tf->r14, tf->r15);
	kprintf("  cr0 %016lx cr2 %016lx cr3 %016lx cr4 %016lx\n", read_cr0(), read_cr2(), read_cr3(), read_cr4());
}

static void kernel_exception(struct trapframe *tf)
{
	console_panic_mode();
	smp_stop_others();
	kprintf("\nKERNEL FAULT: %s (vector %lu) on cpu %d\n",
		exception_names[tf->vector], tf->vector, cpu_id());
	if ((tf->vector == 14 || tf->vector == 8) && kstack_is_guard(read_cr2()))
		kprintf("  kernel stack overflow: cr2 is in the guard page under a thread's stack\n");
	trapframe_dump(tf);
	backtrace_print(tf->rbp);
	arch_power_off(POWER_PANIC);
}

void trap(struct trapframe *tf)
{
	if (tf->vector == 2) {               /* NMI: a panic's stop, or a snapshot */
		nmi(tf);
		return;
	}
	if (tf->vector < 32) {
		if (tf_from_user(tf) && irq_trace)
			preempt_trace_set_ctx(HAKO_PERF_CTX_TRAP);
		if (tf_from_user(tf))
			user_exception(tf);          /* returns only if the fault was served */
		else if (!(tf->vector == 14 && uaccess_fault(tf)))
			kernel_exception(tf);
	} else if (tf->vector != VECTOR_SPURIOUS) {
		struct preempt_irq pi;
		if (irq_trace)
			preempt_trace_irq_enter(&pi, (int)tf->vector);
		this_cpu()->irqs++;
		sync_irq_begin();                /* the cost model times the handler from its cause */
		if (!intr_dispatch(tf->vector))
			lapic_eoi();
		intr_pack_irq_exit();            /* a batch a timer asked for */
		sync_irq_end();
		if (irq_trace)
			preempt_trace_irq_exit(&pi);
		sched_preempt_if_needed();
	}
	if (tf_from_user(tf)) {
		proc_return_to_user();           /* a killed thread leaves here */
		cli();                           /* the exception path may have enabled them */
	}
}
