/*
 * core.h — drivers as processes (paper 003), the kernel's side
 * (kernel/drvproc/).  A device listed in `drvproc=` is bound at boot but
 * not attached in the kernel (dev/driver.c); instead the kernel spawns
 * its driver, the same source built as the program drv-DRIVER
 * (user/drvhost/), and that process — a "core" — attaches it through
 * system calls (syscall/sys_core.c):
 *
 *   core.c       the registry: spawning a core at boot, waiting for its
 *                registration, core_register, its end (grants taken back)
 *   core_grant.c what a core is granted from its device's manifest: MMIO
 *                windows mapped uncached into it, DMA memory the kernel
 *                allocates and maps (freed with the process), I/O port
 *                ranges opened in the CPU's I/O permission bitmap
 *   core_call.c  core-calls: a caller blocks, the core's thread receives
 *                the call (core_recv), copies the caller's data from the
 *                caller's address space (core_copyin), replies
 *   core_nic.c   the kernel's struct nic for the card (a proxy, so every
 *                user of cards works with either placement): sends from
 *                programs become core-calls, kernel senders queue, the
 *                interrupt is forwarded, received frames come back
 *   core_restart.c  a driver process that ends is started again from the
 *                initrd (the kernel's reincarnation thread), a watchdog
 *                kills one that stops serving, and faults are injected
 *
 * Every switch on these paths is counted per core (struct hako_core_stat).
 *
 * Locking: a core's wq.lock (LOCK_WAITQ) guards its calls, events and
 * transmit queue; it is taken under a card's rx_lock/tx_lock (the proxy's
 * operations), never the other way round.
 */
#ifndef HAKO_CORE_H
#define HAKO_CORE_H

#include <stdbool.h>
#include <stdint.h>
#include <arch/portio.h>
#include <driver.h>
#include <nic.h>
#include <sched.h>
#include <uapi/hako.h>

#define CORE_MAX      4          /* driver processes */
#define CORE_CALLS    8          /* calls waiting for one core */
#define CORE_TXQ      32         /* frames kernel senders may queue for one card */

struct proc;

/* A call in flight, on its caller's kernel stack until the reply. */
struct core_call {
	int id;
	int entry;
	struct proc *caller;         /* NULL: the kernel (no data) */
	uint64_t uaddr, len;         /* the caller's buffer */
	long result;
	bool done;
	uint64_t t0;                 /* TSC at core_call's entry */
};

struct core_dma {
	uint64_t pa, pages, va;      /* pages 0: a free slot */
	uint64_t bytes;
};

/* What a core holds of its device (core_grant.c). */
struct core_grant {
	struct arch_io_grant io;     /* port ranges open to its threads */
	uint64_t mmio_va[DRV_BARS];  /* 0: not mapped */
	struct core_dma dma[DRV_DMA_MAX];
	uint64_t dma_used;
	uint64_t next_va;            /* next free address in HAKO_DRV_AREA */
	bool bus_master;
};

struct core_txq_slot {
	uint16_t len;
	uint8_t data[ETH_FRAME_MAX];
};

struct core {
	struct drv_dev *dev;         /* NULL: a test core (ports only) */
	struct proc *proc;           /* NULL once it ended */
	int pid;
	bool registered;             /* its card is in nic.c (from the first registration on) */
	bool dead;                   /* no driver process serves the card now (ended, restarting) */
	/* Restart (core_restart.c; the reincarnation thread's, except where noted): */
	bool restart;                /* ended: to be started again (set by core_proc_end) */
	int ended_pid;               /* the ended process, a zombie of the kernel to collect */
	int failed_starts;           /* ended this many times in a row before registering */
	bool gave_up;                /* not started again until core_ctl RESTART (apart from the
	                              * counters: core_ctl RESET leaves it) */
	int fail_inits;              /* fault injection: the next starts are told to fail */
	uint64_t start_ns;           /* when the current process was spawned */
	uint64_t restart_ns;         /* not started again before this (the back-off) */
	uint64_t progress;           /* core_recv, core_reply, IRQ_DONE so far (the watchdog's) */
	uint64_t wd_progress, wd_ns; /* the watchdog's last look: progress then, and since when */
	bool flipped;                /* this process: a TEXT or DATA fault hit its memory */
	bool wild_window;            /* this process, unflipped, handles a WILD event (its requests
	                              * until its next core_recv are checked as wild) */
	uint64_t accepted_gen;       /* this process: frames it accepted (send_ok + txq_taken) */
	uint64_t done_gen;           /* of those, reported done (never more than accepted_gen) */
	struct hako_core_nicstat base;   /* the ended processes' counters, summed */
	struct hako_core_nicstat last;   /* the current process's last report */
	uint64_t kdrops;             /* received frames the kernel dropped (no room), all along */
	int nic_index;               /* the card, once registered */
	struct core_grant grant;
	struct nic nic;              /* the kernel's card (core_nic.c) */
	struct waitq wq;             /* the core's thread waits here; its lock guards the rest */
	struct waitq reply_wq;       /* callers wait here (guarded by wq.lock) */
	struct core_call *queue[CORE_CALLS];
	uint32_t q_head, q_tail;     /* free running */
	struct core_call *active;    /* received, not yet replied */
	int next_call;
	uint32_t events;             /* HAKO_CORE_EV_* not yet received */
	uint64_t irq_t0;             /* TSC when the forwarded interrupt arrived */
	bool rx_full;                /* the receiver said no room: tell it when there is */
	struct core_txq_slot *txq;   /* CORE_TXQ slots */
	uint32_t tx_head, tx_tail;
	struct hako_core_stat stat;
};

/* core.c */
bool core_placed(const struct driver *drv);  /* drvproc= lists it (all: every network driver) */
void core_start_all(void);                /* boot: spawn the cores, wait for their registration */
struct core *core_of_proc(struct proc *p);   /* p's core, NULL */
struct core *core_of_nic(int nic);        /* the card's core if a process drives it, NULL */
int core_register(struct core *c, const struct hako_core_reg *reg);
int core_spawn(struct core *c);           /* start drv-DRIVER DEVICE for c (boot, restart) */
int core_count(void);
struct core *core_get(int i);
void core_proc_end(struct proc *p);       /* p ends: its core's grants go */
void core_switched(struct thread *from, struct thread *to, bool as_switch);   /* the scheduler */
/* A core without a device, granted ports [base, base + size) only (ktest of the I/O bitmap). */
int core_spawn_test(const char *path, uint16_t base, uint16_t size);
void core_stat(int nic, struct hako_core_stat *out);
void core_stat_reset(int nic);
struct hako_core_stat *core_kernel_stat(int nic);   /* the counters of a card driven in the kernel */

/* core_restart.c */
void core_restart_start(void);            /* the reincarnation thread (with any driver process) */
void core_ended(struct core *c, int status, bool served);   /* core_proc_end: count, restart */
int core_inject(int nic, struct hako_core_inject *spec);
int core_restart_given_up(int nic);       /* core_ctl RESTART */

/* core_grant.c (checks the manifest; -EPERM outside it) */
int core_grant_mmio(struct core *c, int bar, struct hako_drv_grant *out);
int core_grant_ports(struct core *c, int bar, struct hako_drv_grant *out);
int core_grant_dma(struct core *c, uint64_t bytes, struct hako_drv_dma *out);
int core_free_dma(struct core *c, uint64_t addr);
void core_grant_bus_master(struct core *c);
void core_grant_intx(struct core *c, bool on);   /* INTx device: may it assert its line */
void core_revoke(struct core *c);         /* bus mastering off, INTx off, DMA freed, grants forgotten */

/* core_call.c */
long core_call(struct core *c, struct proc *caller, int entry, uint64_t uaddr, uint64_t len);
long core_recv(struct core *c, struct hako_core_msg *msg);   /* msg->st in; fills the rest */
int core_reply(struct core *c, int call, long result);
long core_copy(struct core *c, int call, uint64_t off, uint64_t ubuf, uint64_t len, bool in);
void core_post(struct core *c, uint32_t events);          /* caller holds nothing */
void core_fail_calls(struct core *c);                     /* the core died: -EPIPE to every caller */

/* core_nic.c */
int core_nic_register(struct core *c, const struct hako_core_reg *reg);
long core_nic_rx(struct core *c, const uint8_t *frame, uint64_t len);
int core_irq_done(struct core *c, bool mine);
void core_nic_dead(struct core *c);       /* the driver ended: its line let through, queue dropped */
void core_nic_take_stats(struct core *c, const struct hako_core_nicstat *st);   /* holds wq.lock */
int core_txq_take(struct core *c, uint8_t *buf);          /* caller holds wq.lock; length or 0 */

#endif
