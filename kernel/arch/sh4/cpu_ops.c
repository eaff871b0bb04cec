/*
 * cpu_ops.c — the SH-4's small CPU operations: idling, power, bulk memory,
 * the 64-bit multiply-divide, cache and TLB purge, stack walking.
 */
#include <stdint.h>
#include <string.h>
#include <kprintf.h>
#include <arch/arch.h>
#include <arch/trapframe.h>
#include "sh4.h"

/* The arguments of the cost-model marker running now (arch/region.h). */
volatile uint32_t sh4_region_args[2];

/* SLEEP with interrupts unmasked: the next interrupt wakes it. */
void arch_idle(void)
{
	arch_irq_enable();
	__asm__ volatile("sleep" : : : "memory");
}

void arch_halt_forever(void)
{
	arch_irq_disable();
	for (;;)
		__asm__ volatile("sleep" : : : "memory");
}

/* The r2d FPGA powers the board off, and QEMU exits with status 0
 * whatever the status: the harness reads it from this last console line
 * (tools/hakotool/qemu.py, SH4_POWER_LINE). */
void arch_power_off(int status)
{
	arch_irq_disable();
	kprintf("hako: power off, status %d\n", status);
	mmio_write16(R2D_FPGA_POWOFF, 1);
	arch_halt_forever();
}

void arch_zero_pages(void *va, uint64_t bytes)
{
	uint32_t *p = va;
	for (uint32_t i = 0; i < bytes / 4; i++)
		p[i] = 0;
}

void arch_copy_words(void *dst, const void *src, uint64_t bytes)
{
	uint32_t *d = dst;
	const uint32_t *s = src;
	for (uint32_t i = 0; i < bytes / 4; i++)
		d[i] = s[i];
}

/* a * b / c: the 128-bit product by 32-bit pieces, then long division. */
uint64_t arch_muldiv64(uint64_t a, uint64_t b, uint64_t c)
{
	if (b == 0 || a <= UINT64_MAX / b)
		return a * b / c;
	if (b <= UINT64_MAX / c)                     /* (a % c) * b fits */
		return (a / c) * b + (a % c) * b / c;
	uint64_t al = (uint32_t)a, ah = a >> 32, bl = (uint32_t)b, bh = b >> 32;
	uint64_t ll = al * bl, lh = al * bh, hl = ah * bl, hh = ah * bh;
	uint64_t mid = (ll >> 32) + (uint32_t)lh + (uint32_t)hl;
	uint64_t lo = (mid << 32) | (uint32_t)ll;
	uint64_t hi = hh + (lh >> 32) + (hl >> 32) + (mid >> 32);
	uint64_t q = 0;
	for (int i = 0; i < 128; i++) {
		uint64_t top = hi >> 63;
		hi = (hi << 1) | (lo >> 63);
		lo <<= 1;
		q <<= 1;
		if (top || hi >= c) {
			hi -= c;
			q |= 1;
		}
	}
	return q;
}

/* The operand cache written back and invalidated (CCR.OCI after a walk
 * is what the hardware needs; QEMU models no cache), every TLB entry dropped. */
void arch_purge_caches_and_tlb(void)
{
	sh4_utlb_invalidate_all();
}

/* GCC's SH frames keep no fixed link to the caller's frame: no walk. */
void arch_backtrace(uint64_t fp, void (*fn)(uint64_t pc)) {}

uint64_t arch_frame_pointer(void)
{
	uint32_t fp;
	__asm__ volatile("mov r14, %0" : "=r"(fp));
	return (uint64_t)(int64_t)(int32_t)fp;
}
