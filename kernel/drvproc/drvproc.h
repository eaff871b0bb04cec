/*
 * drvproc.h — drivers as processes (paper 003), the kernel's side
 * (kernel/drvproc/).  A device listed in `drvproc=` is bound at boot but
 * not attached in the kernel (kernel/drivers/driver.c); instead the kernel
 * spawns its driver, the same source built as the program drv-DRIVER
 * (user/drvhost/ and the kernel/drivers/ files named *_process.c), and that process
 * attaches it through system calls (syscall/sys_drvproc.c):
 *
 *   drvproc.c          the registry: spawning a driver process at boot,
 *                      waiting for its registration, drvproc_register, its
 *                      end (grants taken back)
 *   drvproc_grant.c    what a driver process is granted from its device's
 *                      manifest: MMIO windows mapped uncached into it, DMA
 *                      memory the kernel allocates and maps (freed with the
 *                      process), I/O port ranges opened in the CPU's I/O
 *                      permission bitmap
 *   drvproc_call.c     drvproc calls: a caller blocks, the driver process's
 *                      thread receives the call (drvproc_recv), copies the
 *                      caller's data from the caller's address space
 *                      (drvproc_copyin), replies
 *   drvproc_nic.c      the kernel's struct nic for the card (a proxy, so
 *                      every user of cards works with either placement):
 *                      sends from programs become drvproc calls, kernel
 *                      senders queue, the interrupt is forwarded, received
 *                      frames come back
 *   drvproc_blk.c      the kernel's struct blkdev for a block device (a
 *                      proxy registered in blk.c): requests are queued for
 *                      the process (EV_BLK), which takes them, moves their
 *                      data with HAKO_DRV_BLK_DATA and completes them
 *   drvproc_super.c    paper 003's own placement: the same driver process in
 *                      supervisor mode (ring 0, its own address space), chosen
 *                      by drvmode=super
 *   drvproc_restart.c  a driver process that ends is started again from
 *                      the initrd (the kernel's reincarnation thread), a
 *                      watchdog kills one that stops serving, and faults
 *                      are injected
 *
 * Every switch on these paths is counted per driver process (struct
 * hako_drvproc_stat; the scheduler counts its threads' switches in its
 * proc_service, proc.h).
 *
 * Locking: a driver process's wq.lock (LOCK_WAITQ) guards its calls,
 * events and transmit queue; it is taken under a card's rx_lock/tx_lock (the proxy's
 * operations), never the other way round.
 */
#ifndef HAKO_DRVPROC_H
#define HAKO_DRVPROC_H

#include <stdbool.h>
#include <stdint.h>
#include <arch/portio.h>
#include <driver.h>
#include <blk_driver.h>
#include <nic.h>
#include <proc.h>
#include <sched.h>
#include <hako.h>

#define DRVPROC_MAX      4          /* driver processes */
#define DRVPROC_CALLS    8          /* calls waiting for one driver process */
#define DRVPROC_TXQ      32         /* frames kernel senders may queue for one card */
#define DRVPROC_BLKQ     64         /* block requests waiting for one driver process */
#define DRVPROC_BLK_SLOTS HAKO_DRV_BLK_SLOTS   /* block requests one driver process has in flight */
#define DRVPROC_BLK_BOUNCE (DRVPROC_BLK_SLOTS * BLK_SIZE)   /* its request buffers: DMA memory
                                     * granted beyond the manifest's (drvproc_grant.c) */

struct proc;

/* A call in flight, on its caller's kernel stack until the reply. */
struct drvproc_call {
	int id;
	int entry;
	struct proc *caller;         /* NULL: the kernel (no data) */
	uint64_t uaddr, len;         /* the caller's buffer */
	long result;
	bool done;
	uint64_t t0;                 /* TSC at drvproc_call's entry */
};

struct drvproc_dma {
	uint64_t pa, pages, va;      /* pages 0: a free slot */
	uint64_t bytes;
};

/* What a driver process holds of its device (drvproc_grant.c). */
struct drvproc_grant {
	struct arch_io_grant io;     /* port ranges open to its threads */
	uint64_t mmio_va[DRV_BARS];  /* 0: not mapped */
	struct drvproc_dma dma[DRV_DMA_MAX];
	uint64_t dma_used;
	uint64_t next_va;            /* next free address in HAKO_DRV_AREA */
	bool bus_master;
};

struct drvproc_txq_slot {
	uint16_t len;
	uint8_t data[ETH_FRAME_MAX];
};

struct drvproc_blk;

struct drvproc {
	struct proc_service service; /* its process's record (proc.h): switches, ports; first, so
	                              * drvproc_of_proc is p->service as it is */
	struct drv_dev *dev;         /* NULL: a test driver process (ports only) */
	int type;                    /* HAKO_DRVPROC_NET or _BLK: its driver's class, once registered */
	struct drvproc_blk *blk;     /* a block device's proxy and requests (drvproc_blk.c) */
	struct proc *proc;           /* NULL once it ended */
	int pid;
	bool registered;             /* its card (nic.c) or disk (blk.c) is entered: from the first
	                              * registration on */
	bool dead;                   /* no driver process serves the device now (ended, restarting) */
	/* Restart (drvproc_restart.c; the reincarnation thread's, except where noted): */
	bool restart;                /* ended: to be started again (set by drvproc_proc_end) */
	int ended_pid;               /* the ended process, a zombie of the kernel to collect */
	int failed_starts;           /* ended this many times in a row before registering */
	bool gave_up;                /* not started again until drvproc_ctl RESTART (apart from the
	                              * counters: drvproc_ctl RESET leaves it) */
	int fail_inits;              /* fault injection: the next starts are told to fail */
	uint64_t start_ns;           /* when the current process was spawned */
	uint64_t restart_ns;         /* not started again before this (the back-off) */
	uint64_t progress;           /* drvproc_recv, drvproc_reply, IRQ_DONE so far (the watchdog's) */
	uint64_t wd_progress, wd_ns; /* the watchdog's last look: progress then, and since when */
	bool flipped;                /* this process: a TEXT or DATA fault hit its memory */
	bool wild_window;            /* this process, unflipped, handles a WILD event (its requests
	                              * until its next drvproc_recv are checked as wild) */
	const char *broke;           /* this process broke the call protocol (how; drvproc_call.c):
	                              * the restart thread kills it; NULL: it has not */
	bool broke_killed;           /* this process: killed for it already */
	uint64_t send_refusals;      /* this process: sends it refused (not -EFAULT, the caller's
	                              * buffer) since it last accepted one (drvproc_call.c) */
	uint64_t wd_send_ok, wd_refusals, wd_send_ns;   /* the watchdog's last look at sends */
	uint64_t accepted_gen;       /* this process: frames it accepted (send_ok + txq_taken) */
	uint64_t done_gen;           /* of those, reported done (never more than accepted_gen) */
	struct hako_drvproc_nicstat base;   /* the ended processes' counters, summed */
	struct hako_drvproc_nicstat last;   /* the current process's last report */
	uint64_t kdrops;             /* received frames the kernel dropped (no room), all along */
	int nic_index;               /* a network card's index, once registered */
	struct drvproc_grant grant;
	struct nic nic;              /* the kernel's card (drvproc_nic.c) */
	struct waitq wq;             /* the driver process's thread waits here; its lock guards the rest */
	struct waitq reply_wq;       /* callers wait here (guarded by wq.lock) */
	struct drvproc_call *queue[DRVPROC_CALLS];
	uint32_t q_head, q_tail;     /* free running */
	struct drvproc_call *active;    /* received, not yet replied */
	int next_call;
	uint32_t events;             /* HAKO_DRVPROC_EV_* not yet received */
	uint64_t irq_t0;             /* TSC when the forwarded interrupt arrived */
	bool rx_full;                /* the receiver said no room: tell it when there is */
	struct drvproc_txq_slot *txq;   /* DRVPROC_TXQ slots */
	uint32_t tx_head, tx_tail;
	struct hako_drvproc_stat stat;  /* its switches are counted in service instead */
};

/* drvproc.c */
bool drvproc_placed(const struct driver *drv);  /* drvproc= lists it (all: every network driver) */
void drvproc_start_all(void);                /* boot: spawn them, wait for their registration */
struct drvproc *drvproc_of_proc(struct proc *p);   /* p's driver process, NULL */
struct drvproc *drvproc_of_nic(int nic);        /* the card's driver process, NULL */
int drvproc_register(struct drvproc *c, const struct hako_drvproc_reg *reg);
int drvproc_spawn(struct drvproc *c);           /* start drv-DRIVER DEVICE for c (boot, restart) */
int drvproc_count(void);
struct drvproc *drvproc_get(int i);
void drvproc_init(void);                  /* boot: drvproc_proc_end becomes an exit hook */
void drvproc_proc_end(struct proc *p);       /* p ends: its driver process's grants go */
/* A driver process without a device, granted ports [base, base + size) only
 * (ktest of the I/O bitmap). */
int drvproc_spawn_test(const char *path, uint16_t base, uint16_t size);
void drvproc_stat(int nic, struct hako_drvproc_stat *out);
void drvproc_stat_reset(int nic);
struct hako_drvproc_stat *drvproc_kernel_stat(int nic);   /* the counters of a card driven in the kernel */

/* drvproc_super.c */
unsigned drvproc_spawn_mode(void);           /* drvmode=: PROC_SUPERVISOR or 0 (ring 3) */

/* drvproc_restart.c */
void drvproc_restart_start(void);            /* the reincarnation thread (with any driver process) */
void drvproc_ended(struct drvproc *c, int status, bool served);   /* drvproc_proc_end: count, restart */
int drvproc_inject(int nic, struct hako_drvproc_inject *spec);
int drvproc_restart_given_up(int nic);       /* drvproc_ctl RESTART */

/* drvproc_grant.c (checks the manifest; -EPERM outside it) */
int drvproc_grant_mmio(struct drvproc *c, int bar, struct hako_drv_grant *out);
int drvproc_grant_ports(struct drvproc *c, int bar, struct hako_drv_grant *out);
int drvproc_grant_dma(struct drvproc *c, uint64_t bytes, struct hako_drv_dma *out);
int drvproc_free_dma(struct drvproc *c, uint64_t addr);
void drvproc_grant_bus_master(struct drvproc *c);
void drvproc_grant_intx(struct drvproc *c, bool on);   /* INTx device: may it assert its line */
void drvproc_revoke(struct drvproc *c);         /* bus mastering, INTx off; DMA freed; grants gone */

/* drvproc_call.c */
long drvproc_call(struct drvproc *c, struct proc *caller, int entry, uint64_t uaddr, uint64_t len);
long drvproc_recv(struct drvproc *c, struct hako_drvproc_msg *msg);   /* msg->st in; fills the rest */
int drvproc_reply(struct drvproc *c, int call, long result);
long drvproc_copy(struct drvproc *c, int call, uint64_t off, uint64_t ubuf, uint64_t len, bool in);
void drvproc_post(struct drvproc *c, uint32_t events);          /* caller holds nothing */
void drvproc_fail_calls(struct drvproc *c);                     /* it died: -EPIPE to every caller */

/* drvproc_nic.c */
int drvproc_nic_register(struct drvproc *c, const struct hako_drvproc_reg *reg);
long drvproc_nic_rx(struct drvproc *c, const uint8_t *frame, uint64_t len);
int drvproc_irq_done(struct drvproc *c, bool mine);
void drvproc_nic_dead(struct drvproc *c);       /* the driver ended: its line let through, queue dropped */
void drvproc_nic_take_stats(struct drvproc *c, const struct hako_drvproc_nicstat *st);   /* holds wq.lock */
int drvproc_txq_take(struct drvproc *c, uint8_t *buf);          /* caller holds wq.lock; length or 0 */

/* drvproc_blk.c */
int drvproc_blk_register(struct drvproc *c, const struct hako_drvproc_reg *reg);
int drvproc_blk_index(const struct drvproc *c);   /* its blk.c index, -1 */
int drvproc_blk_take(struct drvproc *c, struct hako_drv_blkreq *out);
int drvproc_blk_data(struct drvproc *c, int slot, bool to_kernel, uint64_t uva);
int drvproc_blk_done(struct drvproc *c, int slot, int status);
void drvproc_blk_dead(struct drvproc *c);       /* the driver ended: its requests fail with -EIO */
int drvproc_irq_attach(struct drvproc *c, int cpu);   /* a block device's interrupt, forwarded */
int drvproc_blk_irq_done(struct drvproc *c);

#endif
