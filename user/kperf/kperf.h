/*
 * kperf/kperf.h — what the parts of kperf share (paper 004, every system
 * call timed best and worst case).
 *
 * The calls come from kernel/uapi/syscalls.def through the
 * generated table build/gen/kperf_calls.h; each has a driver
 * kperf_drv_NAME (the drv_*.c files) that prepares valid arguments and
 * state, times one call with KPERF_TIME and cleans up.  A driver returns
 * 0, KPERF_NOT_TIMED (run->why says why), or a negative errno.
 */
#ifndef KPERF_H
#define KPERF_H

#include <stdint.h>
#include <hako/sys.h>
#include <arch/tsc.h>
#include <kperf_calls.h>

#define KPERF_CPU	0	/* where kperf and its helpers run */
#define KPERF_NOT_TIMED	1

struct kperf_run {
	unsigned slot;		/* region slot: 2 * number + worst */
	unsigned region;	/* out, optional: the region, if not REGION_KPERF + slot */
	int worst;		/* 0: best case, 1: worst case */
	uint64_t ticks;		/* out: the timed call, TSC ticks */
	const char *why;	/* out with KPERF_NOT_TIMED */
	const char *note;	/* out, optional: what exactly was timed */
};

/* Purge the caches and this CPU's TLB (perf_ctl HAKO_PERF_PURGE). */
void kperf_purge(void);

/*
 * Time one call.  WARM runs first, untimed (the best case's first of two
 * calls back to back); the worst case then purges caches and TLB.  The
 * region markers sit just outside the TSC reads; the value is TIMED's.
 */
#define KPERF_TIME(run, warm, timed)					\
	KPERF_TIME_(run, warm, timed, kperf_region_begin((run)->slot),	\
		    kperf_region_end((run)->slot))
/* The same in region BASE + worst: a row that is not a call of syscalls.def. */
#define KPERF_TIME_AT(run, base, warm, timed) ({			\
	(run)->region = (base) + (unsigned)(run)->worst;		\
	KPERF_TIME_(run, warm, timed, region_begin_nth(base, (run)->worst), \
		    region_end_nth(base, (run)->worst)); })
#define KPERF_TIME_(run, warm, timed, begin, end) ({			\
	(void)(warm);							\
	if ((run)->worst)						\
		kperf_purge();						\
	begin;								\
	uint64_t t0_ = tsc_now();					\
	long r_ = (long)(timed);					\
	uint64_t t1_ = tsc_now();					\
	end;								\
	(run)->ticks = t1_ - t0_;					\
	r_; })

/* Print "kperf: WHAT: error"; returns ERR (< 0), or -1. */
int kperf_fail(const char *what, long err);
/* A child `kperf ROLE ARGS...`: its pid or a negative errno. */
int kperf_spawn(char *const argv[]);
/* The helper roles (main.c dispatches on argv[1]). */
int kperf_serve_main(int sem);
int kperf_client_main(int server, int n, int sem);
/* kperf --copy: paper 004's Fig. 2, memory copies best and worst case (copy.c). */
int kperf_copy_main(void);
/* kperf --copy --bw: then the lmbench-style passes (bw.c). */
int kperf_bw_main(void);
/* The rows beside the calls: ispc_request and ispc_call with the fastpath
 * on (drv_ispc.c), region REGION_KPERF_FASTPATH + 2 * index + worst. */
int kperf_drv_ispc_request_fastpath(struct kperf_run *run);
int kperf_drv_ispc_call_fastpath(struct kperf_run *run);
/* Stop the ISPC server the drivers started, if any. */
void kperf_ispc_done(void);

#endif
