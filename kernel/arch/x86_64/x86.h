/*
 * x86.h — every x86_64 instruction the kernel needs, as a static inline.
 *
 * Generic kernel code never writes asm; it calls these (or the arch_*
 * hooks built on them).  Names follow the instruction they wrap.
 */
#ifndef HAKO_ARCH_X86_H
#define HAKO_ARCH_X86_H

#include <stdbool.h>
#include <stdint.h>

static inline void outb(uint16_t port, uint8_t v) { __asm__ volatile("outb %0, %1" : : "a"(v), "Nd"(port)); }
static inline void outw(uint16_t port, uint16_t v) { __asm__ volatile("outw %0, %1" : : "a"(v), "Nd"(port)); }
static inline void outl(uint16_t port, uint32_t v) { __asm__ volatile("outl %0, %1" : : "a"(v), "Nd"(port)); }
static inline uint8_t inb(uint16_t port) { uint8_t v; __asm__ volatile("inb %1, %0" : "=a"(v) : "Nd"(port)); return v; }
static inline uint16_t inw(uint16_t port) { uint16_t v; __asm__ volatile("inw %1, %0" : "=a"(v) : "Nd"(port)); return v; }
static inline uint32_t inl(uint16_t port) { uint32_t v; __asm__ volatile("inl %1, %0" : "=a"(v) : "Nd"(port)); return v; }

static inline uint64_t rdmsr(uint32_t msr)
{
	uint32_t lo, hi;
	__asm__ volatile("rdmsr" : "=a"(lo), "=d"(hi) : "c"(msr));
	return ((uint64_t)hi << 32) | lo;
}

static inline void wrmsr(uint32_t msr, uint64_t v)
{
	__asm__ volatile("wrmsr" : : "c"(msr), "a"((uint32_t)v), "d"((uint32_t)(v >> 32)));
}

static inline void cpuid(uint32_t leaf, uint32_t sub, uint32_t *a, uint32_t *b, uint32_t *c, uint32_t *d)
{
	__asm__ volatile("cpuid" : "=a"(*a), "=b"(*b), "=c"(*c), "=d"(*d) : "a"(leaf), "c"(sub));
}

static inline uint64_t read_cr0(void) { uint64_t v; __asm__ volatile("mov %%cr0, %0" : "=r"(v)); return v; }
static inline uint64_t read_cr2(void) { uint64_t v; __asm__ volatile("mov %%cr2, %0" : "=r"(v)); return v; }
static inline uint64_t read_cr3(void) { uint64_t v; __asm__ volatile("mov %%cr3, %0" : "=r"(v)); return v; }
static inline uint64_t read_cr4(void) { uint64_t v; __asm__ volatile("mov %%cr4, %0" : "=r"(v)); return v; }
static inline void write_cr0(uint64_t v) { __asm__ volatile("mov %0, %%cr0" : : "r"(v) : "memory"); }
static inline void write_cr3(uint64_t v) { __asm__ volatile("mov %0, %%cr3" : : "r"(v) : "memory"); }
static inline void write_cr4(uint64_t v) { __asm__ volatile("mov %0, %%cr4" : : "r"(v) : "memory"); }

static inline void invlpg(uint64_t va) { __asm__ volatile("invlpg (%0)" : : "r"(va) : "memory"); }

static inline uint64_t read_flags(void)
{
	uint64_t f;
	__asm__ volatile("pushfq; popq %0" : "=r"(f) : : "memory");
	return f;
}

static inline void cli(void) { __asm__ volatile("cli" : : : "memory"); }
static inline void sti(void) { __asm__ volatile("sti" : : : "memory"); }
static inline void hlt(void) { __asm__ volatile("hlt" : : : "memory"); }
/* sti;hlt is atomic: an interrupt pending at sti still wakes the hlt. */
static inline void sti_hlt(void) { __asm__ volatile("sti; hlt" : : : "memory"); }

static inline uint64_t rdtsc(void)
{
	uint32_t lo, hi;
	__asm__ volatile("rdtsc" : "=a"(lo), "=d"(hi));
	return ((uint64_t)hi << 32) | lo;
}

/* A serialised TSC read: lfence orders it after every earlier instruction. */
static inline uint64_t rdtsc_serial(void)
{
	uint32_t lo, hi;
	__asm__ volatile("lfence; rdtsc; lfence" : "=a"(lo), "=d"(hi) : : "memory");
	return ((uint64_t)hi << 32) | lo;
}

static inline void mfence(void) { __asm__ volatile("mfence" : : : "memory"); }
static inline void cpu_relax(void) { __asm__ volatile("pause" : : : "memory"); }

static inline void lgdt(void *gdtr) { __asm__ volatile("lgdt (%0)" : : "r"(gdtr) : "memory"); }
static inline void lidt(void *idtr) { __asm__ volatile("lidt (%0)" : : "r"(idtr) : "memory"); }
static inline void ltr(uint16_t sel) { __asm__ volatile("ltr %0" : : "r"(sel)); }

static inline uint64_t read_rbp(void) { uint64_t v; __asm__ volatile("mov %%rbp, %0" : "=r"(v)); return v; }

static inline void wbinvd(void) { __asm__ volatile("wbinvd" : : : "memory"); }

#define MSR_EFER          0xC0000080
#define MSR_STAR          0xC0000081
#define MSR_LSTAR         0xC0000082
#define MSR_SFMASK        0xC0000084
#define MSR_FS_BASE       0xC0000100
#define MSR_GS_BASE       0xC0000101
#define MSR_KERNEL_GS     0xC0000102
#define MSR_APIC_BASE     0x1B
#define MSR_TSC_DEADLINE  0x6E0

#define EFER_SCE (1u << 0)
#define EFER_LME (1u << 8)
#define EFER_NXE (1u << 11)

#define CR0_WP  (1u << 16)
#define CR4_PGE (1u << 7)
#define CR4_OSFXSR (1u << 9)
#define CR4_PCIDE (1u << 17)
#define CR4_SMEP (1u << 20)
#define CR4_SMAP (1u << 21)

#define RFLAGS_TF (1u << 8)
#define RFLAGS_IF (1u << 9)
#define RFLAGS_DF (1u << 10)
#define RFLAGS_IOPL (3u << 12)
#define RFLAGS_NT (1u << 14)
#define RFLAGS_AC (1u << 18)

/* What CPUID said about the paging and timer features (mmu.c). */
struct cpu_features {
	bool nx, smep, smap, pcid, pge, x2apic, tsc_deadline, invariant_tsc, huge_1g;
};
extern struct cpu_features cpu_features;

#endif
