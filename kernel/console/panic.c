/*
 * panic.c — the kernel's last words: message, backtrace with symbols,
 * other CPUs stopped, power off with POWER_PANIC.
 *
 * Symbols come from .ksyms, a sorted table of text symbols that the
 * second link pass fills in (tools/build/mksyms.py).
 */
#include <stdarg.h>
#include <stdint.h>
#include <console.h>
#include <kprintf.h>
#include <panic.h>
#include <smp.h>
#include <cpu.h>
#include <arch/arch.h>

struct ksym {
	uint64_t addr;
	uint32_t name;          /* offset into ksym_names */
	uint32_t pad;
};

/* Provided by the generated build/ksyms.S (empty in the first link). */
extern const uint64_t ksym_count;
extern const struct ksym ksym_table[];
extern const char ksym_names[];

static volatile int panic_count;

const char *ksym_lookup(uint64_t pc, uint64_t *offset)
{
	uint64_t lo = 0, hi = ksym_count;
	if (hi == 0 || pc < ksym_table[0].addr)
		return NULL;
	while (hi - lo > 1) {          /* last symbol with addr <= pc */
		uint64_t mid = (lo + hi) / 2;
		if (ksym_table[mid].addr <= pc)
			lo = mid;
		else
			hi = mid;
	}
	*offset = pc - ksym_table[lo].addr;
	return ksym_names + ksym_table[lo].name;
}

static void print_frame(uint64_t pc)
{
	uint64_t off = 0;
	const char *name = ksym_lookup(pc, &off);
	if (name)
		kprintf("  %016lx %s+0x%lx\n", pc, name, off);
	else
		kprintf("  %016lx ?\n", pc);
}

void backtrace_print(uint64_t rbp)
{
	kprintf("backtrace:\n");
	arch_backtrace(rbp, print_frame);
}

void panic(const char *fmt, ...)
{
	arch_irq_disable();
	if (__atomic_fetch_add(&panic_count, 1, __ATOMIC_SEQ_CST) > 0)
		arch_halt_forever();          /* another CPU is already dying */
	console_panic_mode();
	smp_stop_others();
	va_list ap;
	va_start(ap, fmt);
	kprintf("\nPANIC on cpu %d: ", this_cpu() ? cpu_id() : -1);
	kvprintf(fmt, ap);
	va_end(ap);
	kprintf("\n");
	backtrace_print(arch_frame_pointer());
	arch_power_off(POWER_PANIC);
}
