/*
 * arch_cpu.h — the x86_64 part of each CPU: its GDT, TSS and the extra
 * stacks for double faults and NMIs.
 */
#ifndef HAKO_ARCH_CPU_H
#define HAKO_ARCH_CPU_H

/* The selectors and IST numbers are shared with assembly (syscall_entry.S). */
#define SEL_KCODE 0x08
#define SEL_KDATA 0x10
#define SEL_UDATA 0x1b      /* 0x18 | RPL 3 */
#define SEL_UCODE 0x23      /* 0x20 | RPL 3 */
#define SEL_TSS   0x28
#define SEL_SCODE 0x38      /* a supervisor-mode process's code: ring 0 like SEL_KCODE, its
                             * own selector so a frame shows whose code ran (tf_from_user) */

#define IST_DOUBLE_FAULT 1
#define IST_NMI          2
#define IST_DEBUG        3      /* #DB: may arrive on syscall_entry's first instruction */
#define IST_STACK_SIZE   8192

/* Offsets syscall_entry.S's dispatch reads (user_arch.c checks each
 * against the C layout, so a change there stops the build). */
#define CPU_CURRENT        0x40     /* struct cpu: the running thread */
#define CPU_NEED_RESCHED   0x280    /* struct cpu: a switch is due */
#define THREAD_KILLED      0x110    /* struct thread: leave at the next chance */
#define SYSCALL_ENTRY_SIZE 24       /* struct syscall_entry, its fn first */

#ifndef __ASSEMBLY__
#include <arch/portio.h>
#include <stdint.h>

struct tss {
	uint32_t reserved0;
	uint64_t rsp[3];            /* rsp[0]: stack for entries from ring 3 */
	uint64_t reserved1;
	uint64_t ist[7];
	uint64_t reserved2;
	uint16_t reserved3;
	uint16_t iomap_base;
} __attribute__((packed));

#define IOMAP_BYTES 8192                /* one bit per port, 64 Ki ports */

struct arch_cpu {
	uint64_t gdt[8];
	struct tss tss;
	/* The I/O permission bitmap follows the TSS directly (iomap_base =
	 * sizeof(struct tss)); a set bit refuses the port to ring 3, and the
	 * byte after it must be all ones.  io_open: the ranges open now. */
	uint8_t iomap[IOMAP_BYTES + 1];
	struct arch_io_grant io_open;
	/* Nonzero while this CPU holds something of a service thread's that the
	 * switch to another thread must undo: ranges open, or the supervisor
	 * system-call entry in LSTAR (io_open.ring0). */
	uint32_t io_loaded;
	uint8_t df_stack[IST_STACK_SIZE] __attribute__((aligned(16)));
	uint8_t nmi_stack[IST_STACK_SIZE] __attribute__((aligned(16)));
	uint8_t db_stack[IST_STACK_SIZE] __attribute__((aligned(16)));
};

struct cpu;
void gdt_init_cpu(struct cpu *c, struct arch_cpu *ac);
void idt_init(void);
void idt_load(void);
void syscall_init_cpu(void);            /* user_arch.c: STAR/LSTAR/SFMASK */
uint64_t syscall_entry_user(void);      /* user_arch.c: LSTAR's ring-3 entry (irqtrace=) */

#endif /* __ASSEMBLY__ */

#endif
