/*
 * hako_isoch.h — periodic (isochronous) threads, paper 004: the user side
 * of isoch_ctl and isoch_wait (kernel/sched/isoch.c).
 *
 * A thread of the calling process becomes periodic on one CPU with a
 * period P and a budget B (HAKO_ISOCH_CREATE); from HAKO_ISOCH_START on it
 * is released at every period start (a one-shot timer on that CPU) and
 * preempts the normal threads there; when it has run B in a period it is
 * stopped until the next release (an overrun, counted); isoch_wait ends
 * its job early and sleeps until the next release.
 *
 * Admission (per CPU): at most HAKO_ISOCH_PER_CPU periodic threads, and
 * the reserved utilisation sum(B/P) may not exceed the rate-monotonic
 * bound n(2^(1/n) - 1) for n threads, capped at HAKO_ISOCH_UTIL_CAP_PPM
 * (90 %).  Periodic threads take the priorities above every normal
 * thread, shorter period higher (rate monotonic).
 *
 * Booted with isoch=table the CPU is dispatched instead from a reserved
 * schedule (kernel/sched/isoch_table.c): at START, STOP and DESTROY the
 * table of the CPU's started threads over their hyperperiod (the lcm of
 * their periods) is built, each job's budget placed earliest deadline
 * first in its period; a thread runs in its reservations only and normal
 * threads in the time between.  START refuses with -ENOSPC a set whose
 * hyperperiod is over HAKO_ISOCH_PERIOD_MAX_NS or whose table would have
 * more than HAKO_ISOCH_TABLE_MAX entries.  Admission is the same.
 *
 * Times are nanoseconds (under QEMU icount at shift 0, one nanosecond is
 * one guest instruction).  CREATE refused for lack of room returns
 * -ENOSPC and still writes the struct back: `why` says which limit and
 * util_ppm what the CPU would have had.
 */
#ifndef HAKO_UAPI_ISOCH_H
#define HAKO_UAPI_ISOCH_H

#include <stdint.h>

/* isoch_ctl ops; tid 0 is the caller. */
#define HAKO_ISOCH_CREATE  1   /* in: period_ns, budget_ns, cpu */
#define HAKO_ISOCH_START   2   /* first release one period from now */
#define HAKO_ISOCH_STOP    3   /* no more releases; the thread runs as a normal one would, at its priority */
#define HAKO_ISOCH_INFO    4   /* out: everything below */
#define HAKO_ISOCH_DESTROY 5   /* stop, give the reservation back, a normal thread again */

#define HAKO_ISOCH_PER_CPU        8
#define HAKO_ISOCH_UTIL_CAP_PPM   900000     /* 90 % of a CPU */
#define HAKO_ISOCH_PERIOD_MIN_NS  100000ull  /* 100 us */
#define HAKO_ISOCH_PERIOD_MAX_NS  10000000000ull   /* 10 s */
#define HAKO_ISOCH_BUDGET_MIN_NS  10000ull   /* 10 us */

#define HAKO_ISOCH_TABLE_MAX      2048       /* entries of one CPU's reserved schedule */

/* mode (out): the scheduler the kernel was booted with */
#define HAKO_ISOCH_MODE_RM    0   /* rate-monotonic priorities, release timers */
#define HAKO_ISOCH_MODE_TABLE 1   /* the reserved schedule (isoch=table) */

/* why (CREATE refused with -ENOSPC) */
#define HAKO_ISOCH_WHY_NONE   0
#define HAKO_ISOCH_WHY_UTIL   1   /* sum(B/P) over the bound */
#define HAKO_ISOCH_WHY_COUNT  2   /* HAKO_ISOCH_PER_CPU threads there already */

/* Release latency histogram: bucket i counts latencies in
 * [i * HAKO_ISOCH_HIST_NS, (i+1) * HAKO_ISOCH_HIST_NS); the last one
 * everything beyond. */
#define HAKO_ISOCH_HIST     32
#define HAKO_ISOCH_HIST_NS  1000

struct hako_isoch {
	uint64_t period_ns;
	uint64_t budget_ns;
	int32_t cpu;
	int32_t why;                 /* out: HAKO_ISOCH_WHY_* */
	uint32_t util_ppm;           /* out: the CPU's reserved utilisation (with this one) */
	uint32_t bound_ppm;          /* out: the bound it was held to */
	uint32_t started;            /* out: 1 between START and STOP */
	uint32_t prio;               /* out: its priority */
	uint32_t mode;               /* out: HAKO_ISOCH_MODE_* */
	uint32_t table_len;          /* out: entries of its CPU's reserved schedule in force */
	uint64_t hyper_ns;           /* out: that schedule's hyperperiod (0: none) */
	uint64_t tables_live;        /* out: reserved schedules allocated, all CPUs */
	uint64_t releases;           /* periods started */
	uint64_t completions;        /* jobs ended by isoch_wait */
	uint64_t overruns;           /* jobs stopped for using up the budget */
	uint64_t missed;             /* releases that found the previous job still running */
	uint64_t lat_count;          /* latencies measured: releases that found it waiting */
	uint64_t lat_min_ns;         /* release latency: when it ran minus its period start */
	uint64_t lat_max_ns;
	uint64_t lat_sum_ns;
	uint64_t hist[HAKO_ISOCH_HIST];
};

#endif
