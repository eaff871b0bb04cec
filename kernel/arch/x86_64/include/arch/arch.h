/*
 * arch.h — the hooks generic kernel code calls into arch/x86_64.
 *
 * Everything here is implemented under arch/x86_64/.  Generic code
 * includes this file (never x86.h) and so never sees an instruction; it
 * calls no function of the arch that is not named arch_* (checked by
 * tools/build/checkarch.py).
 *
 * Port checklist: what a new arch ARCH provides, in
 * kernel/arch/ARCH/include/arch/ (the interface, found by -I) and the
 * arch's own files, with the generic file that uses each.
 *
 *   arch/layout.h     PAGE_SIZE/SHIFT, KERNEL_VBASE, DIRECT_MAP_BASE/SIZE,
 *                     USER_TOP, KSTACK_SIZE, KSTACK_AREA_BASE/SLOT/SLOTS,
 *                     KSTACK_ENTRY_FRAME, BOOT_STACK_SIZE (mm/, proc/, sched/)
 *   arch.h, below:
 *     console          arch_serial_init/putc/getc, arch_serial_start_rx_irq,
 *                      arch_vga_clear/putc (console/console*.c)
 *     interrupts on/off arch_irq_enable/disable/enabled/save/restore, arch_idle,
 *                      arch_halt_forever, arch_spin_hint, arch_barrier
 *                      (sync/spinlock.c, sched/sched.c, everywhere a loop spins)
 *     time             arch_tsc, arch_tsc_serial, arch_muldiv64, arch_calibrate,
 *                      arch_timer_program (sched/time.c, measure/)
 *     per-CPU          struct arch_cpu_head, ARCH_CPU_HEAD_SIZE, arch_this_cpu,
 *                      arch_this_cpu_read64, arch_cpu_head_init (sched/cpu.h,
 *                      sched/thread.c), arch_cpu_apic_id, arch_cpu_summary
 *                      (sched/smp.c, boot/main.c)
 *     other CPUs       arch_cpu_start, arch_send_ipi, arch_cpu_stop,
 *                      arch_snapshot_others (sched/smp.c, measure/thread_dump.c)
 *     threads          arch_thread_stack_init (sched/thread.c)
 *   arch/switch.h     arch_thread_switched_in, arch_switch (sched/sched_switch.h)
 *     stacks           arch_backtrace, arch_frame_pointer,
 *                      arch_switch_frame_pointer (console/panic.c, measure/)
 *     memory ops       arch_zero_pages, arch_copy_words (mm/pmm.c, ipc/ica.c),
 *                      arch_purge_caches_and_tlb (measure/kinternal.c, syscall/sys_perf.c)
 *     user mode        arch_user_start, ARCH_HAS_SUPERVISOR_PROCS and
 *                      arch_super_start (proc/proc.c), arch_copy_user,
 *                      arch_copy_user_str, arch_copy_user_rw (mm/uaccess.c)
 *     boot             arch_early_init, arch_trap_init, arch_platform_init,
 *                      arch_intc_init, arch_machine_name, arch_fw_read_file,
 *                      arch_power_off (boot/main.c)
 *     device lines     arch_intr_line_route/retarget/mask, arch_msi_message,
 *                      the VECTOR_* map, ARCH_INTR_VECTORS/FIRST_IRQ (dev/pci.c,
 *                      dev/drvenv_kernel.c, intr/)
 *     packaging        arch_intr_lean_entry, arch_intr_divert, arch_intr_eoi,
 *                      arch_intr_block_upto, arch_intr_unblock,
 *                      arch_intr_probe_self (intr/)
 *   arch/mmu.h        struct arch_addrspace, arch_pt_* (map, set, unmap,
 *                     lookup, clear_range, unmap_pages, map_large,
 *                     unmap_large, create, destroy, load), arch_tlb_flush_page,
 *                     arch_tlb_flush_range, arch_vm_init, arch_vm_init_cpu,
 *                     ARCH_PT_FREED_MAX, ARCH_PT_LARGE_SIZE (mm/vm.c, ipc/ica_fast.c);
 *                     paper 002's resident ICA translations arch_tlb_partition,
 *                     arch_ica_pin/unpin/pinned, and arch_tlb_misses (ipc/ica*.c,
 *                     syscall/sys_perf.c; no-ops and -ENOSYS where hardware walks)
 *   arch/trapframe.h  struct trapframe (syscall/, proc/)
 *   arch/syscall.h    arch_syscall_nr, arch_syscall_arg, arch_syscall_set_result,
 *                     ARCH_SYSCALL_ARGS (syscall/dispatch.c)
 *   arch/portio.h     arch_port_in/out, struct arch_io_grant, ARCH_IO_RANGES,
 *                     arch_io_bitmap_load (dev/drvenv_kernel.c, drvproc/)
 *   arch/region.h     arch_region_mark, arch_region_mark_arg, ARCH_REGION_MARK
 *                     (measure/region.h)
 *   pci.h (generic)   arch_pci_read32, arch_pci_write32 (dev/pci.c)
 *
 * And the calls the arch makes into generic code: kmain(magic, info) from
 * the boot entry; intr_dispatch for every interrupt vector, or
 * intr_pack_register from a lean entry; syscall_dispatch from the system
 * call entry; proc_page_fault and proc_fault_exit for user faults;
 * smp_cpu_online at the end of a started CPU's set-up; vm_map while
 * building the kernel tables.  Plus a linker script and a boot entry
 * that reach kmain on the boot CPU's stack (boot_stack_bottom).
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
#define ARCH_HAS_VGA_TEXT 1            /* a VGA text screen at 0xb8000 */
#define ARCH_HAS_PORT_IO  1            /* in/out ports, granted to ring 3 by the I/O bitmap */
#define ARCH_TSC_MIN_HZ   100000000ull /* a TSC slower than this is a calibration error */

/* Console devices. */
void arch_serial_init(void);
void arch_serial_putc(char c);
int arch_serial_getc(void);
int arch_serial_start_rx_irq(void (*fn)(void *arg));   /* -ENODEV without a UART */
void arch_vga_clear(void);
void arch_vga_putc(char c);

/*
 * Interrupt flag.  These, the TSC read, the per-CPU pointer and the spin
 * hint are on every lock and system-call path, so they are inline.
 */
static inline uint64_t arch_flags(void)
{
	uint64_t f;
	__asm__ volatile("pushfq; popq %0" : "=r"(f) : : "memory");
	return f;
}
static inline bool arch_irq_enabled(void) { return arch_flags() & (1u << 9); }
static inline void arch_irq_enable(void) { __asm__ volatile("sti" : : : "memory"); }
static inline void arch_irq_disable(void) { __asm__ volatile("cli" : : : "memory"); }
/* Disable, return the previous state. */
static inline uint64_t arch_irq_save(void)
{
	uint64_t on = arch_irq_enabled();
	arch_irq_disable();
	return on;
}
static inline void arch_irq_restore(uint64_t state)
{
	if (state)
		arch_irq_enable();
}
void arch_idle(void);                     /* enable interrupts and wait for one */
/* arch_idle is sti; hlt: an interrupt pending at the sti is taken only once
 * hlt waits, so a wake-up is never missed between the two. */
#define ARCH_IDLE_ATOMIC 1
void arch_halt_forever(void) __attribute__((noreturn));

/* Threads (thread_arch.c): the first switch frame of a new thread's
 * stack (its saved stack pointer); the switch itself and what follows a
 * switch to t (its kernel stack for entries from ring 3, its I/O port
 * grant, its address space) are inline in arch/switch.h. */
uint64_t arch_thread_stack_init(uint64_t stack_top);

/* Clocks (clock.c): the TSC's frequency, measured against a reference
 * (source names it; the local timer's frequency to *lapic_hz_out), and a
 * one-shot timer interrupt (VECTOR_TIMER) after delta_tsc ticks. */
uint64_t arch_calibrate(uint64_t *lapic_hz_out, const char **source);
void arch_timer_program(uint64_t delta_tsc);

/* Time stamp counter. */
static inline uint64_t arch_tsc(void)     /* plain read */
{
	uint32_t lo, hi;
	__asm__ volatile("rdtsc" : "=a"(lo), "=d"(hi));
	return ((uint64_t)hi << 32) | lo;
}
uint64_t arch_tsc_serial(void);           /* ordered after earlier instructions */

/*
 * Per-CPU data: GS base points at the running CPU's struct cpu, which
 * starts with this head; the syscall entry (syscall_entry.S) and the
 * cost-model plugin read it by offset, so its layout is the arch's.
 */
struct arch_cpu_head {
	struct cpu *self;           /* gs:0: arch_this_cpu() reads it */
	uint64_t syscall_scratch;   /* gs:8: the user stack pointer during syscall entry */
	uint64_t syscall_kstack;    /* gs:16: top of the current kernel stack */
};
#define ARCH_CPU_HEAD_SIZE 24
/* The head of c (struct cpu begins with it) points at c. */
static inline void arch_cpu_head_init(struct cpu *c)
{
	((struct arch_cpu_head *)(void *)c)->self = c;
}
static inline struct cpu *arch_this_cpu(void)
{
	struct cpu *c;
	__asm__ volatile("movq %%gs:0, %0" : "=r"(c));
	return c;
}
/* One gs-relative load: safe against migration between two loads.
 * offset must be a constant (the "i" constraint refuses anything else):
 * it is the load's displacement. */
static inline uint64_t arch_this_cpu_read64(unsigned long offset)
{
	uint64_t v;
	__asm__ volatile("movq %%gs:%c1, %0" : "=r"(v) : "i"(offset));
	return v;
}
void arch_set_this_cpu(struct cpu *c);

/* Power. */
void arch_power_off(int status) __attribute__((noreturn));

/* Stack walking from a frame pointer; calls fn for each return address. */
void arch_backtrace(uint64_t rbp, void (*fn)(uint64_t pc));
uint64_t arch_frame_pointer(void);
/* The frame pointer a parked thread's switch frame saved (thread_arch.c). */
uint64_t arch_switch_frame_pointer(uint64_t saved_rsp);

/* Where the other CPUs are: each is NMIed and records its interrupted pc
 * and frame pointer (nmi.c); waits a short while for the answers. */
struct arch_snapshot {
	bool valid, user;
	uint64_t pc, fp;
};
int arch_snapshot_others(struct arch_snapshot *snap, int n);

/* Write back and invalidate every cache, flush this CPU's whole TLB
 * (global entries too): the worst case of kernel self-measurement. */
void arch_purge_caches_and_tlb(void);

/* Zero memory a page at a time (pmm, ICAs); bytes a multiple of 8. */
void arch_zero_pages(void *va, uint64_t bytes);
/* Copy bytes (a multiple of 8) with string instructions (ICA copies). */
void arch_copy_words(void *dst, const void *src, uint64_t bytes);

/* QEMU fw_cfg: a named file into buf (at most size - 1 bytes and a NUL);
 * its whole length, which is size or more if it was cut, or -1 if absent. */
int arch_fw_read_file(const char *name, char *buf, uint32_t size);

/*
 * Interrupt packaging (kernel/intr/; pack_arch.c and the lean stubs in
 * vectors.S).  A vector with a lean entry calls intr_pack_register(vector,
 * tsc) with only the scratch registers saved, unless it is diverted to the
 * full path (trap(), intr_dispatch).  Either switch may be flipped while
 * the vector fires: each is one byte store, and no IDT gate changes.
 */
void arch_intr_lean_entry(int vector, bool on);  /* on: the lean path, diverted until told; off: full path only */
void arch_intr_divert(int vector, bool on);      /* next interrupts take the full path */
void arch_intr_eoi(void);                        /* acknowledge the local interrupt controller */
unsigned arch_intr_block_upto(int vector);       /* hold vector's class and below; returns the old level */
void arch_intr_unblock(unsigned old);            /* back to the level block_upto returned */
int arch_intr_line_mask(int gsi, bool masked);   /* an I/O APIC input; a level line keeps its request */
/* out[0], out[1]: TSC before and after one store that (fire) raises vector on
 * this CPU, taken right after it; interrupts must be on.  Without fire the
 * store goes to memory: the two reads' own distance. */
void arch_intr_probe_self(int vector, bool fire, uint64_t out[2]);

/* Boot steps (arch_init.c), in the order kmain calls them. */
void arch_early_init(struct cpu *bsp);    /* descriptors and the per-CPU pointer */
void arch_trap_init(void);                /* exception and interrupt entry */
void arch_intc_init(struct cpu *bsp);     /* interrupt controllers, device lines masked */
int arch_intc_count(void);                /* device-line controllers found (I/O APICs) */
void arch_platform_init(const struct bootinfo *bi);   /* the firmware's tables: ACPI */
const char *arch_machine_name(void);      /* "pc" or "q35" (an ECAM in the MCFG) */

/* Device interrupt lines (GSIs): send gsi to vector on the CPU with id dest. */
int arch_intr_line_route(int gsi, int vector, uint32_t dest, bool active_low, bool level);
/* Send gsi, routed already, to the CPU with id dest instead; the rest stays. */
int arch_intr_line_retarget(int gsi, uint32_t dest);

/* An MSI message for vector on the CPU with id dest: the local APIC's
 * address window, fixed delivery, physical destination; edge-triggered. */
static inline void arch_msi_message(uint32_t dest, int vector, uint64_t *addr, uint32_t *data)
{
	*addr = 0xfee00000u | (dest << 12);
	*data = (uint32_t)vector;
}

/*
 * Vector map (x86_64 IDT numbers):
 *   0x00-0x1f  exceptions
 *   0x20-0x2f  the legacy 8259 PICs (masked; only spurious ones arrive)
 *   0x30-0xdf  device interrupts, handed out by intr_alloc_vector()
 *   0xe0-0xef  inter-processor interrupts and the LAPIC timer
 *   0xff       LAPIC spurious
 */
#define ARCH_INTR_VECTORS   256    /* vectors in all */
#define ARCH_INTR_FIRST_IRQ 0x20   /* the first that is not an exception */
#define VECTOR_DEVICE_FIRST 0x30
#define VECTOR_DEVICE_LAST  0xdf
#define VECTOR_RESCHED      0xe0   /* IPI: look at your run queue */
#define VECTOR_CALL         0xe1   /* IPI: run the queued cross-CPU calls */
#define VECTOR_TEST         0xe2   /* IPI: used by the self-tests */
#define VECTOR_TIMER        0xef   /* LAPIC timer */
#define VECTOR_SPURIOUS     0xff

/* Processor identity. */
uint32_t arch_cpu_apic_id(void);
/* Print the CPU features the kernel uses, one boot-log line (mmu.c). */
void arch_cpu_summary(void);

/* Other processors (smp_start.c, lapic.c).  arch_cpu_start wakes c (id,
 * apic_id set) and waits until it is online (smp_cpu_online); 0 or -1.
 * arch_send_ipi sends vector to the CPU with index cpu; arch_cpu_stop
 * halts c even with its interrupts off (an NMI). */
int arch_cpu_start(struct cpu *c);
void arch_send_ipi(int cpu, int vector);
void arch_cpu_stop(struct cpu *c);

/* a * b / c with a 128-bit intermediate; the quotient must fit in 64 bits. */
static inline uint64_t arch_muldiv64(uint64_t a, uint64_t b, uint64_t c)
{
	uint64_t q, r;
	__asm__("mulq %3; divq %4" : "=a"(q), "=&d"(r) : "a"(a), "rm"(b), "rm"(c) : "cc");
	return q;
}

/* User mode (user_arch.c, syscall_entry.S). */
void arch_user_start(uint64_t rip, uint64_t rsp, uint64_t a0, uint64_t a1) __attribute__((noreturn));
/* Supervisor mode (super_arch.c, super_entry.S): a process in ring 0 in its
 * own address space (paper 003's driver placement).  Start the running
 * thread there at rip on the stack rsp (in the kernel half); its pages
 * must be supervisor pages, and its I/O grant must say ring0 so its
 * system calls find their entry. */
#define ARCH_HAS_SUPERVISOR_PROCS 1
void arch_super_start(uint64_t rip, uint64_t rsp, uint64_t a0, uint64_t a1) __attribute__((noreturn));
long arch_copy_user(void *dst, const void *src, uint64_t n);        /* 0 or -EFAULT */
long arch_copy_user_str(char *dst, const char *src, uint64_t n);    /* length, n, or -EFAULT */
long arch_copy_user_rw(void *dst, const void *src, uint64_t n);     /* 0 or -EFAULT; 1 <= n <= 4096 */

/* Spin-wait hint: lets QEMU's round-robin TCG run the other vCPUs. */
static inline void arch_spin_hint(void) { __asm__ volatile("pause" : : : "memory"); }

/* Kernel memory barrier. */
static inline void arch_barrier(void) { __asm__ volatile("" : : : "memory"); }

#endif
