/*
 * mpio.h — paper 001's multiprocessor device access on the block devices:
 * two switches per device, both changed at run time (kernel/mpio/).
 *
 * Who issues commands (issue.c, the switch; issue_symmetric.c and
 * issue_funnel.c, its two paths): in MPIO_SYMMETRIC mode any CPU calls
 * the driver's submit; in MPIO_FUNNEL mode (OSF/1's unix_master funnel,
 * for a driver not MP-safe) the calling thread is moved to the master
 * CPU 0, submits there under the device's lock, waits there and is moved
 * back to the CPU it came from.  A funnelled device's interrupt is taken
 * on the master too, whatever policy is set.
 *
 * Who takes the interrupt (delivery.c): one of the MPIO_* policies.  The
 * interrupt's destination (MSI address or I/O APIC entry) is rewritten
 * through drv_irq_retarget: once when master, fixed or broadcast is set,
 * and at every submit for issuer, idle, busiest and load — so the choice
 * is the one made when the last request was issued, and may be stale
 * when a request completes.  Broadcast is emulated: the CPU the line
 * reaches relays the interrupt to every other online CPU by IPI, and all
 * of them race for the device's lock; the winner runs the driver's
 * handler, the others count a lost race.  Under the policies that move the
 * interrupt at each submit, an MSI that arrives where it no longer points,
 * with nothing in flight from before the move, is a leftover: it is
 * counted and left to the target (delivery.c).
 *
 * The I/O processor (iop.c, kernel option iop=N, paper 001's HDC PU):
 * CPU N runs no thread but a loop that takes commands from a mailbox per
 * issuing CPU and submits them to the drivers there; a device set to use
 * it (mp.iop) has its interrupt pointed at the IOP, and the IOP signals
 * each completion by IPI to the CPU the device's policy chooses
 * (mpio_iop_target), which wakes the waiter.  With the IOP on, the mode
 * is moot: the IOP is the device's funnel (one command at a time, under
 * the device's lock) and no thread moves to the master.
 *
 * A block device's state lives in struct blkdev (blk.h, d->mp); blk.c
 * calls mpio_submit/mpio_return around every request and mpio_complete
 * from blk_complete; blk_register calls mpio_attach.
 */
#ifndef HAKO_MPIO_H
#define HAKO_MPIO_H

#include <stdbool.h>
#include <stdint.h>
#include <spinlock.h>

#define MPIO_CPUS   16               /* = MAX_CPUS (cpu.h; checked in delivery.c) */
#define MPIO_MASTER 0                /* the master CPU */

enum mpio_mode { MPIO_SYMMETRIC, MPIO_FUNNEL };

enum mpio_policy {
	MPIO_POL_MASTER,             /* 2a-1 */
	MPIO_POL_FIXED,              /* 2a-2 */
	MPIO_POL_ISSUER,             /* 2b-1 */
	MPIO_POL_IDLE,               /* 2b-2 */
	MPIO_POL_BUSIEST,            /* 2b-3 */
	MPIO_POL_BROADCAST,          /* 2b-4 */
	MPIO_POL_LOAD,               /* beyond the paper */
	MPIO_POLICIES
};

/* One device's switches and counters (in struct blkdev). */
struct mpio {
	volatile int mode;           /* enum mpio_mode */
	volatile int policy;         /* enum mpio_policy, as set */
	volatile int fixed_cpu;
	/*
	 * The device's lock: a funnelled submit and every run of the
	 * driver's interrupt handler hold it, so a driver that is not
	 * MP-safe runs one activity at a time; broadcast's race is a
	 * trylock of it.  Taken before the driver's own lock.
	 */
	struct spinlock lock;
	struct spinlock route_lock;  /* target, aimed, before, the load view; retargets under it */
	volatile int inside;         /* symmetric submits running the driver now */
	bool has_irq;                /* the bound device has an interrupt attached */
	int relay_vector;            /* broadcast's IPI vector, or -1 */
	volatile int target;         /* the CPU the interrupt goes to now, -1: none */
	volatile uint64_t seq;       /* submits and policy changes, counted */
	volatile int inflight;       /* requests submitted and not completed */
	volatile uint64_t aimed;     /* the seq of the first request issued after the last move */
	volatile int before;         /* requests in flight issued before it (delivery.c: point) */
	volatile uint64_t raised;    /* broadcast: interrupts relayed ... */
	volatile uint64_t served;    /* ... and the last one a winner has handled */
	uint64_t load_when;          /* load: start of the current window (ns) */
	uint64_t load_seen[MPIO_CPUS];   /* load: each CPU's interrupt count then ... */
	uint64_t load_avg[MPIO_CPUS];    /* ... and its recent interrupts per window, averaged */
	/* Counters (zeroed by mpio_reset): */
	volatile uint64_t retargets, solo, solo_on_issuer;
	volatile uint64_t interrupts[MPIO_CPUS];
	volatile uint64_t lost[MPIO_CPUS];
	volatile uint64_t left[MPIO_CPUS];   /* leftover MSIs not run here: the target's work (delivery.c) */
	volatile uint64_t empty[MPIO_CPUS];  /* handler runs here that completed no request */
	/* The I/O processor (iop.c): */
	volatile int iop;            /* 1: new requests go to the IOP */
	volatile uint64_t iop_cmds;  /* commands the IOP submitted (counter) */
	volatile uint64_t iop_ipis[MPIO_CPUS];   /* completion IPIs it sent to each CPU (counter) */
};

struct blkdev;
struct blk_req;

/* Where a funnelled thread came from, to go back after the request. */
struct mpio_trip {
	bool funnelled;
	int home;                    /* the CPU it left */
	uint64_t affinity;           /* its CPUs before */
};

/* blk.c */
void mpio_attach(struct blkdev *d);                 /* at registration: defaults, the interrupt hook */
/* Issue r by the device's mode and route its interrupt by the policy;
 * sets r->issuer.  The driver's submit's result.  Returns with interrupts
 * off on the CPU it returns on (one push_off, made before the request was
 * issued), which the caller pops once it holds the request's wait lock: a
 * completion interrupt routed to this CPU is taken only after the caller
 * has gone to sleep or seen the request done, never on its way there.  A
 * real disk (tens of microseconds) never completes that soon; QEMU's,
 * completed on host threads, may, and the issuer's path would then depend
 * on host timing (the cost model's disk figures would not repeat). */
int mpio_submit(struct blkdev *d, struct blk_req *r, struct mpio_trip *trip);
void mpio_return(struct mpio_trip *trip);           /* after the wait: back home if funnelled */
void mpio_complete(struct blk_req *r, int cpu);     /* from blk_complete, on the completing CPU */

/* Control (sys_blk.c).  mpio_set's arguments are checked by mpio_check. */
#define MPIO_KEEP (-1)
int mpio_check(struct blkdev *d, int mode, int policy, int fixed_cpu);   /* 0 or -EINVAL */
void mpio_set(struct blkdev *d, int mode, int policy, int fixed_cpu);
int mpio_effective(const struct blkdev *d);         /* the policy applied */
void mpio_reset(struct blkdev *d);                  /* zero every counter of d */

/* The I/O processor (iop.c). */
void iop_init(void);                                /* boot, after the CPUs start: iop=N */
int iop_cpu(void);                                  /* the IOP's CPU, or -1 */
int iop_submit(struct blkdev *d, struct blk_req *r);   /* into this CPU's mailbox; 0 */
void iop_done(struct blk_req *r, int status);       /* from blk_complete, for an IOP request */
int mpio_check_iop(struct blkdev *d, int on);       /* 0 or -EINVAL (no IOP) */
void mpio_set_iop(struct blkdev *d, int on);        /* route the interrupt with it */
/* The CPU an IOP completion of r is signalled to by d's policy; -1: every CPU. */
int mpio_iop_target(struct blkdev *d, struct blk_req *r);

#endif
