/*
 * arch.h — the hooks generic kernel code calls into arch/sh4 (SH-4, QEMU
 * r2d, one CPU).
 *
 * The same interface as every arch's arch.h; the x86-only hooks (I/O
 * APIC lines, MSI, other CPUs) have a "none" answer here.
 *
 * The port checklist (every hook and its generic user) is in
 * docs/design/arch.md and at the top of the x86_64 arch.h.
 */
#ifndef HAKO_ARCH_H
#define HAKO_ARCH_H

#include <stdbool.h>
#include <stdint.h>
#include <arch/layout.h>

struct bootinfo;
struct cpu;
struct thread;
struct trapframe;

/* What the machine has, for the self-tests that need it. */
#define ARCH_HAS_VGA_TEXT 0            /* no text screen */
#define ARCH_HAS_PORT_IO  0            /* no port space (arch/portio.h) */
#define ARCH_TSC_MIN_HZ   10000000ull  /* the TMU counts at 15 MHz (timer.c) */

/* Console devices: the SCIF (serial.c); there is no VGA text screen. */
void arch_serial_init(void);
void arch_serial_putc(char c);
int arch_serial_getc(void);
int arch_serial_start_rx_irq(void (*fn)(void *arg));   /* -ENODEV without a UART */
void arch_vga_clear(void);
void arch_vga_putc(char c);

/*
 * Interrupts: SR.IMASK, 15 masks every interrupt, 0 lets all through.
 * On every lock and system-call path, so inline.
 */
static inline uint32_t sh4_get_sr(void)
{
	uint32_t sr;
	__asm__ volatile("stc sr, %0" : "=r"(sr) : : "memory");
	return sr;
}
/* SR holds the T bit too: the compiler must not keep a comparison across it. */
static inline void sh4_set_sr(uint32_t sr) { __asm__ volatile("ldc %0, sr" : : "r"(sr) : "memory", "t"); }
static inline bool arch_irq_enabled(void) { return (sh4_get_sr() & 0xf0) == 0; }
static inline void arch_irq_enable(void) { sh4_set_sr(sh4_get_sr() & ~0xf0u); }
static inline void arch_irq_disable(void) { sh4_set_sr(sh4_get_sr() | 0xf0u); }
/* Disable, return the previous state. */
static inline uint64_t arch_irq_save(void)
{
	uint32_t sr = sh4_get_sr();
	sh4_set_sr(sr | 0xf0u);
	return (sr & 0xf0) == 0;
}
static inline void arch_irq_restore(uint64_t state)
{
	if (state)
		arch_irq_enable();
}
void arch_idle(void);                     /* enable interrupts and wait for one (SLEEP) */
/* arch_idle lowers SR.IMASK, then SLEEPs: an interrupt that comes between
 * the two is taken first, and the SLEEP then waits for the next one. */
#define ARCH_IDLE_ATOMIC 0
void arch_halt_forever(void) __attribute__((noreturn));

/* Threads (thread_arch.c): the first switch frame of a new thread's
 * stack; the switch itself and what follows it are in arch/switch.h. */
uint64_t arch_thread_stack_init(uint64_t stack_top);

/* Clocks (timer.c): arch_tsc counts TMU channel 1's peripheral-clock
 * ticks; the one-shot timer is TMU channel 0 (VECTOR_TIMER). */
uint64_t arch_calibrate(uint64_t *lapic_hz_out, const char **source);
void arch_timer_program(uint64_t delta_tsc);
uint64_t arch_tsc(void);
uint64_t arch_tsc_serial(void);

/*
 * Per-CPU data: one CPU; sh4_cpu points at its struct cpu, which starts
 * with this head.
 */
struct arch_cpu_head {
	struct cpu *self;
	uint32_t pad;
	uint64_t kstack;            /* top of the current kernel stack */
};
#define ARCH_CPU_HEAD_SIZE 16
extern struct cpu *sh4_cpu;
static inline void arch_cpu_head_init(struct cpu *c)
{
	((struct arch_cpu_head *)(void *)c)->self = c;
}
static inline struct cpu *arch_this_cpu(void) { return sh4_cpu; }
static inline uint64_t arch_this_cpu_read64(unsigned long offset)
{
	return *(volatile uint64_t *)(void *)((char *)sh4_cpu + offset);
}
void arch_set_this_cpu(struct cpu *c);

/* Power: the r2d board's FPGA power-off register. */
void arch_power_off(int status) __attribute__((noreturn));

/* Stack walking from a frame pointer (r14); calls fn for each return address. */
void arch_backtrace(uint64_t fp, void (*fn)(uint64_t pc));
uint64_t arch_frame_pointer(void);
uint64_t arch_switch_frame_pointer(uint64_t saved_sp);

/* Where the other CPUs are: there are none. */
struct arch_snapshot {
	bool valid, user;
	uint64_t pc, fp;
};
int arch_snapshot_others(struct arch_snapshot *snap, int n);

/* Write back and invalidate the caches, flush the whole TLB. */
void arch_purge_caches_and_tlb(void);

void arch_zero_pages(void *va, uint64_t bytes);
void arch_copy_words(void *dst, const void *src, uint64_t bytes);

/* A named file the harness loaded (r2d has no fw_cfg: bootparams.c's
 * window); its whole length, or -1 if absent. */
int arch_fw_read_file(const char *name, char *buf, uint32_t size);

/* Interrupt packaging (kernel/intr/): no lean entries on SH-4; every
 * interrupt takes the full path. */
void arch_intr_lean_entry(int vector, bool on);
void arch_intr_divert(int vector, bool on);
void arch_intr_eoi(void);
unsigned arch_intr_block_upto(int vector);
void arch_intr_unblock(unsigned old);
int arch_intr_line_mask(int gsi, bool masked);
void arch_intr_probe_self(int vector, bool fire, uint64_t out[2]);

/* Boot steps (arch_init.c), in the order kmain calls them. */
void arch_early_init(struct cpu *bsp);    /* the per-CPU pointer */
void arch_trap_init(void);                /* VBR */
void arch_intc_init(struct cpu *bsp);     /* INTC priorities, every source masked */
int arch_intc_count(void);                /* device-line controllers: none */
void arch_platform_init(const struct bootinfo *bi);   /* firmware tables: none */
const char *arch_machine_name(void);      /* "r2d" */

/* Device interrupt lines (no I/O APIC): -ENODEV. */
int arch_intr_line_route(int gsi, int vector, uint32_t dest, bool active_low, bool level);
int arch_intr_line_retarget(int gsi, uint32_t dest);

/* No MSI: an address nothing decodes. */
static inline void arch_msi_message(uint32_t dest, int vector, uint64_t *addr, uint32_t *data)
{
	*addr = 0;
	*data = (uint32_t)vector;
}

/*
 * Vector map: the SH-4's INTEVT codes go in steps of 0x20, so a vector
 * here is INTEVT / 0x20 for interrupts (TMU0 0x400 -> 0x20), and
 * EXPEVT / 0x20 for exceptions (below 0x20).  The rest of the numbers keep
 * the generic layer's map; nothing raises them.
 */
#define ARCH_INTR_VECTORS   256
#define ARCH_INTR_FIRST_IRQ 0x20
#define VECTOR_DEVICE_FIRST 0x30
#define VECTOR_DEVICE_LAST  0xdf
#define VECTOR_RESCHED      0xe0
#define VECTOR_CALL         0xe1
#define VECTOR_TEST         0xe2
#define VECTOR_TIMER        0xef   /* TMU channel 0's underflow (INTEVT 0x400) */
#define VECTOR_SPURIOUS     0xff

uint32_t arch_cpu_apic_id(void);
void arch_cpu_summary(void);

/* Other processors: there are none (-1, nothing sent). */
int arch_cpu_start(struct cpu *c);
void arch_send_ipi(int cpu, int vector);
void arch_cpu_stop(struct cpu *c);

/* a * b / c with a 128-bit intermediate; the quotient must fit in 64 bits (cpu_ops.c). */
uint64_t arch_muldiv64(uint64_t a, uint64_t b, uint64_t c);

/* User mode (user_arch.c). */
void arch_user_start(uint64_t pc, uint64_t sp, uint64_t a0, uint64_t a1) __attribute__((noreturn));
/* Supervisor-mode processes (paper 003's driver placement): not supported
 * here; generic code asks ARCH_HAS_SUPERVISOR_PROCS and never starts one. */
#define ARCH_HAS_SUPERVISOR_PROCS 0
void arch_super_start(uint64_t pc, uint64_t sp, uint64_t a0, uint64_t a1) __attribute__((noreturn));
long arch_copy_user(void *dst, const void *src, uint64_t n);        /* 0 or -EFAULT */
long arch_copy_user_str(char *dst, const char *src, uint64_t n);    /* length, n, or -EFAULT */
long arch_copy_user_rw(void *dst, const void *src, uint64_t n);     /* 0 or -EFAULT; 1 <= n <= 4096 */

/* Spin-wait hint: nothing to yield to on one CPU. */
static inline void arch_spin_hint(void) { __asm__ volatile("" : : : "memory"); }

/* Kernel memory barrier. */
static inline void arch_barrier(void) { __asm__ volatile("" : : : "memory"); }

#endif
