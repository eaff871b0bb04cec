/*
 * gdt.c — each CPU's global descriptor table and task-state segment.
 *
 * Layout (fixed by syscall/sysret, see SEL_* in arch_cpu.h): null, kernel
 * code, kernel data, user data, user code, TSS (two slots), supervisor
 * process code (ring 0, super_arch.c).  The TSS gives
 * the stack for entries from ring 3 (rsp0, switched with each thread) and
 * IST stacks so a double fault or NMI always has a good stack.
 *
 * The TSS carries an I/O permission bitmap (paper 003's driver processes
 * reach their granted ports directly from ring 3): every bit set, so
 * every port is refused, except the ranges of the grant of the thread
 * running on this CPU (arch_io_bitmap_load, from the thread switch).  The
 * descriptor's limit covers the bitmap and its all-ones trailing byte.
 */
#include <stdint.h>
#include <string.h>
#include <cpu.h>
#include "x86.h"
#include "arch_cpu.h"
#include <arch/trapframe.h>

struct gdtr {
	uint16_t limit;
	uint64_t base;
} __attribute__((packed));

_Static_assert((SEL_UCODE & TF_PROCESS_CS_BIT) && (SEL_SCODE & TF_PROCESS_CS_BIT) &&
	       !(SEL_KCODE & TF_PROCESS_CS_BIT), "tf_from_user tells the code selectors apart");
_Static_assert(__builtin_offsetof(struct arch_cpu, iomap) ==
	       __builtin_offsetof(struct arch_cpu, tss) + sizeof(struct tss), "the bitmap follows the TSS");

static void set_tss_descriptor(uint64_t *gdt, struct tss *tss)
{
	uint64_t base = (uint64_t)tss, limit = sizeof *tss + IOMAP_BYTES;   /* + trailing byte - 1 */
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
	ac->gdt[7] = 0x00af9a000000ffff;     /* supervisor process code: as the kernel's, DPL 0 */
	ac->tss.ist[IST_DOUBLE_FAULT - 1] = (uint64_t)(ac->df_stack + IST_STACK_SIZE);
	ac->tss.ist[IST_NMI - 1] = (uint64_t)(ac->nmi_stack + IST_STACK_SIZE);
	ac->tss.ist[IST_DEBUG - 1] = (uint64_t)(ac->db_stack + IST_STACK_SIZE);
	ac->tss.iomap_base = sizeof ac->tss;  /* the bitmap right after it */
	memset(ac->iomap, 0xff, sizeof ac->iomap);
	ac->io_open = (struct arch_io_grant){ 0 };
	ac->io_loaded = 0;
	set_tss_descriptor(ac->gdt, &ac->tss);

	struct gdtr r = { sizeof ac->gdt - 1, (uint64_t)ac->gdt };
	lgdt(&r);
	load_segments();
	ltr(SEL_TSS);
	c->arch = ac;
	arch_set_this_cpu(c);
	syscall_init_cpu();
}

/* Set (refuse) or clear (allow) the bitmap bits of ports [base, base + size). */
static void iomap_set(uint8_t *map, uint16_t base, uint16_t size, bool refuse)
{
	for (uint32_t p = base; p < (uint32_t)base + size && p < IOMAP_BYTES * 8; p++) {
		if (refuse)
			map[p / 8] |= (uint8_t)(1u << (p % 8));
		else
			map[p / 8] &= (uint8_t)~(1u << (p % 8));
	}
}

/* LSTAR: the system-call entry of what runs on this CPU (super_entry.S). */
static void load_syscall_entry(struct arch_cpu *ac, bool ring0)
{
	extern char super_syscall_entry[];
	wrmsr(MSR_LSTAR, ring0 ? (uint64_t)super_syscall_entry : syscall_entry_user());
	ac->io_open.ring0 = ring0;
}

void arch_io_bitmap_load(const struct arch_io_grant *g)
{
	struct arch_cpu *ac = this_cpu()->arch;
	if (!g && !ac->io_loaded)
		return;                               /* the common switch: nothing open, nothing to open */
	for (int i = 0; i < ac->io_open.n; i++)
		iomap_set(ac->iomap, ac->io_open.base[i], ac->io_open.size[i], true);
	ac->io_open.n = 0;
	bool ring0 = g && g->ring0;
	if (ring0 != ac->io_open.ring0)
		load_syscall_entry(ac, ring0);
	/* Ring 0 reaches every port whatever the bitmap says: nothing to open. */
	int n = !g || ring0 ? 0 : g->n < ARCH_IO_RANGES ? g->n : ARCH_IO_RANGES;
	for (int i = 0; i < n; i++) {
		ac->io_open.base[i] = g->base[i];
		ac->io_open.size[i] = g->size[i];
		iomap_set(ac->iomap, g->base[i], g->size[i], false);
	}
	ac->io_open.n = n;
	ac->io_loaded = (uint32_t)n | (ring0 ? 1u << 31 : 0);
}
