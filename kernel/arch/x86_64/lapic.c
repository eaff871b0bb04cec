/*
 * lapic.c — local APIC registers (Intel SDM vol. 3, ch. 11).
 *
 * xAPIC mode at the physical base from IA32_APIC_BASE (0xfee00000 on
 * QEMU).  All CPUs see their own LAPIC at the same address.
 */
#include <stdint.h>
#include <cpu.h>
#include <intr.h>
#include <panic.h>
#include <vm.h>
#include "x86.h"
#include "lapic.h"

#define LAPIC_ID       0x020   /* bits 31:24: this CPU's APIC id */
#define LAPIC_TPR      0x080   /* task priority: 0 accepts all */
#define LAPIC_EOI      0x0b0   /* write 0: end of interrupt */
#define LAPIC_SVR      0x0f0   /* spurious vector + bit 8 software enable */
#define LAPIC_ESR      0x280   /* error status */
#define LAPIC_ICR_LO   0x300   /* interrupt command: vector, mode, status */
#define LAPIC_ICR_HI   0x310   /* interrupt command: destination (31:24) */
#define LAPIC_LVT_TMR  0x320   /* timer: vector, mode (bits 18:17), mask (16) */
#define LAPIC_LVT_LINT0 0x350
#define LAPIC_LVT_LINT1 0x360
#define LAPIC_LVT_ERR  0x370
#define LAPIC_TMR_INIT 0x380   /* timer initial count */
#define LAPIC_TMR_CUR  0x390   /* timer current count */
#define LAPIC_TMR_DIV  0x3e0   /* timer divide configuration */

#define ICR_FIXED    (0u << 8)
#define ICR_NMI      (4u << 8)
#define ICR_INIT     (5u << 8)
#define ICR_STARTUP  (6u << 8)
#define ICR_PENDING  (1u << 12)
#define ICR_ASSERT   (1u << 14)
#define ICR_LEVEL    (1u << 15)
#define ICR_SELF     (1u << 18)   /* destination shorthand: this CPU */
#define LVT_MASKED   (1u << 16)
#define TDIV_BY_1    0xb

static volatile uint32_t *regs;

static uint32_t rd(uint32_t reg) { return regs[reg / 4]; }
static void wr(uint32_t reg, uint32_t v) { regs[reg / 4] = v; }

void lapic_init(void)
{
	uint64_t base = rdmsr(MSR_APIC_BASE) & ~0xfffull;
	regs = vm_map_mmio(base, PAGE_SIZE);
	if (!regs)
		panic("lapic: cannot map registers at %lx", base);
}

void lapic_init_cpu(void)
{
	wrmsr(MSR_APIC_BASE, rdmsr(MSR_APIC_BASE) | (1u << 11));   /* global enable */
	wr(LAPIC_SVR, 0x100 | VECTOR_SPURIOUS);
	wr(LAPIC_TPR, 0);
	wr(LAPIC_LVT_TMR, LVT_MASKED);
	wr(LAPIC_LVT_LINT0, LVT_MASKED);
	wr(LAPIC_LVT_LINT1, LVT_MASKED);
	wr(LAPIC_LVT_ERR, LVT_MASKED);
	wr(LAPIC_ESR, 0);
	wr(LAPIC_TMR_DIV, TDIV_BY_1);
	wr(LAPIC_EOI, 0);
}

uint32_t lapic_id(void) { return rd(LAPIC_ID) >> 24; }
void lapic_eoi(void) { wr(LAPIC_EOI, 0); }

uint32_t lapic_tpr_swap(uint32_t tpr)
{
	uint32_t old = rd(LAPIC_TPR);
	wr(LAPIC_TPR, tpr);
	return old;
}

static void send_icr(uint32_t apic_id, uint32_t low)
{
	uint64_t f = arch_irq_save();
	while (rd(LAPIC_ICR_LO) & ICR_PENDING)
		;
	wr(LAPIC_ICR_HI, apic_id << 24);
	wr(LAPIC_ICR_LO, low);
	while (rd(LAPIC_ICR_LO) & ICR_PENDING)
		;
	arch_irq_restore(f);
}

volatile uint32_t *lapic_self_ipi_reg(int vector, uint32_t *value)
{
	*value = ICR_FIXED | ICR_SELF | (uint32_t)vector;
	return &regs[LAPIC_ICR_LO / 4];
}

/* arch.h's hook: the ICR written here, so a cross-CPU wake-up makes one call. */
void arch_send_ipi(int cpu, int vector)
{
	send_icr(cpus[cpu].apic_id, ICR_FIXED | (uint32_t)vector);
}
void lapic_send_nmi(uint32_t apic_id) { send_icr(apic_id, ICR_NMI); }
void lapic_send_init(uint32_t apic_id) { send_icr(apic_id, ICR_INIT | ICR_LEVEL | ICR_ASSERT); }
void lapic_send_startup(uint32_t apic_id, uint32_t page) { send_icr(apic_id, ICR_STARTUP | (page >> 12)); }

void lapic_timer_start_count(uint32_t initial)
{
	wr(LAPIC_LVT_TMR, LVT_MASKED);
	wr(LAPIC_TMR_DIV, TDIV_BY_1);
	wr(LAPIC_TMR_INIT, initial);
}

uint32_t lapic_timer_current(void) { return rd(LAPIC_TMR_CUR); }

void lapic_timer_oneshot(uint32_t ticks, int vector)
{
	wr(LAPIC_LVT_TMR, (uint32_t)vector);       /* one-shot mode, unmasked */
	wr(LAPIC_TMR_INIT, ticks ? ticks : 1);
}

void lapic_timer_stop(void)
{
	wr(LAPIC_TMR_INIT, 0);
}
