/*
 * uapi/hako_perf.h — kernel self-measurement (paper 004): perf_ctl.
 *
 * perf_ctl(HAKO_PERF_PURGE, NULL) writes back and invalidates every cache
 * and flushes the calling CPU's whole TLB, global entries too
 * (arch_purge_caches_and_tlb), and returns 0: what a measurement does
 * before timing a call's worst case (user/kperf).  Pin the thread first:
 * only the calling CPU's TLB is flushed.  Under QEMU icount the purge
 * costs a few instructions and no time; the cost model (--model) sees it.
 * arg must be NULL (-EINVAL otherwise, and for an unknown op).
 *
 * perf_ctl(HAKO_PERF_PREEMPT_GET, struct hako_perf_preempt *out): the
 * longest preemption-off section seen in each context since boot or the
 * last HAKO_PERF_PREEMPT_RESET (arg NULL), in TSC ticks (instructions
 * under icount).  A preemption-off section is an interrupts-off section
 * (the outermost push_off or spin_lock to its pop_off or spin_unlock) or
 * a whole interrupt (trap entry to its preemption point; handlers that
 * turn interrupts back on still hold preemption off).  Each is charged to
 * the context it began in: the interrupt's vector, else the system call
 * the thread is in (or was last in: a user thread keeps its last call's
 * number until it enters the kernel again), else a kernel thread.
 * Recorded only with irqtrace=on (out->enabled says); 0 or -EFAULT.
 *
 * A section's ticks split into the time its CPU spun waiting for a
 * spinlock (spin_wait) and the rest, its own work.  The split matters
 * under QEMU's single-threaded icount: a waiting vCPU's `pause` ends its
 * turn and the clock runs on through every other vCPU's turn (up to the
 * next timer deadline each), so a wait there measures the other CPUs,
 * not the lock holder.  held/held_site: the longest own work per context.
 */
#ifndef HAKO_UAPI_PERF_H
#define HAKO_UAPI_PERF_H

#include <stdint.h>

#define HAKO_PERF_PURGE		1
#define HAKO_PERF_PREEMPT_GET	2
#define HAKO_PERF_PREEMPT_RESET	3
#define HAKO_PERF_INTERNAL	4
#define HAKO_PERF_TLB_MISSES	5
#define HAKO_PERF_TLB_MISS_CLASSES 6

/*
 * perf_ctl(HAKO_PERF_TLB_MISSES, uint64_t *out): the TLB misses the
 * kernel's miss handler has served since boot, on an arch whose TLB is
 * loaded by software (SH-4: every UTLB miss the handler loads, paper
 * 002's measure); -ENOSYS where the hardware walks the tables (x86).
 * Open to every process (no privilege); 0, -EFAULT or -ENOSYS.
 *
 * perf_ctl(HAKO_PERF_TLB_MISS_CLASSES, struct hako_perf_tlb_classes *out):
 * the same misses by the class of the address that missed: a user
 * instruction fetch, a user stack, other user data (image, heap), the ICA
 * window, the kernel's own translated addresses (SH-4: P3, the kernel
 * stacks).  They add up to HAKO_PERF_TLB_MISSES's count.  Open to every
 * process; 0, -EFAULT or -ENOSYS.
 */
#define HAKO_TLB_MISS_CODE	0
#define HAKO_TLB_MISS_STACK	1
#define HAKO_TLB_MISS_DATA	2
#define HAKO_TLB_MISS_ICA	3
#define HAKO_TLB_MISS_KERNEL	4
#define HAKO_TLB_MISS_CLASSES	5

struct hako_perf_tlb_classes {
	uint64_t misses[HAKO_TLB_MISS_CLASSES];
};

/*
 * perf_ctl(HAKO_PERF_INTERNAL, struct hako_perf_internal *io): time one
 * kernel-internal interface the kperf way (kernel/measure/kinternal.c),
 * with interrupts off so no other thread's time counts.  in: index (0 ..
 * count - 1) and worst (0: called twice back to back, the second timed;
 * 1: caches and TLB purged first).  out: ticks of the timed call, name,
 * count (how many interfaces there are, also for an index past them,
 * which gives -ENOENT).  Under --model the timed call is region
 * REGION_KINTERNAL + 2 * index + worst.  0, -EFAULT, -ENOENT or -ENOMEM.
 */
struct hako_perf_internal {
	uint32_t index, worst;   /* in */
	uint32_t count;          /* out: interfaces there are */
	uint32_t region;         /* out: its region id */
	uint64_t ticks;          /* out: the timed call, TSC ticks */
	char name[32];           /* out */
	char note[64];           /* out: what exactly was timed */
};

/* Contexts, the index of hako_perf_preempt.ctx. */
#define HAKO_PERF_CTX_KTHREAD	0                  /* a kernel thread */
#define HAKO_PERF_MAX_CALLS	64
#define HAKO_PERF_CTX_CALL(nr)	(1 + (nr))         /* system call nr < 64 */
#define HAKO_PERF_CTX_TRAP	(1 + HAKO_PERF_MAX_CALLS)   /* an exception from user mode */
#define HAKO_PERF_CTX_IRQ(v)	(HAKO_PERF_CTX_TRAP + 1 + (v) - 32)   /* interrupt vector v >= 32 */
#define HAKO_PERF_NCTX		HAKO_PERF_CTX_IRQ(256)
#define HAKO_PERF_MAX_CPUS	16

struct hako_perf_section {
	uint64_t max;            /* longest section, TSC ticks */
	uint64_t count;          /* sections seen */
	uint64_t site;           /* where the longest began: the outermost push_off's
				  * caller; 0 for a whole interrupt */
	int32_t cpu;             /* the CPU it ran on; -1 if none was seen */
	char sym[36];            /* site as symbol+offset, or "" */
	uint64_t wait;           /* of max: ticks spent waiting for spinlocks */
	uint64_t held;           /* longest section minus its spinlock waits */
	uint64_t held_site;      /* where that one began (0: a whole interrupt) */
	int32_t held_cpu;
	char held_sym[36];
};

struct hako_perf_preempt {
	uint32_t enabled;        /* irqtrace=on */
	uint32_t ncpus;
	uint64_t cpu_max[HAKO_PERF_MAX_CPUS];   /* longest section per CPU, any context */
	struct hako_perf_section ctx[HAKO_PERF_NCTX];
};

#endif
