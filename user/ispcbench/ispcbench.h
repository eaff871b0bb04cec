/*
 * ispcbench/ispcbench.h — what the parts of the server-communication
 * benchmark (paper 002) share: the stamp page the requests carry, the
 * helper servers it spawns, and the parts.
 *
 * Every figure is in TSC ticks (guest instructions under QEMU icount) and
 * is named with the mode it ran in (`_baseline` or `_fast`); on SH-4 each
 * region's TLB misses too.
 */
#ifndef ISPCBENCH_H
#define ISPCBENCH_H

#include <stdint.h>
#include <arch/tsc.h>
#include <hako/bench.h>
#include <hako/region.h>

#define BENCH_CPU 0                  /* client and servers share one CPU */

/* What a request's control ICA holds for the benchmark's servers. */
enum bench_op {
	OP_STAMP,                        /* note arrival, reply at once (synchronous return) */
	OP_ASYNC_RETURN,                 /* reply without waiting; time the reply itself */
	OP_QUEUED_FIRST,                 /* reply without waiting, then time the receive of */
	OP_QUEUED_SECOND,                /* ... this one, already queued; reply, wait afresh */
	OP_SERVER_PARTIAL,               /* time paste, peel, first access in the server */
	OP_REPORT,                       /* print the server's figure `report` as `name` */
	OP_MARK,                         /* mark the OP_STAMP requests' one-way regions: `oneway` */
	OP_PINGPONG,                     /* reply without waiting, wait on sem_a, post sem_b (switch.c) */
	OP_CALL,                         /* as OP_STAMP, sent by ispc_call and answered by
					    ispc_reply_recv: the message in registers */
};

/* The server's own figures, for OP_REPORT. */
enum server_figure {
	REPORT_REPLY,                    /* OP_ASYNC_RETURN's replies */
	REPORT_RECEIVE,                  /* OP_QUEUED_FIRST's receives */
};

struct stamp {
	uint32_t op;
	uint32_t touch;                  /* data pages whose first word the server reads */
	uint32_t fast;                   /* the client's mode, for the server's names and regions */
	uint32_t report;                 /* OP_REPORT: which figure */
	uint32_t oneway;                 /* OP_MARK: 1 on, 0 off */
	uint32_t sem_a, sem_b;           /* OP_PINGPONG: the semaphores */
	uint64_t t_sent;                 /* client: just before the request */
	uint64_t t_received;             /* server: right after ispc_receive */
	uint64_t t_replied;              /* server: just before ispc_reply */
	char name[32];                   /* OP_REPORT: the figure's name */
};

/* The mode's suffix for figure names. */
const char *mode_name(void);
/* A server process learns the mode from its client's stamp. */
void set_mode_fast(int fast);
/* 1 in fast mode, 0 in baseline mode (a variable: the region markers
 * test it without a call, which would upset the registers of the loops). */
extern int mode_fast;

/*
 * Regions (hako_region_ids.h): the current mode's block, slot SLOT + K
 * with K < REGION_NTH_MAX known at run time.  Marked just outside the
 * TSC reads of a figure; its result line names ispc_region(SLOT + K).
 */
#define ispc_region_begin(slot, k) do { \
		if (ARCH_TLB_MISSES_COUNTED) \
			misses_begin(); \
		ISPC_REGION_(region_begin_nth, slot, k); \
	} while (0)
#define ispc_region_end(slot, k) do { \
		ISPC_REGION_(region_end_nth, slot, k); \
		if (ARCH_TLB_MISSES_COUNTED) \
			misses_end(ispc_region((slot) + (k))); \
	} while (0)
#define ISPC_REGION_(mark, slot, k) MODE_REGION_(mark, REGION_ISPC + (slot), REGION_ISPC_MODE_STRIDE, k)
/* MARK(BASE, K) in baseline mode, MARK(BASE + STRIDE, K) in fast mode (BASE
 * and STRIDE constants: the marker's id is an immediate). */
#define MODE_REGION_(mark, base, stride, k) do { \
		if (mode_fast) \
			mark((base) + (stride), k); \
		else \
			mark(base, k); \
	} while (0)
unsigned ispc_region(unsigned slot);

/*
 * TLB misses per region where the arch counts them (ARCH_TLB_MISSES_COUNTED,
 * SH-4: every miss the kernel's handler serves): the count is read before
 * a region's begin marker and after its end marker, outside the TSC reads,
 * and the difference added to the region's total.  ispc_report is
 * bench_report_region plus, where misses are counted, a line of kind
 * "bench-tlb" with the region's misses and iterations.
 */
void misses_begin(void);
void misses_end(unsigned region);
struct bench_stats ispc_report(const char *name, struct samples *s, const char *what,
			       unsigned region, unsigned long iters);
/* name + "_" + suffix + "_" + mode in a static buffer ring. */
const char *figure(const char *name, const char *suffix);
int fail(const char *what, long err);
int pin_self(int cpu);

/* Helper processes: spawn `ispcbench --serve` (a relay to NEXT if NEXT is
 * not 0), in the caller's mode, and wait until it listens.  The pid, or
 * -errno. */
int spawn_server(int next);
int stop_server(int pid);
/* The roles, in the spawned copies. */
int serve_main(int argc, char **argv);
int pong_main(int argc, char **argv);

/* One request from a fresh control ICA: alloc, stamp, send, take. */
struct call {
	int ctl, data;
	struct stamp *st;
	volatile uint32_t *data_word;
};
int call_open(struct call *c, int data_pages);
void call_close(struct call *c);

/* Peel, paste back and touch an ICA of the calling process, RUNS times
 * each; SERVER names the figures and regions of a server process. */
int partial_ica(int server);

int part_partial(void);
int part_basic(void);
int part_relay(void);
int part_copy(void);
int part_switch(void);
/* switch.c's working sets, "W,W,...": 0, or -1 if LIST is not one. */
int switch_set_ws(const char *list);
/* switch.c: run each working set twice and check its misses (--check). */
void switch_set_check(void);

#endif
