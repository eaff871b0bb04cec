/*
 * hako_priv.h — a process's privileges for the control calls: the bits of
 * priv_get, priv_drop and spawn_priv (kernel/proc/priv.c).
 *
 * Each process holds a set of these bits.  The first process and every
 * other process the kernel starts for itself hold HAKO_PRIV_ALL, driver
 * processes none; a child holds its parent's set, or a subset of it with
 * spawn_priv; priv_drop removes bits and nothing adds one.  A control call
 * made without its bit returns -EPERM before it acts; the calls that only
 * read (statistics, listings) and the calls on the caller's own things
 * need none.  spawn_priv and priv_drop refuse a mask with a bit outside
 * HAKO_PRIV_ALL (-EINVAL); priv_drop returns the set left.  docs/design/proc.md
 * "Privileges" has the table of calls and bits.
 */
#ifndef HAKO_UAPI_PRIV_H
#define HAKO_UAPI_PRIV_H

#define HAKO_PRIV_DEVCTL   0x01u  /* blk_ctl DELAY/SET/RESET (mode, policy, I/O processor), nic_traffic */
#define HAKO_PRIV_INTR     0x02u  /* intr_ctl SET/RESET: a source's interrupt handling */
#define HAKO_PRIV_DRVPROC  0x04u  /* drvproc_ctl RESET/RESTART/INJECT: driver processes, fault injection */
#define HAKO_PRIV_MEASURE  0x08u  /* perf_ctl PURGE/PREEMPT_RESET/INTERNAL, intr_ctl PROBE START/STOP/CALIBRATE */
#define HAKO_PRIV_SCHED    0x10u  /* setprio above HAKO_PRIO_DEFAULT, isoch_ctl CREATE */
#define HAKO_PRIV_IPC      0x20u  /* ispc_mode: the server-communication mode */
#define HAKO_PRIV_ALL      0x3fu
#define HAKO_PRIV_NONE     0x00u

/* The priority a program starts at; a higher one needs HAKO_PRIV_SCHED. */
#define HAKO_PRIO_DEFAULT  8

#endif
