/*
 * cpu.h — per-CPU state.
 *
 * struct cpu is reached through arch_this_cpu() (the arch's per-CPU base,
 * which points at the arch_cpu_head it starts with).  The fields
 * under "published" are written only by their own CPU and read by any CPU
 * without a lock — the cheap view of every CPU that idle-CPU and
 * busiest-CPU interrupt delivery needs.
 */
#ifndef HAKO_CPU_H
#define HAKO_CPU_H

#include <stdbool.h>
#include <stdint.h>
#include <arch/arch.h>
#include "sched.h"
#include "list.h"
#include "spinlock.h"

#define MAX_CPUS 16

struct thread;

struct cpu {
	struct arch_cpu_head head;  /* must stay first: the arch's per-CPU base points here */
	int id;                     /* 0 .. ncpus-1; 0 is the boot (master) CPU */
	uint32_t apic_id;

	int ncli;                   /* push_off nesting depth */
	int irq_nest;               /* interrupt handlers running with interrupts on (kernel/intr/) */
	bool intena;                /* were interrupts on before the first push_off? */
	uint64_t irq_off_since;     /* TSC when ncli went 0 -> 1 */
	uint64_t irq_off_max;       /* longest interrupts-off section seen (TSC) */

	struct thread *current;
	struct thread *idle_thread;
	uint64_t idle_stack;         /* base of the idle (boot) stack */
	struct runqueue rq;
	volatile bool need_resched;
	struct thread *prev;         /* thread switched away from, for sched_finish_switch */
	int prev_target;             /* CPU prev moves to after the switch, or -1 */
	bool direct_unlocked;        /* the switch to current was sched_switch_direct's without
				      * the run-queue lock: its resume has no lock to release */
	struct list_node timers;     /* armed timers, by deadline; under timer_lock */
	struct spinlock timer_lock;
	struct timer *volatile running_timer;   /* whose function the timer interrupt is calling */

	/* published */
	volatile bool online;
	volatile bool idle;         /* running its idle thread */
	volatile int cur_prio;      /* priority of the running thread */
	volatile int rq_len;        /* runnable threads waiting */
	volatile uint64_t ticks;    /* timer ticks taken */
	volatile uint64_t irqs;     /* device + IPI interrupts taken */
	uint64_t as_loads;          /* address-space switches: CR3 loads (vm_switch), paper 003 */
	volatile uint64_t ctx_switches;

	void *arch;                 /* struct arch_cpu: GDT, TSS, stacks */

	/* irqtrace=on (preempt_trace.h): the open section's start and context */
	uint64_t irq_off_site;      /* return address of its outermost push_off/spin_lock */
	uint16_t irq_off_ctx;       /* context it is charged to (uapi/hako_perf.h) */
	uint16_t irq_ctx;           /* the interrupt running here, or 0 */
	uint64_t spin_wait_ticks;   /* TSC spent waiting for spinlocks here, ever (spin_wait) */
	uint64_t irq_off_wait0;     /* spin_wait_ticks when the open section began */
};
/* The cost-model plugin (tools/costmodel/plugin.c) finds the running CPU
 * through the per-CPU base: it reads id right after the arch's head.
 * Keep the two in step. */
_Static_assert(sizeof(struct arch_cpu_head) == ARCH_CPU_HEAD_SIZE, "arch_cpu_head's size");
_Static_assert(__builtin_offsetof(struct cpu, id) == ARCH_CPU_HEAD_SIZE,
	       "tools/costmodel/plugin.c reads cpu->id right after the arch's head");

extern struct cpu cpus[MAX_CPUS];
extern int ncpus;

static inline struct cpu *this_cpu(void) { return arch_this_cpu(); }
static inline int cpu_id(void) { return arch_this_cpu()->id; }
int cpus_online(void);

#endif
