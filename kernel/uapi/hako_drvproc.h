/*
 * hako_drvproc.h — drivers as processes (paper 003): the system calls of a
 * driver process and of the programs that call drivers.
 *
 * A driver process is spawned by the kernel at boot for a device listed
 * in `drvproc=` (program drv-DRIVER, arguments: the device's name and
 * index).  It learns its device (drv_ctl HAKO_DRV_INFO), asks for what its
 * manifest grants (MMIO windows and DMA memory mapped into it at
 * HAKO_DRV_AREA, I/O port ranges opened in the CPU's I/O bitmap), sets the
 * device up, and ends its initialisation with drvproc_register: device
 * type, entry identifiers, interrupt handler.  From then on it loops in
 * drvproc_recv, which returns a call (drvproc_call from a program, or the
 * kernel on a program's behalf: nic_send) or events (its device
 * interrupted, the kernel queued frames or block requests, the interrupt
 * mask changed).  A call's data stays in the caller's address space: the
 * driver copies it with drvproc_copyin/drvproc_copyout and answers with
 * drvproc_reply.  A block device's requests are taken with drv_ctl
 * HAKO_DRV_BLK_TAKE, their data moved with HAKO_DRV_BLK_DATA and their
 * end told with HAKO_DRV_BLK_DONE.
 *
 * Driver-process ids (drvproc_call, drvproc_ctl) are network-card indices
 * (nic_ctl): a card is driven by a driver process or by the driver in the
 * kernel, and both calls take both ("in-kernel drivers are called through
 * the same interface").
 *
 * Faults (phase 2): when a driver process ends — a fault, a kill, the
 * kernel's watchdog (work pending, no progress for 500 ms), exit — the
 * kernel takes its grants back, fails its calls in flight with -EPIPE
 * and starts drv-DRIVER again from the initrd; the new process registers
 * the same card.  Meanwhile calls and sends get -EPIPE.  drvproc_ctl INJECT
 * (programs that are not drivers) injects faults into a driver process.
 */
#ifndef HAKO_UAPI_DRVPROC_H
#define HAKO_UAPI_DRVPROC_H

#include <stdint.h>

/* Where the user half's windows sit: hako.h. */
#define HAKO_USER_SHIFT        (__SIZEOF_POINTER__ == 8 ? 32 : 16)

#define HAKO_DRV_AREA       (0x5000ull << HAKO_USER_SHIFT)   /* a driver process's MMIO and DMA windows */
#define HAKO_DRV_AREA_SIZE  (1ull << (HAKO_USER_SHIFT == 32 ? 30 : 28))

/* drv_ctl(op, arg): a driver process's own device.  -EPERM from any other process. */
#define HAKO_DRV_INFO       0    /* arg: struct hako_drv_info, out */
#define HAKO_DRV_MMIO       1    /* arg: struct hako_drv_grant, in: bar; out: va, size */
#define HAKO_DRV_PORTS      2    /* arg: struct hako_drv_grant, in: bar; out: base, size */
#define HAKO_DRV_DMA_ALLOC  3    /* arg: struct hako_drv_dma, in: bytes; out: va, addr */
#define HAKO_DRV_DMA_FREE   4    /* arg: struct hako_drv_dma, in: addr */
#define HAKO_DRV_IRQ_DONE   5    /* arg: (void *)mine: the forwarded interrupt is handled; its line is let through */
/* A block device's requests (HAKO_DRVPROC_BLK; -EINVAL for other driver processes): */
#define HAKO_DRV_BLK_TAKE   6    /* arg: struct hako_drv_blkreq, out: the oldest waiting request,
                                  * now in flight; -EAGAIN when none waits */
#define HAKO_DRV_BLK_DATA   7    /* arg: struct hako_drv_blkdata: a request's BLK_SIZE bytes to or
                                  * from the driver's buffer */
#define HAKO_DRV_BLK_DONE   8    /* arg: struct hako_drv_blkreq, in: slot, status: it completes */
#define HAKO_DRV_IRQ_ATTACH 9    /* arg: (void *)cpu: forward the device's interrupt (how the
                                  * manifest says) to this process as HAKO_DRVPROC_EV_IRQ */

struct hako_drv_info {
	char driver[16];             /* "rtl8139" */
	char name[16];               /* "rtl8139.0" */
	int32_t index;               /* among its driver's devices */
	uint16_t vendor, device;     /* PCI ids */
	uint32_t msi;                /* the interrupt goes by MSI */
	uint32_t reserved;
};

#define HAKO_DRV_BLK_SLOTS  8    /* block requests one driver process has in flight */

struct hako_drv_blkreq {
	int32_t slot;                /* the request in flight (0 .. HAKO_DRV_BLK_SLOTS - 1): names it
	                              * to BLK_DATA and BLK_DONE; never one still in flight */
	int32_t write;               /* 1: write the block, 0: read it */
	uint64_t block;              /* which block (of HAKO_BLK_SIZE bytes) */
	int32_t status;              /* BLK_DONE: 0 or -errno */
	uint32_t reserved;
};

struct hako_drv_blkdata {
	int32_t slot;
	int32_t to_kernel;           /* 1: the driver's buffer into the request (a read's data),
	                              * 0: the request into the driver's buffer (a write's) */
	uint64_t va;                 /* the driver's buffer, HAKO_BLK_SIZE bytes */
};

struct hako_drv_grant {
	int32_t bar;
	uint32_t size;               /* bytes (MMIO) or ports */
	uint64_t va;                 /* MMIO: where it is mapped (uncached) */
	uint64_t base;               /* ports: the first */
};

struct hako_drv_dma {
	uint64_t bytes;
	uint64_t va;                 /* where the driver reaches it */
	uint64_t addr;               /* where the device reaches it */
};

/* Device types and entries of drvproc_register and drvproc_call. */
#define HAKO_DRVPROC_NET        1
#define HAKO_DRVPROC_BLK        2   /* a block device: no entries; requests come as EV_BLK */
#define HAKO_DRVPROC_NET_SEND   1   /* in: one frame (14..1514 bytes); result 0, -EAGAIN, -EINVAL */
#define HAKO_DRVPROC_NET_POLL   2   /* no data: receive work now (the kernel, from nic_drain) */
#define HAKO_DRVPROC_NET_COPY   3   /* in: 1..1514 bytes the driver copies in and drops; result: the
                                  * length (the copy-in alone: paper 003's Table 3) */
#define HAKO_DRVPROC_ENTRIES    4

struct hako_drvproc_reg {
	int32_t type;                /* HAKO_DRVPROC_NET or HAKO_DRVPROC_BLK */
	int32_t nentries;
	int32_t entries[HAKO_DRVPROC_ENTRIES];
	uint64_t irq_handler;        /* the handler's address in the process (reported) */
	uint8_t mac[6];              /* a network card's address */
	uint8_t link_up;
	uint8_t reserved;
	char name[16];               /* a block device's name ("ramdisk0") */
	uint64_t blocks;             /* ... and size in HAKO_BLK_SIZE blocks */
};

/* What drvproc_recv returns. */
#define HAKO_DRVPROC_MSG_CALL   1
#define HAKO_DRVPROC_MSG_EVENTS 2
/* Events (a bit each). */
#define HAKO_DRVPROC_EV_IRQ     1u  /* the device interrupted: run ack + work, then HAKO_DRV_IRQ_DONE */
#define HAKO_DRVPROC_EV_POLL    2u  /* the receiver has room again: receive work */
#define HAKO_DRVPROC_EV_TXQ     4u  /* data[0..len) is a frame the kernel queued: send it */
#define HAKO_DRVPROC_EV_IMR_ON  8u  /* enable the device's interrupts */
#define HAKO_DRVPROC_EV_IMR_OFF 16u /* disable them */
#define HAKO_DRVPROC_EV_WILD    32u /* fault injection: make wild requests (each must be refused) */
#define HAKO_DRVPROC_EV_HANG    64u /* fault injection: stop serving (spin); the watchdog must act */
#define HAKO_DRVPROC_EV_BLK     128u /* block requests wait: take them with HAKO_DRV_BLK_TAKE */
#define HAKO_DRVPROC_EV_BREAK   256u /* fault injection: from now on copy each call's data from
                                      * outside its buffer (a driver wrong but running) */
#define HAKO_DRVPROC_EV_STALL   512u /* fault injection: from now on refuse every send with
                                      * -EAGAIN (a driver stuck but answering) */
#define HAKO_DRVPROC_EV_CRASH   1024u /* fault injection: write an address that is not its own
                                      * (a page fault in its own code, which kills it) */

/* The driver's own counters, handed to the kernel's card at each drvproc_recv. */
struct hako_drvproc_nicstat {
	uint64_t tx, tx_errors, rx_errors, rx_dropped;
	uint32_t link_up;
	uint32_t reserved;
};

struct hako_drvproc_msg {
	int32_t kind;                /* out: HAKO_DRVPROC_MSG_* */
	int32_t call;                /* out, CALL: its id for copyin, copyout, reply */
	int32_t entry;               /* out, CALL: the entry */
	uint32_t events;             /* out, EVENTS */
	uint64_t len;                /* out: CALL the caller's bytes; EV_TXQ the frame's */
	struct hako_drvproc_nicstat st; /* in */
	uint8_t data[1536];          /* out, EV_TXQ: the frame */
};

/* drvproc_ctl(id, op, arg) */
#define HAKO_DRVPROC_STAT       0   /* arg: struct hako_drvproc_stat, out */
#define HAKO_DRVPROC_RESET      1   /* zero the counters (not gave_up, generation, pid) */
#define HAKO_DRVPROC_INJECT     2   /* arg: struct hako_drvproc_inject, in/out; a driver process only */
#define HAKO_DRVPROC_RESTART    3   /* start again a driver the kernel gave up (-EBUSY otherwise) */

/* Fault injection into a card's driver process (paper 003 phase 2, MINIX 3 style). */
#define HAKO_INJECT_TEXT     0   /* flip one bit in a page of its program text */
#define HAKO_INJECT_DATA     1   /* flip one bit in its data, bss, heap or stack */
#define HAKO_INJECT_WILD     2   /* it makes wild requests: bad pointers, DMA and MMIO outside
                                  * its grant; each must be refused (-EFAULT, -EPERM, -EINVAL) */
#define HAKO_INJECT_HANG     3   /* it stops serving (an endless loop): the watchdog kills it */
#define HAKO_INJECT_FAIL_INIT 4  /* its next seed (1..16) starts end before registering (the
                                  * host is told to); DRVPROC_GIVE_UP of them in a row: given up */
#define HAKO_INJECT_BREAK    5   /* it keeps running but breaks the call protocol (each send's
                                  * copy-in reaches outside the call's buffer, as a flipped bit
                                  * can make it): the kernel kills it for that */
#define HAKO_INJECT_STALL    6   /* it keeps answering but refuses every send (-EAGAIN, as a
                                  * flipped bit can make it): the watchdog kills it */
#define HAKO_INJECT_CRASH    7   /* it writes an address outside its memory: the page fault in
                                  * its own code (ring 3, or ring 0 with drvmode=super) kills it
                                  * alone, and it is started again */
#define HAKO_INJECT_KINDS    8

struct hako_drvproc_inject {
	int32_t kind;                /* HAKO_INJECT_* */
	uint32_t reserved;
	uint64_t seed;               /* picks the page and the bit (TEXT, DATA) */
	uint64_t va;                 /* out: the flipped byte's address (TEXT, DATA) */
};

/*
 * Counted per driver process (card) on each path; every switch is named.  A
 * process switch is a change of the running process on a CPU (the kernel
 * counts the thread switches into and out of the driver process); an
 * address-space switch is a CR3 load, counted by the CPU doing it.
 */
/* hako_drvproc_stat.placement: a driver process, in ring 3 or in supervisor mode? */
#define HAKO_DRVPROC_PLACED_IN_PROCESS(placement) ((placement) == 1 || (placement) == 3)

struct hako_drvproc_stat {
	int32_t placement;           /* 0: in the kernel, 1: a driver process, 2: in the kernel
	                              * with an address-space switch inserted (drvswitch=on),
	                              * 3: a driver process in supervisor mode (drvmode=super) */
	int32_t pid;                 /* the driver process, 0 */
	uint64_t calls;              /* drvproc calls (nic_send from programs included) */
	uint64_t kernel_calls;       /* calls the kernel made (nic_drain) */
	uint64_t irqs;               /* interrupts forwarded to the process */
	uint64_t irq_done;           /* forwarded interrupts it finished */
	uint64_t txq;                /* frames the kernel queued (kernel senders) */
	uint64_t txq_full;           /* times the queue was full (-EAGAIN) */
	uint64_t rx;                 /* frames it handed to the kernel */
	uint64_t copyin_bytes, copyout_bytes;
	uint64_t switches_in;        /* thread switches into the driver process */
	uint64_t switches_out;       /* and out of it */
	uint64_t as_switches;        /* CR3 loads on the CPUs while switching into or out of it */
	uint64_t irq_tsc_sum;        /* forwarded interrupts: interrupt entry to IRQ_DONE, TSC ticks */
	uint64_t call_tsc_sum;       /* calls: entry of drvproc_call to the caller running again */
	/* The last event of each path, TSC (paper 003's Tables 2 and 3; both placements): */
	uint64_t last_irq_tsc;       /* the card's last interrupt entered the kernel */
	uint64_t last_done_tsc;      /* its handler finished (in the kernel, or IRQ_DONE) */
	uint64_t last_copy_tsc;      /* ticks of the last copy-in of a call's data */
	uint64_t as_loads;           /* CR3 loads of every CPU so far (not per card) */
	/*
	 * Faults and restart (a driver process; zero in the kernel).  Every
	 * frame is in exactly one counter:
	 *   send_calls = send_ok + send_err + send_epipe          (programs' frames)
	 *   kernel senders' frames = txq + txq_full + txq_dead
	 *   txq = txq_taken + txq_dropped + frames queued now
	 *   send_ok + txq_taken = tx_done + tx_unconfirmed + frames in the device now
	 *   rx = frames delivered to the receiver + rx_kernel_dropped
	 */
	uint64_t generation;         /* driver processes started for this card (1: the first) */
	uint64_t restarts;           /* started again after one ended */
	uint64_t crashes;            /* ended by a fault (exception) */
	uint64_t kills;              /* ended by a kill (a program or the watchdog) */
	uint64_t exits;              /* ended by exiting */
	uint64_t watchdog_kills;     /* killed by the kernel: work pending, no progress */
	uint64_t gave_up;            /* 1: ended DRVPROC_GIVE_UP times in a row before registering and
	                              * not started again yet (a state: RESET leaves it) */
	uint64_t send_calls;         /* NET_SEND calls from programs and the kernel */
	uint64_t send_ok;            /* answered 0 by the driver: in the device's ring */
	uint64_t send_err;           /* answered an error by the driver (-EAGAIN, -EINVAL...) */
	uint64_t send_epipe;         /* -EPIPE: no driver, or it ended before answering */
	uint64_t send_epipe_active;  /* of those: the driver had taken the call (the frame may be out) */
	uint64_t txq_taken;          /* queued frames the driver took */
	uint64_t txq_dropped;        /* queued frames dropped because the driver ended */
	uint64_t txq_dead;           /* kernel sends refused with -EPIPE: no driver */
	uint64_t tx_done;            /* transmissions the drivers reported finished (ok or error) */
	uint64_t tx_unconfirmed;     /* accepted by a driver that ended before reporting them done */
	uint64_t rx_kernel_dropped;  /* received frames the receiver had no room for */
	/*
	 * The kernel's own account of the requests a driver makes (its
	 * driver-only system calls; drvproc_recv only when refused); nothing
	 * here comes from the driver's memory, which fault injection corrupts.  A WILD event goes to the
	 * driver alone in its drvproc_recv; the requests it makes until its next
	 * drvproc_recv are its wild requests.  They are checked only when no bit
	 * was flipped in that driver process (its code is the initrd's, so
	 * every one of them lies outside its grant):
	 *   refused <= requests;  wild_checked <= wild_events <= injected[WILD]
	 *   wild_requests = wild_refused + wild_accepted <= requests
	 */
	uint64_t refused;            /* driver requests the kernel refused (-EPERM, -EFAULT, -EINVAL) */
	uint64_t wild_accepted;      /* wild requests of an unflipped driver the kernel accepted
	                              * (must stay 0) */
	uint64_t injected[HAKO_INJECT_KINDS];   /* faults injected, by kind */
	uint64_t tx_overreported;    /* reports of a driver claiming more transmissions done than it
	                              * was given (a corrupted driver): not believed, not in tx_done;
	                              * counted per report, as the claimed number is the driver's */
	uint64_t requests;           /* driver requests the kernel checked */
	uint64_t wild_events;        /* WILD events a driver received */
	uint64_t wild_checked;       /* of those, by a driver no bit flip had touched */
	uint64_t wild_requests;      /* requests it made while handling them */
	uint64_t wild_refused;       /* of those, refused */
	uint64_t protocol_kills;     /* driver processes the kernel killed for breaking the call
	                              * protocol (drvproc_call.c); also in kills */
};

#endif
