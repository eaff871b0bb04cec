/*
 * cpu_ops.c — the arch_* hooks too big to inline (the small ones —
 * interrupt flag, TSC, per-CPU pointer, pause — are static inlines in
 * arch.h): idle, halt, the cache and TLB purge, page zeroing, stack
 * walking, power-off.
 */
#include <stdint.h>
#include "x86.h"
#include <arch/arch.h>

void arch_idle(void) { sti_hlt(); }

void arch_halt_forever(void)
{
	for (;;) {
		cli();
		hlt();
	}
}

/*
 * Paper 004's worst case: write back and invalidate every cache (WBINVD,
 * which also empties the caches shared with other CPUs) and drop every
 * TLB entry of this CPU, global ones too (toggling CR4.PGE, SDM vol. 3A
 * 4.10.4.1).  Interrupts are off so nothing refills between the two.
 */
void arch_purge_caches_and_tlb(void)
{
	uint64_t flags = arch_irq_save();
	wbinvd();
	uint64_t cr4 = read_cr4();
	if (cr4 & CR4_PGE) {
		write_cr4(cr4 & ~(uint64_t)CR4_PGE);
		write_cr4(cr4);
	} else {
		write_cr3(read_cr3());
	}
	arch_irq_restore(flags);
}

/* Zero whole pages with one string instruction (bytes: a multiple of 8). */
void arch_zero_pages(void *va, uint64_t bytes)
{
	void *d = va;
	uint64_t n = bytes / 8;
	__asm__ volatile("rep stosq" : "+D"(d), "+c"(n) : "a"(0ull) : "memory");
}

void arch_copy_words(void *dst, const void *src, uint64_t bytes)
{
	uint64_t n = bytes / 8;
	__asm__ volatile("rep movsq" : "+D"(dst), "+S"(src), "+c"(n) : : "memory");
}

uint64_t arch_tsc_serial(void) { return rdtsc_serial(); }


/* The first word of struct cpu points at itself, so gs:0 yields it. */
void arch_set_this_cpu(struct cpu *c)
{
	wrmsr(MSR_GS_BASE, (uint64_t)c);
	wrmsr(MSR_KERNEL_GS, 0);
}

uint64_t arch_frame_pointer(void) { return read_rbp(); }

/* Follow the saved-rbp chain while it stays inside kernel memory. */
void arch_backtrace(uint64_t rbp, void (*fn)(uint64_t pc))
{
	for (int depth = 0; depth < 32 && rbp >= DIRECT_MAP_BASE && (rbp & 7) == 0; depth++) {
		uint64_t *frame = (uint64_t *)rbp;
		uint64_t pc = frame[1];
		if (pc < KERNEL_VBASE)
			break;
		fn(pc);
		if (frame[0] <= rbp)
			break;
		rbp = frame[0];
	}
}

#define DEBUG_EXIT_PORT 0xf4      /* -device isa-debug-exit,iobase=0xf4,iosize=4 */

/*
 * Stop the machine with a status: under QEMU the isa-debug-exit device
 * ends the emulator with exit code (status << 1) | 1.  On a machine
 * without it, we try the ACPI-less QEMU/Bochs shutdown ports, then halt.
 */
void arch_power_off(int status)
{
	cli();
	outl(DEBUG_EXIT_PORT, (uint32_t)status);
	outw(0x604, 0x2000);              /* QEMU q35/pc with ACPI PM at 0x600 */
	outw(0xB004, 0x2000);             /* older Bochs/QEMU */
	arch_halt_forever();
}

uint32_t arch_cpu_apic_id(void)
{
	uint32_t a, b, c, d;
	cpuid(1, 0, &a, &b, &c, &d);
	return b >> 24;
}
