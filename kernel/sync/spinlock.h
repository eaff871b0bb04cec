/*
 * spinlock.h — fair (ticket) spinlocks and the lock order.
 *
 * Taking a lock disables interrupts on this CPU until the last lock it
 * holds is released (push_off/pop_off nest, as in xv6), so a lock holder
 * is never preempted and an interrupt handler never spins on a lock its
 * own CPU holds.  Tickets make the lock FIFO-fair between CPUs.
 */
#ifndef HAKO_SPINLOCK_H
#define HAKO_SPINLOCK_H

#include <stdbool.h>
#include <stdint.h>

/*
 * The lock order: every lock has one of these ranks, and a CPU may take a
 * lock only while every lock it already holds has a lower rank.  Locks of
 * one rank are never held together: two run queues, timer lists, call
 * queues, address spaces, cards or wait queues are always taken one after
 * the other (steal and migration drop one run queue before the next).  A
 * guarded wait queue (waitq_init_guarded) has no lock of its own in use:
 * its guard is the lock, and it has the guard's rank.  spin_trylock never
 * waits, so it is not held to the order (the thread dump uses it).
 *
 * The debug kernel (make kernel-debug, built with -DHAKO_LOCKCHECK) checks
 * the rule in every spin_lock and panics, naming both locks, on a break.
 * The normal kernel compiles the check out: its lock path is the
 * unchecked one, instruction for instruction.
 */
enum lock_rank {
	LOCK_NIC_USER = 1,  /* nic_user.c: who owns each card; then its queue (LOCK_WAITQ) */
	LOCK_NIC,           /* nic.c: card registry and shared INTx lines; routes a line under it */
	LOCK_INTR_PACK,     /* intr_source.c: packaging sources and lines; registers vectors under it */
	LOCK_INTR,          /* intr.c: the vector table */
	LOCK_PROC_JOIN,     /* proc.c p->join_wq: a process's thread slots, exiting, status; a kill
			     * interrupts its threads under it, taking what they sleep on */
	LOCK_NIC_RX,        /* nic.c n->rx_lock: receive ring and receiver; delivers into a card
			     * queue (LOCK_WAITQ) and may print */
	LOCK_NIC_TX,        /* nic.c n->tx_lock: transmit ring */
	LOCK_MPIO_DEV,      /* mpio.h d->mp.lock: a block device's funnelled submits and its
			     * interrupt handler (the driver's lock, then completion, under it) */
	LOCK_DRIVER,        /* drvenv.h drv_lock: a driver's own device state (block drivers);
			     * completes requests (LOCK_WAITQ) under it */
	LOCK_WAITQ,         /* a wait queue and what it guards: proc.c tree_wq (parents, children,
			     * the process table), thread.c exit_wq, sem.c, nic_user.c card queues,
			     * console_input.c; wakes under it (LOCK_RUNQUEUE) */
	LOCK_THREADS,       /* thread.c: the list of all threads; the thread dump prints under it */
	LOCK_CONSOLE,       /* console.c: output; the write call copies from user memory under
			     * it, so what a page fault takes (ICA, PROC, ADDRSPACE, PMM) is later */
	LOCK_ICA,           /* ica.c ica_lock: ICAs, ISPC ports and requests (ispc.c), and the
			     * guard of the ports' wait queues */
	LOCK_PROC,          /* proc_mem.c p->lock: a process's break and demand pages */
	LOCK_ISOCH,         /* isoch.c: periodic threads and each CPU's reservations; sets their
			     * priorities (LOCK_RUNQUEUE) and cancels their timers under it */
	LOCK_RUNQUEUE,      /* sched.c: a CPU's run queue; held across the context switch */
	LOCK_TIMERS,        /* time.c: a CPU's armed timers (armed with the run queue held) */
	LOCK_HEAP,          /* heap.c: the slab classes */
	LOCK_ADDRSPACE,     /* mmu.c: page tables of one address space (kernel_as or a process's) */
	LOCK_PMM,           /* pmm.c: the frame bitmap */
	LOCK_KSTACK,        /* kstack.c: kernel stack slots */
	LOCK_NIC_TRAFFIC,   /* nic_traffic.c: the kernel senders' owners */
	LOCK_INTR_PROBE,    /* intr_pack_ctl.c: starting an interrupt probe */
	LOCK_SMP_CALL,      /* smp.c: one CPU's queue of cross-CPU calls */
	LOCK_MPIO_ROUTE,    /* mpio/delivery.c d->mp.route_lock: where a device's interrupt goes;
			     * rewrites it under it (LOCK_IOAPIC, LOCK_PCI_CFG) */
	LOCK_IOAPIC,        /* ioapic.c: I/O APIC redirection registers */
	LOCK_PCI_CFG,       /* pci_cfg.c: the configuration-space ports */
	LOCK_BLK,           /* blk.c: the block-device registry */
	LOCK_ALONE,         /* tests and benchmarks (test_smp.c, kbench.c): nothing taken under it */
};

struct spinlock {
	volatile uint32_t next;     /* next ticket to hand out */
	volatile uint32_t owner;    /* ticket now being served */
	const char *name;
	int cpu;                    /* holder's CPU id, -1 if free */
	int rank;                   /* enum lock_rank */
};

#define SPINLOCK_INIT(n, r) { 0, 0, (n), -1, (r) }

void spin_init(struct spinlock *l, const char *name, int rank);
void spin_lock(struct spinlock *l);
void spin_unlock(struct spinlock *l);
bool spin_trylock(struct spinlock *l);
bool spin_held(struct spinlock *l);     /* by this CPU */

/* Take l's next ticket if it is the one served (l free, nobody waiting):
 * the step of every trylock (spin_trylock, spin_nested.h).  The caller
 * marks the holder and keeps interrupts off as its lock kind asks. */
static inline bool spin_take_if_free(struct spinlock *l)
{
	uint32_t owner = __atomic_load_n(&l->owner, __ATOMIC_RELAXED);
	uint32_t expect = owner;
	return __atomic_compare_exchange_n(&l->next, &expect, owner + 1, false,
					   __ATOMIC_ACQUIRE, __ATOMIC_RELAXED);
}

void push_off(void);
void pop_off(void);
extern bool irq_trace;              /* time interrupts-off sections (irqtrace=on) */

/* Is the lock order checked?  A constant, tested with an ordinary `if` so
 * that both builds compile the check and the normal one drops it. */
#ifdef HAKO_LOCKCHECK
#define LOCK_CHECK true
#else
#define LOCK_CHECK false
#endif
#define LOCKS_HELD_MAX 8            /* deepest nesting the check follows */

/* The locks one CPU holds, in the order taken (kept by the debug kernel;
 * outside struct cpu, whose size the normal kernel's code depends on). */
struct held_locks {
	struct spinlock *lock[LOCKS_HELD_MAX];
	int n;
};
/* This CPU's; always empty in the normal kernel.  Meaningful while the
 * caller holds a lock (interrupts are off, so it stays on this CPU). */
const struct held_locks *held_locks_here(void);
/* The held lock that forbids taking l, or NULL if the order allows it. */
const struct spinlock *lock_order_conflict(struct spinlock *const *held, int nheld,
					   const struct spinlock *l);

#endif
