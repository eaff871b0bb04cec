/*
 * fuzz/fuzz.h — the system-call fuzzer's shared state: one fuzzing
 * process's threads, resources and counts (main.c runs the processes,
 * args.c makes the calls, report.c counts and reports them).
 */
#ifndef FUZZ_H
#define FUZZ_H

#include <stdbool.h>
#include <stdint.h>
#include <hako/sys.h>
#include <hako/thread.h>
#include <fuzz_calls.h>

#define FZ_MAX_WORKERS   16            /* fuzzing threads in one process */
#define FZ_MAX_PROCS     8             /* child processes kept alive by the runner */
#define FZ_BUF           16384         /* each thread's own valid buffer */
#define FZ_HEAP_WINDOW   (2u << 20)    /* brk moves inside [floor, floor + this) */
#define FZ_ICAS          8             /* ICAs one process keeps track of */
#define FZ_SEMS          4
#define FZ_OTHER         SYS_COUNT     /* counts of numbers syscalls.def does not list */
#define FZ_SLOTS         (SYS_COUNT + 1)
#define FZ_ERRS          24            /* error buckets: fz_errnos[] and "other" */
#define FZ_CHILD_EXIT    77            /* a child's exit code when a fuzzed exit ended it */
#define FZ_CHILD_BAD     78            /* an unprivileged child that kept a privilege */
#define FZ_DELAY_US      20            /* testdev's delay while fuzzed, at most (µs) */
#define FZ_PRIO_MAX      16            /* the highest priority a program may ask for (setprio) */

/* The ramdisk's last blocks carry the runner's counts to the first process. */
#define FZ_REPORT_BLOCKS 8
#define FZ_REPORT_MAGIC  0x7a7a75665f68616bull

/* Calls left out on the command line (--no LIST), by call number, and one pseudo-call. */
#define FZ_NO_NIC_OPEN   SYS_COUNT         /* nic_ctl OPEN and CLOSE only */
#define FZ_NO_SIZE       (SYS_COUNT + 1)

/* One thread's counts: calls and their results, by call (FZ_OTHER: unlisted numbers). */
struct fz_counts {
	uint64_t calls[FZ_SLOTS];
	uint64_t ok[FZ_SLOTS];
	uint64_t tsc[FZ_SLOTS];            /* TSC ticks spent in the call (waits included) */
	uint64_t err[FZ_SLOTS][FZ_ERRS];
};

/* What the runner hands to the first process through the ramdisk. */
struct fz_report {
	uint64_t magic;
	uint64_t calls;                    /* every call made, the children's finished ones too */
	uint64_t child_calls;              /* of them, made by children that finished */
	uint64_t spawned, finished, killed, self_ended, faulted;   /* children */
	uint64_t helpers;                  /* short-lived threads started (they end by thread_exit) */
	uint64_t unprivileged;             /* children started with fewer privileges */
	int64_t bad_child_status;          /* the first unexpected child status, or 0 */
	struct fz_counts total;            /* the runner's own calls */
};

struct fz_thread {
	int index, tid;
	uint64_t rng;
	uint64_t budget;                   /* calls to make */
	uint64_t made;                     /* calls made */
	volatile bool done;
	struct fz_counts *counts;
	uint8_t *buf;                      /* FZ_BUF bytes, this thread's alone */
};

/* One fuzzing process. */
struct fz_proc {
	volatile bool stop;
	bool runner;                       /* the process that reports (not a child) */
	bool unprivileged;
	int pid;
	int nworkers;
	struct fz_thread workers[FZ_MAX_WORKERS];
	volatile int worker_tids[FZ_MAX_WORKERS];
	volatile int long_tids[FZ_MAX_PROCS + 1];   /* the main thread's and the child slots' */
	uint64_t heap_floor;               /* brk never goes below (the C library's heap) */
	int ncpus, nnics, nblk, ramdisk;   /* ramdisk: its device number, -1 without one */
	uint64_t ramdisk_blocks;
	int nintr;
	int delay_dev;                     /* testdev: its delay is FZ_DELAY_US at most while fuzzed */
	uint64_t delay_us;                 /* and this before */
	struct spin lock;                  /* guards icas and sems */
	int icas[FZ_ICAS];
	uint64_t ica_va[FZ_ICAS];
	int sems[FZ_SEMS];
	volatile int child_pids[FZ_MAX_PROCS];
	volatile uint64_t helpers;
	bool no[FZ_NO_SIZE];
	const char *no_list;               /* as given, passed on to children */
};

extern struct fz_proc fz;

/* xorshift64* */
static inline uint64_t fz_rnd(uint64_t *s)
{
	*s ^= *s >> 12;
	*s ^= *s << 25;
	*s ^= *s >> 27;
	return *s * 0x2545f4914f6cdd1dull;
}

static inline uint64_t fz_below(uint64_t *s, uint64_t n)
{
	return n ? fz_rnd(s) % n : 0;
}

/* args.c: arguments and the call */
extern const char fz_hello[];
uint8_t *fz_buffer(int index);
void fz_one_call(struct fz_thread *t);
/* a[]: one value per C parameter of the call (a 64-bit one whole on every
 * arch); fz_call makes the argument words of them. */
bool fz_refused(int nr, const uint64_t *a);
long fz_call(struct fz_thread *t, int nr, const uint64_t *a);

/* smart.c: mostly valid requests, what follows a call, the process's resources */
bool fz_smart(struct fz_thread *t, int nr);
void fz_after(struct fz_thread *t, int nr, const uint64_t *a, long r);
void fz_helper_entry(void *arg) __attribute__((noreturn));
void fz_setup(void);
void fz_release(struct fz_thread *t);
void fz_post_sems(void);
bool fz_parse_no(const char *list);

/* report.c */
void fz_count(struct fz_counts *c, int slot, long r, uint64_t tsc);
void fz_slowest(const struct fz_counts *c, char *buf, size_t size);
void fz_add(struct fz_counts *sum, const struct fz_counts *c);
void fz_print_result(const struct fz_report *r, uint64_t seed, uint64_t ms, uint64_t free_before,
		     uint64_t free_after, uint64_t ica_before, uint64_t ica_after, bool ok);

#endif
