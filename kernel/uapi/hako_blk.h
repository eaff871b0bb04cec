/*
 * uapi/hako_blk.h — block devices for user programs (paper 001's raw
 * device access): blk_open, blk_close, blk_ctl, blk_read, blk_write.
 *
 * Devices are numbered 0 .. n-1 in the order the kernel found them;
 * blk_ctl(dev, HAKO_BLK_INFO, &info) names each and says its size, and
 * returns -ENODEV past the last.  A process opens a device by name before
 * it reads or writes it: blk_open("ramdisk0") returns the device's number
 * (-ENOENT for no such device, -ENAMETOOLONG for a name of HAKO_BLK_NAME bytes or more,
 * -EFAULT for a bad pointer); opening it again returns the same number.
 * blk_close(dev) gives it back (-EBADF if not open); a process's devices
 * are closed when it ends, and a child does not inherit them.  blk_read and
 * blk_write on a device the caller has not opened are -EBADF; blk_ctl
 * (the control program's call) needs no open.  blk_read/blk_write move whole 4 KiB
 * blocks: offset and len must be multiples of HAKO_BLK_SIZE (-EINVAL),
 * len at most HAKO_BLK_IO_MAX, the range inside the device (-EINVAL),
 * buf the caller's memory (-EFAULT).  They return the bytes moved, or
 * -EIO when the device failed.  There is no buffer cache: each call
 * reaches the device.
 *
 * Paper 001's two switches, per device, at run time (kernel/mpio/):
 * HAKO_BLK_SET sets who issues commands (mode: symmetric, any CPU runs
 * the driver; funnel, a caller is moved to the master CPU 0 for it) and
 * who takes the interrupt (policy, below); HAKO_BLK_RESET zeroes the
 * counters.  A device without an interrupt (the ramdisk) has no policy:
 * setting one is -EINVAL and info.has_irq is 0.  A funnelled device's
 * interrupt goes to the master whatever policy is set (info.effective).
 *
 * The I/O processor (kernel option iop=N; info.iop_cpu, -1 without one):
 * hako_blk_set.iop HAKO_BLK_IOP_ON sends a device's commands to CPU N,
 * which executes them and signals each completion by IPI to the CPU the
 * policy chooses (info.iop_ipis); HAKO_BLK_IOP_OFF back to the switches
 * above; 0 leaves it.  While on,
 * the mode is moot: the IOP is the funnel, and nobody moves to CPU 0.
 * -EINVAL for ON without an IOP.
 *
 * Paced completions (HAKO_BLK_PACE, the disks AHCI and NVMe in the
 * kernel): the driver keeps one command in flight (per port; per queue
 * pair for NVMe) and holds the device's interrupt masked at the device
 * until the command's datasheet service time (the one it gives the cost
 * model, blk_service_time) has passed on the guest's clock; then it lets
 * the interrupt through, and the device delivers it as ever, to the CPU
 * the policy chose.  Under icount QEMU finishes a disk's request on a host
 * thread, so an unpaced completion interrupt lands at an instruction that
 * varies from boot to boot; a paced one lands at the end of its service
 * time, the same instruction every boot, provided QEMU had finished the
 * request by then.  One it had not is looked at again one service time
 * later (each look that finds it unfinished counts in info.paced_late),
 * and the boot may not repeat from there on.
 */
#ifndef HAKO_UAPI_BLK_H
#define HAKO_UAPI_BLK_H

#include <stdint.h>

#define HAKO_BLK_SIZE    4096
#define HAKO_BLK_IO_MAX  (64 * 1024)      /* bytes per blk_read/blk_write */
#define HAKO_BLK_NAME    16               /* bytes of a device's name, its NUL included */
#define HAKO_BLK_CPUS    16

/* blk_ctl operations. */
#define HAKO_BLK_INFO    0               /* fill struct hako_blk_info */
#define HAKO_BLK_DELAY   1               /* arg = µs: a fixed-delay device's service time
                                          * (testdev; 1 .. 10 s); -EINVAL for the others */
#define HAKO_BLK_SET     2               /* arg = struct hako_blk_set *: mode, policy, fixed CPU */
#define HAKO_BLK_RESET   3               /* zero the counters (arg unused) */
#define HAKO_BLK_PACE    4               /* arg = 1 or 0: pace a disk's completions (below)
                                          * or not; -EINVAL for a device without it */

/* Drive modes: which CPU issues a device's commands (paper 001, 1a/1b). */
#define HAKO_BLK_SYMMETRIC 0             /* any CPU runs the driver (1b) */
#define HAKO_BLK_FUNNEL    1             /* only the master CPU 0 does (1a, a driver not MP-safe) */

/* Delivery policies: which CPU takes a device's interrupt (paper 001, 2a/2b). */
#define HAKO_BLK_MASTER    0             /* 2a-1: the master, CPU 0 */
#define HAKO_BLK_FIXED     1             /* 2a-2: one fixed CPU (fixed_cpu) */
#define HAKO_BLK_ISSUER    2             /* 2b-1: the CPU that started the I/O */
#define HAKO_BLK_IDLE      3             /* 2b-2: an idle CPU, else the lowest-priority one */
#define HAKO_BLK_BUSIEST   4             /* 2b-3: the CPU running the highest-priority thread */
#define HAKO_BLK_BROADCAST 5             /* 2b-4: every CPU; the one that wins the lock works */
#define HAKO_BLK_LOAD      6             /* not in the paper: fewest runnable threads, then
                                          * fewest recent interrupts */
#define HAKO_BLK_POLICIES  7

#define HAKO_BLK_KEEP      (-1)          /* a field of hako_blk_set left as it is */

/* HAKO_BLK_SET: each field a value above or HAKO_BLK_KEEP.  -EINVAL for an
 * unknown mode or policy, a CPU that is not online, or a policy on a
 * device without an interrupt; -EFAULT for a bad pointer. */
struct hako_blk_set {
	int32_t mode;
	int32_t policy;
	int32_t fixed_cpu;               /* the fixed policy's CPU */
	int32_t iop;                     /* 0 or KEEP: keep; HAKO_BLK_IOP_ON or HAKO_BLK_IOP_OFF
	                                  * (the former reserved 0: old callers change nothing) */
};

#define HAKO_BLK_IOP_ON    1
#define HAKO_BLK_IOP_OFF   2

struct hako_blk_info {
	char name[HAKO_BLK_NAME];        /* "ramdisk0", "ahci0", ... */
	uint64_t blocks;                 /* size in 4 KiB blocks */
	uint64_t reads, writes, errors;  /* requests done, by kind; failed ones */
	uint64_t delay_us;               /* testdev's service time per request; 0: not such a device */
	uint64_t issued[HAKO_BLK_CPUS];  /* requests submitted on each CPU */
	uint64_t completed[HAKO_BLK_CPUS];  /* requests completed on each CPU */
	/* Paper 001's switches (HAKO_BLK_SET) and where the interrupts went: */
	int32_t mode;                    /* HAKO_BLK_SYMMETRIC or HAKO_BLK_FUNNEL */
	int32_t policy;                  /* as set */
	int32_t effective;               /* as applied: HAKO_BLK_MASTER while funnelled */
	int32_t fixed_cpu;
	int32_t has_irq;                 /* 0: no interrupt (ramdisk), policies do not apply */
	int32_t target;                  /* the CPU the interrupt is routed to now; -1: none */
	uint64_t retargets;              /* times the interrupt's destination was rewritten */
	uint64_t solo;                   /* requests no other request overlapped (issued alone,
	                                  * none issued until they completed) ... */
	uint64_t solo_on_issuer;         /* ... and of them, those completed on their issuer's CPU */
	uint64_t interrupts[HAKO_BLK_CPUS];  /* the device's interrupts taken on each CPU
	                                      * (broadcast: the relayed ones too) */
	uint64_t lost[HAKO_BLK_CPUS];    /* broadcast interrupts whose race this CPU lost */
	/* The I/O processor: */
	int32_t iop;                     /* 1: the device's commands go to the IOP */
	int32_t iop_cpu;                 /* the IOP's CPU (the same for every device); -1: none */
	uint64_t iop_cmds;               /* commands the IOP executed for the device */
	uint64_t iop_ipis[HAKO_BLK_CPUS];   /* completion IPIs it sent to each CPU */
	/* Interrupts on each CPU that did no work there (in interrupts too).
	 * left: issuer, idle, busiest and load move an MSI at each submit; one
	 * taken where it no longer goes, while every request in flight was
	 * issued after the move, is a leftover sent for requests another CPU
	 * has completed: the handler is not run, and the target completes
	 * what has finished since.  empty: the handler ran and completed no
	 * request (not counted under broadcast or with the IOP on). */
	uint64_t left[HAKO_BLK_CPUS];
	uint64_t empty[HAKO_BLK_CPUS];
	int32_t in_process;              /* 1: its driver runs as a process (drvproc=, paper 003) */
	int32_t driver_pid;              /* ... that process; 0 while none serves it (restarting) */
	int32_t paced;                   /* 1: HAKO_BLK_PACE is on */
	int32_t reserved;
	uint64_t paced_late;             /* paced commands QEMU had not finished at the end of their
	                                  * service time (since boot; HAKO_BLK_RESET leaves it) */
};

#endif
