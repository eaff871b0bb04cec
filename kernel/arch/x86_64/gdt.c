/*
 * gdt.c — each CPU's global descriptor table and task-state segment.
 *
 * Layout (fixed by syscall/sysret, see SEL_* in arch_cpu.h): null, kernel
 * code, kernel data, user data, user code, TSS (two slots).  The TSS gives
 * the stack for entries from ring 3 (rsp0, switched with each thread) and
 * IST stacks so a double fault or NMI always has a good stack.
 */
#include <stdint.h>
#include <string.h>
#include <cpu.h>
#include "x86.h"
#include "arch_cpu.h"

struct gdtr {
	uint16_t limit;
	uint64_t base;
} __attribute__((packed));

static void set_tss_descriptor(uint64_t *gdt, struct tss *tss)
{
	uint64_t base = (uint64_t)tss, limit = sizeof *tss - 1;
	gdt[5] = (limit & 0xffff) | ((base & 0xffffff) << 16) | (0x89ull << 40) /* present, 64-bit TSS */
		| (((limit >> 16) & 0xf) << 48) | (((base >> 24) & 0xff) << 56);
	gdt[6] = base >> 32;
}

/* Reload CS with a far return, then the data selectors. */
static void load_segments(void)
{
	__asm__ volatile(
		"pushq %0\n"
		"leaq 1f(%%rip), %%rax\n"
		"pushq %%rax\n"
		"lretq\n"
		"1:\n"
		"movw %w1, %%ds\n"
		"movw %w1, %%es\n"
		"movw %w1, %%ss\n"
		"xorl %%eax, %%eax\n"
		"movw %%ax, %%fs\n"
		"movw %%ax, %%gs\n"
		: : "i"(SEL_KCODE), "r"(SEL_KDATA) : "rax", "memory");
}

/* Give this CPU its own GDT and TSS; sets the GS base to c afterwards. */
void gdt_init_cpu(struct cpu *c, struct arch_cpu *ac)
{
	memset(&ac->tss, 0, sizeof ac->tss);
	ac->gdt[0] = 0;
	ac->gdt[1] = 0x00af9a000000ffff;     /* kernel code: long mode, DPL 0 */
	ac->gdt[2] = 0x00cf92000000ffff;     /* kernel data */
	ac->gdt[3] = 0x00cff2000000ffff;     /* user data, DPL 3 */
	ac->gdt[4] = 0x00affa000000ffff;     /* user code: long mode, DPL 3 */
	ac->tss.ist[IST_DOUBLE_FAULT - 1] = (uint64_t)(ac->df_stack + IST_STACK_SIZE);
	ac->tss.ist[IST_NMI - 1] = (uint64_t)(ac->nmi_stack + IST_STACK_SIZE);
	ac->tss.ist[IST_DEBUG - 1] = (uint64_t)(ac->db_stack + IST_STACK_SIZE);
	ac->tss.iomap_base = sizeof ac->tss;  /* no I/O bitmap */
	set_tss_descriptor(ac->gdt, &ac->tss);

	struct gdtr r = { sizeof ac->gdt - 1, (uint64_t)ac->gdt };
	lgdt(&r);
	load_segments();
	ltr(SEL_TSS);
	c->arch = ac;
	arch_set_this_cpu(c);
	syscall_init_cpu();
}

/* The stack the CPU switches to on an interrupt or syscall from ring 3. */
void tss_set_kernel_stack(uint64_t top)
{
	struct cpu *c = this_cpu();
	((struct arch_cpu *)c->arch)->tss.rsp[0] = top;
	c->syscall_kstack = top;
}
