/*
 * smp_start.c — starting one application processor, and the x86 side of
 * inter-processor interrupts.
 *
 * Start-up follows the MP protocol (Intel SDM 8.4.4): INIT, 10 ms, then
 * STARTUP with the trampoline page, repeated once if the AP is slow.  Each
 * AP gets its own arch_cpu and idle stack before it is woken; its first C
 * code (ap_entry64) loads its descriptors, page tables and local APIC and
 * hands over to the generic smp_cpu_online().
 */
#include <stdint.h>
#include <string.h>
#include <cpu.h>
#include <heap.h>
#include <pmm.h>
#include <smp.h>
#include <time.h>
#include <vm.h>
#include "x86.h"
#include "arch_cpu.h"
#include "lapic.h"

extern char trampoline_start[], trampoline_end[];
extern const uint64_t trampoline_cr3, trampoline_stack, trampoline_cpu, trampoline_entry;
extern char boot_pml4[];

void arch_cpu_stop(struct cpu *c)
{
	lapic_send_nmi(c->apic_id);
}

/* First C code of an AP, on its idle stack, with boot.S's page tables. */
__attribute__((noreturn)) void ap_entry64(struct cpu *c)
{
	gdt_init_cpu(c, c->arch);
	idt_load();
	vm_init_cpu();
	lapic_init_cpu();
	smp_cpu_online(c);
}

/* The blob in .rodata is read-only: parameters go into the copy. */
static void set_param(char *page, const uint64_t *param, uint64_t value)
{
	*(uint64_t *)(page + ((const char *)param - trampoline_start)) = value;
}

int arch_cpu_start(struct cpu *c)
{
	struct arch_cpu *ac = kzalloc(sizeof *ac);
	uint64_t stack = pmm_alloc_contig(KSTACK_SIZE / PAGE_SIZE, 1);
	if (!ac || !stack)
		return -1;
	c->arch = ac;
	arch_cpu_head_init(c);
	c->idle_stack = (uint64_t)phys_to_virt(stack);
	char *page = phys_to_virt(AP_TRAMPOLINE_PHYS);
	memcpy(page, trampoline_start, trampoline_end - trampoline_start);
	set_param(page, &trampoline_cr3, virt_to_phys(boot_pml4));
	set_param(page, &trampoline_stack, c->idle_stack + KSTACK_SIZE);
	set_param(page, &trampoline_cpu, (uint64_t)c);
	set_param(page, &trampoline_entry, (uint64_t)ap_entry64);

	lapic_send_init(c->apic_id);
	time_delay_us(10000);
	for (int attempt = 0; attempt < 2 && !c->online; attempt++) {
		lapic_send_startup(c->apic_id, AP_TRAMPOLINE_PHYS);
		for (int i = 0; i < 1000 && !c->online; i++)
			time_delay_us(200);
	}
	return c->online ? 0 : -1;
}
