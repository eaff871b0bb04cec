/*
 * uapi/hako_region.h — region markers for the cost-model plugin
 * (tools/costmodel/README.md).
 *
 * A guest marks a measured region with one marker instruction, a
 * multi-byte NOP that does nothing on any x86 CPU:
 *
 *     nopl disp32(%rax)       bytes 0F 1F 80 d0 d1 d2 d3
 *
 * whose 32-bit displacement (little endian, d0 lowest) is
 *
 *     HAKO_REGION_MAGIC | op << HAKO_REGION_OP_SHIFT | id
 *
 * The plugin recognises exactly these seven bytes (no prefixes) when it
 * translates the code; without the plugin the marker costs one
 * instruction.  BEGIN and END act on the vCPU that runs them: the region
 * is active there until END.  GLOBAL_BEGIN and GLOBAL_END make a region
 * active on every vCPU at once, for work that crosses CPUs.  Plain
 * #defines only: this folder is shared by kernel and user programs, and
 * the macros that emit the instruction live with their users.
 */
#ifndef HAKO_UAPI_REGION_H
#define HAKO_UAPI_REGION_H

#define HAKO_REGION_MAGIC        0x4B480000u   /* 'H' 'K' in the top 16 bits */
#define HAKO_REGION_MAGIC_MASK   0xFFFF0000u
#define HAKO_REGION_OP_SHIFT     12
#define HAKO_REGION_OP_MASK      0xFu          /* after the shift */
#define HAKO_REGION_ID_MASK      0xFFFu        /* region ids 0 .. 4095 */
#define HAKO_REGION_IDS          4096

#define HAKO_REGION_BEGIN        1             /* active on this vCPU from here */
#define HAKO_REGION_END          2             /* ... until here, on this vCPU */
#define HAKO_REGION_GLOBAL_BEGIN 3             /* active on all vCPUs from here */
#define HAKO_REGION_GLOBAL_END   4             /* ... until here */

/*
 * Synchronisation points, for the plugin's per-vCPU virtual clocks
 * (tools/costmodel/vclock.h).  These markers carry the object in %rax and
 * its kind (HAKO_SYNC_*) in the id field; the plugin does not count them
 * as regions.
 */
#define HAKO_SYNC_POST           5             /* the object is posted: a waiter may go on */
#define HAKO_SYNC_WAIT           6             /* the wait for a post of the object is over */
#define HAKO_SYNC_SPIN_BEGIN     7             /* this vCPU waits, spinning, from here ... */
#define HAKO_SYNC_SPIN_END       8             /* ... to here; a lock in %rax: it waited for its release */
#define HAKO_SYNC_ACQUIRE        9             /* the lock in %rax is taken */
#define HAKO_SYNC_RELEASE        10            /* the lock in %rax is given back */
#define HAKO_SYNC_SERVICE        11            /* device id takes request %rax, serving it %rdx ns */
#define HAKO_SYNC_IRQ_BEGIN      12            /* an interrupt's handler (or work like one) starts */
#define HAKO_SYNC_IRQ_END        13            /* ... and ends */
/* Not a clock event: the plugin holds this vCPU, in host time and with no
 * guest instruction run, until the 32-bit word at %rax has (word & mask) ==
 * value, %rdx = mask << 32 | value (or until a limit of host time): what a
 * device model on QEMU's main loop writes to guest memory when it is done,
 * so the look that follows finds it done in every run. */
#define HAKO_SYNC_HOST_WAIT      14

#define HAKO_SYNC_LOCK           1             /* a spinlock's address */
#define HAKO_SYNC_THREAD         2             /* a thread's address: woken or switched out, runs again */
#define HAKO_SYNC_CALL           3             /* a cross-CPU call's address: sent, taken, finished */
#define HAKO_SYNC_SEM            4             /* a semaphore's address: a unit stored, a unit taken
						* (a wait is not consumed: each takes the latest post) */
#define HAKO_SYNC_IO             5             /* a device request's address: served, then seen done */
#define HAKO_SYNC_DEVICES        16            /* device ids of HAKO_SYNC_SERVICE: 0 .. 15 */

/*
 * On SH-4, which has no NOP with a 32-bit field, the marker is a branch
 * over the same word: `bra` to the end (HAKO_REGION_SH4_BRA), its delay
 * slot (a nop, HAKO_REGION_SH4_NOP, or the store of the marker's argument,
 * `mov.l Rm, @Rn`, whose value the plugin takes), then the word as two
 * 16-bit halves, low first: eight bytes, two instructions.
 */
#define HAKO_REGION_SH4_BRA      0xA002u       /* bra +2: over the slot and the word */
#define HAKO_REGION_SH4_NOP      0x0009u
#define HAKO_REGION_SH4_BYTES    8

/* The displacement of a marker, e.g. HAKO_REGION_DISP(HAKO_REGION_BEGIN, 7). */
#define HAKO_REGION_DISP(op, id) \
	(HAKO_REGION_MAGIC | ((unsigned)(op) << HAKO_REGION_OP_SHIFT) | ((unsigned)(id) & HAKO_REGION_ID_MASK))

#endif
