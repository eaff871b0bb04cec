/*
 * fuzz/args.c — one fuzzed system call: which call, with which arguments.
 *
 * The calls come from build/gen/fuzz_calls.h, generated from syscalls.def
 * with the kind of each parameter, so a call added there is fuzzed without
 * a change here.  Each call is made either with arguments drawn by kind
 * (generic: a pool of valid values — own tids, open devices, own ICAs,
 * this thread's buffer — and hostile ones — NULL, kernel and
 * non-canonical addresses, unmapped and read-only memory, misaligned
 * pointers, huge lengths, negative numbers, random bits) or, for the
 * calls that take a structure or a sequence, by a generator that builds a
 * mostly valid request (fz_smart), so the calls reach past their argument
 * checks.  Now and then a number the list does not have is called.
 *
 * The fuzzer never touches memory it hands the kernel except its own
 * buffers: heap above heap_floor and pasted ICAs may vanish under it (brk,
 * peel), so only the kernel reads and writes them.
 *
 * Left out, because they would end or stall the run itself (fz_refused):
 *   exit          in the runner (it ends the run); children call it, with
 *                 FZ_CHILD_EXIT (so the runner knows a child did not finish)
 *   thread_exit   in a fuzzing thread (its count would be lost); helper
 *                 threads end with it
 *   kill          of the caller's own process (kill reaches the caller too;
 *                 a child kills itself now and then through fz_smart) or,
 *                 in the runner, of a child: only the main thread kills
 *                 those, now and then, so that children live to fuzz
 *   read          without HAKO_READ_NONBLOCK: console input never comes
 *   sleep         longer than 100 us (up to 1000 s would stall the thread)
 *   wait          -1 or a fuzzing child's pid in the runner (the thread
 *                 that spawned the child waits for it)
 *   thread_join   a thread that lasts as long as its process (a fuzzing
 *                 thread, the main thread, a child's slot): it would wait
 *                 for ever, or two would join each other
 *   ispc_request  without ASYNC, ispc_receive and ispc_result without
 *                 NONBLOCK, ispc_reply with WAIT, ispc_call with valid
 *                 flags, ispc_reply_recv without NONBLOCK: may wait for ever
 *   nic_recv      without HAKO_NIC_NONBLOCK: a frame may never come
 *   blk_ctl       DELAY above 1 ms (a request may then take 10 s)
 *   blk_write     to the ramdisk's last FZ_REPORT_BLOCKS (the report)
 *   brk           below heap_floor (the C library's heap would vanish)
 *   write         of a buffer that may be mapped (garbage on the console)
 *   isoch_ctl     CREATE with a period over 20 ms (isoch_wait sleeps it)
 *   spawn         of anything but hello and the two broken programs
 *                 (a child reaped by the thread that spawned it); spawn_priv too
 *   priv_drop     in a process that keeps its privileges (the runner and
 *                 the privileged children): its control calls would lose them
 *   calls named by --no LIST
 */
#include <stddef.h>
#include <string.h>
#include <errno.h>
#include <hako.h>
#include <arch/tsc.h>
#include "fuzz.h"

#define ISOCH_PERIOD_LIMIT 20000000ull
#define SLEEP_LIMIT        100000ull
#define DELAY_LIMIT_US     1000ull
#define USER_END           0x0000800000000000ull

struct fz_proc fz;
const char fz_hello[] = "hello";
static const char broken_magic[] = "broken-magic", broken_truncated[] = "broken-truncated";

/* Every thread's buffer: workers, the main thread, helpers (args.c hands them out). */
static uint8_t bufs[FZ_MAX_WORKERS + 2][FZ_BUF] __attribute__((aligned(4096)));

uint8_t *fz_buffer(int index)
{
	return bufs[index];
}

static uint64_t R(struct fz_thread *t) { return fz_rnd(&t->rng); }
static uint64_t B(struct fz_thread *t, uint64_t n) { return fz_below(&t->rng, n); }

/* ---- value pools --------------------------------------------------------- */

static const uint64_t hostile_ptrs[] = {
	0, 1, 0xfff, 0x1000,                            /* NULL, the unmapped bottom */
	HAKO_USER_IMAGE_BASE - 8,                       /* straddles into the image */
	HAKO_USER_STACK_TOP - HAKO_USER_STACK_MAX - 4096, /* the main stack's guard page */
	HAKO_THREAD_STACK_AREA,                         /* slot 0's guard page */
	HAKO_ICA_AREA + HAKO_ICA_AREA_SIZE - 8,         /* ICA window, nothing there */
	HAKO_DRV_AREA,                                  /* a driver's window, not ours */
	0x00007ffffffffff8ull,                          /* last word of user space */
	USER_END, USER_END - 1,                         /* the canonical edge */
	0x8000000000000000ull,                          /* non-canonical */
	0xffff800000000000ull,                          /* the kernel's direct map */
	0xffffffff80000000ull,                          /* kernel text */
	0xfffffffffffff000ull, ~0ull,
};
#define NHOSTILE (sizeof hostile_ptrs / sizeof hostile_ptrs[0])

static const uint64_t lengths[] = {
	0, 1, 7, 8, 14, 59, 60, 64, 1514, 1515, 4095, 4096, 4097, 8192, 65536, 65537,
	1ull << 31, (1ull << 32) + 1, 1ull << 47, ~0ull, ~0ull << 12,
};
#define NLENGTHS (sizeof lengths / sizeof lengths[0])

static const uint64_t ints[] = {
	0, 1, 2, 3, 7, 64, 255, 256, 0x7fffffff, 0x80000000, 0xffffffff, ~0ull, ~1ull,
	0x100000000ull, 0xffffffff00000001ull,
};
#define NINTS (sizeof ints / sizeof ints[0])

/* An address in the heap window: mapped or not, depending on brk now. */
static uint64_t heap_ptr(struct fz_thread *t)
{
	return fz.heap_floor + B(t, FZ_HEAP_WINDOW);
}

/* One of this process's ICAs (pasted here or not), else the empty window. */
static uint64_t ica_ptr(struct fz_thread *t)
{
	uint64_t va = fz.ica_va[B(t, FZ_ICAS)];
	return va ? va + B(t, 4096) : HAKO_ICA_AREA + B(t, 1u << 20);
}

/* This thread's buffer at a small, sometimes odd, offset: at least
 * FZ_BUF - 4096 bytes follow it, more than any call writes. */
static uint64_t buf_ptr(struct fz_thread *t)
{
	return (uint64_t)(t->buf + (B(t, 4) ? B(t, 64) * 8 : B(t, 4096)));
}

static uint64_t ptr_arg(struct fz_thread *t)
{
	uint64_t k = B(t, 20);
	if (k < 10)
		return buf_ptr(t);
	if (k < 13)
		return heap_ptr(t);
	if (k < 15)
		return ica_ptr(t);
	if (k == 15)
		return (uint64_t)&fz_one_call;               /* read-only text */
	return hostile_ptrs[B(t, NHOSTILE)];
}

/* A length to go with a pointer: the buffer's own lengths stay under FZ_BUF - 4096. */
static uint64_t len_arg(struct fz_thread *t)
{
	uint64_t v = lengths[B(t, NLENGTHS)];
	return B(t, 3) ? v : B(t, 8192);
}

/* A thread's entry: the helper, or one the kernel must refuse (never a
 * user address: a thread started there would fault, the fuzzer's fault). */
static uint64_t fn_arg(struct fz_thread *t)
{
	static const uint64_t refused[] = { 0, USER_END, 0x8000000000000000ull,
					    0xffffffff80000000ull, ~0ull };
	return B(t, 2) ? (uint64_t)&fz_helper_entry : refused[B(t, 5)];
}

static int worker_tid(struct fz_thread *t)
{
	return fz.worker_tids[B(t, (uint64_t)fz.nworkers)];
}

/* A thread that lives as long as the process (a join would wait for ever). */
static bool is_lasting_tid(int tid)
{
	for (int i = 0; i < fz.nworkers; i++)
		if (fz.worker_tids[i] == tid)
			return true;
	for (int i = 0; i <= FZ_MAX_PROCS; i++)
		if (fz.long_tids[i] == tid)
			return true;
	return false;
}

static bool is_child_pid(int pid)
{
	for (int i = 0; i < FZ_MAX_PROCS; i++)
		if (pid > 0 && fz.child_pids[i] == pid)
			return true;
	return false;
}

static uint64_t own_id(struct fz_thread *t)
{
	return B(t, 2) ? (uint64_t)fz.icas[B(t, FZ_ICAS)] : (uint64_t)fz.sems[B(t, FZ_SEMS)];
}

/* A value for a parameter of kind k. */
static uint64_t arg_of(struct fz_thread *t, int k)
{
	if (k == FZ_FN)
		return fn_arg(t);
	if (B(t, 8) == 0)
		return B(t, 2) ? R(t) : ints[B(t, NINTS)];   /* any kind: garbage */
	switch (k) {
	case FZ_PTR: return ptr_arg(t);
	case FZ_FN:  return fn_arg(t);
	case FZ_LEN: return len_arg(t);
	case FZ_PID: {
		uint64_t c = B(t, 4);
		return c == 0 ? (uint64_t)fz.pid : c == 1 ? (uint64_t)fz.child_pids[B(t, FZ_MAX_PROCS)] :
		       c == 2 ? 1 + B(t, 64) : (uint64_t)-(int64_t)B(t, 3);
	}
	case FZ_TID:   return B(t, 3) ? (uint64_t)worker_tid(t) : B(t, 2) ? 0 : B(t, 200);
	case FZ_CPU:   return B(t, 4) ? B(t, (uint64_t)fz.ncpus) : B(t, 2) ? (uint64_t)fz.ncpus : 16 + B(t, 50);
	case FZ_OP:    return B(t, 4) ? B(t, 7) : (uint64_t)(int64_t)-1;
	case FZ_FLAGS: return B(t, 2) ? 1ull << B(t, 7) : B(t, 2) ? 0 : R(t) & 0x7f;
	case FZ_ID:    return B(t, 3) ? B(t, 4) : B(t, 2) ? own_id(t) : B(t, 300);
	case FZ_OFFSET: return B(t, 2) ? B(t, 300) * 4096 : B(t, 2) ? B(t, 1u << 20) : ~0ull - B(t, 8192);
	case FZ_NS:    return B(t, 2) ? 0 : B(t, SLEEP_LIMIT);
	case FZ_MASK:  return B(t, 2) ? 1ull << B(t, (uint64_t)fz.ncpus) : B(t, 2) ? ~0ull : R(t);
	case FZ_PRIO:  return B(t, 4) ? 1 + B(t, FZ_PRIO_MAX) : ints[B(t, NINTS)];
	case FZ_U64:   return B(t, 2) ? B(t, 4096) : R(t);
	default:       return B(t, 2) ? B(t, 16) : ints[B(t, NINTS)];
	}
}

/* ---- what is left out ---------------------------------------------------- */

static bool user_mapped_maybe(uint64_t p)
{
	return p >= HAKO_USER_IMAGE_BASE && p < USER_END;
}

static bool in_bufs(uint64_t p, uint64_t len)
{
	return p >= (uint64_t)bufs && p + len <= (uint64_t)bufs + sizeof bufs;
}

/* A program name the fuzzer may start: hello, the broken ones, or a name
 * no program has (a first byte above ASCII); other memory may spell one. */
static bool spawn_ok(uint64_t path)
{
	if (!user_mapped_maybe(path))
		return true;
	if (path == (uint64_t)fz_hello || path == (uint64_t)broken_magic ||
	    path == (uint64_t)broken_truncated)
		return true;
	return in_bufs(path, 1) && *(const uint8_t *)path >= 0x80;
}

/* ---- parameters and argument words ------------------------------------- */

/* Bit i set: parameter i of call nr is 64 bits (fz_wide, from syscalls.def). */
static unsigned wide_params(int nr)
{
	return nr >= 0 && nr < FZ_WIDE_NRS ? fz_wide[nr] : 0;
}

/*
 * The parameters a[] as the kernel reads them, into k[]: where a word is
 * 32 bits (SH-4), a parameter that is not 64 bits wide is one word, widened
 * without sign (arch_syscall_arg); elsewhere they are a[] itself.
 */
static void kernel_view(int nr, const uint64_t *a, uint64_t *k)
{
	unsigned wide = wide_params(nr);
	for (int i = 0; i < 6; i++)
		k[i] = (wide >> i & 1) ? a[i] : (unsigned long)a[i];
}

/*
 * The argument words sys_raw passes for parameters a[]: the parameters
 * themselves where a word is 64 bits; where it is 32 (SH-4), a 64-bit
 * parameter takes two consecutive words, low first, and the parameters
 * after it move one word on (sh4_abi in tools/build/gensyscalls.py).
 */
static void argument_words(int nr, const uint64_t *a, long *w)
{
	unsigned wide = wide_params(nr);
	int n = 0;
	for (int i = 0; n < 6; i++) {
		w[n++] = (long)a[i];
		if (sizeof(long) < 8 && (wide >> i & 1) && n < 6)
			w[n++] = (long)(a[i] >> 32);
	}
}

bool fz_refused(int nr, const uint64_t *params)
{
	uint64_t a[6];
	kernel_view(nr, params, a);
	if (nr >= 0 && nr < SYS_COUNT && fz.no[nr])
		return true;
	switch (nr) {
	case SYS_exit:        return fz.runner || (a[0] & 0xff) != FZ_CHILD_EXIT;
	case SYS_thread_exit: return true;
	case SYS_kill:        return (int)a[0] == fz.pid || (fz.runner && is_child_pid((int)a[0]));
	case SYS_read:        return (int)a[2] == 0;
	case SYS_sleep:       return a[0] > SLEEP_LIMIT;
	case SYS_wait:        return fz.runner && ((int)a[0] == -1 || is_child_pid((int)a[0]));
	case SYS_thread_join: return is_lasting_tid((int)a[0]);
	case SYS_ispc_request: return !((int)a[2] & HAKO_ISPC_ASYNC);
	case SYS_ispc_receive: return !((int)a[1] & HAKO_ISPC_NONBLOCK);
	case SYS_ispc_result: return !((int)a[2] & HAKO_ISPC_NONBLOCK);
	case SYS_ispc_reply:  return (int)a[1] & HAKO_ISPC_WAIT;
	case SYS_ispc_call:   return !((int)a[3] & ~HAKO_ISPC_DIRECT);
	case SYS_ispc_reply_recv: return !((int)a[2] & HAKO_ISPC_NONBLOCK);
	case SYS_nic_recv:    return !(a[3] & HAKO_NIC_NONBLOCK);
	case SYS_nic_ctl:     return fz.no[FZ_NO_NIC_OPEN] &&
				     ((int)a[1] == HAKO_NIC_OPEN || (int)a[1] == HAKO_NIC_CLOSE);
	case SYS_blk_ctl:     return (int)a[1] == HAKO_BLK_DELAY && a[2] > DELAY_LIMIT_US;
	case SYS_blk_write:   return fz.ramdisk >= 0 && (int)a[0] == fz.ramdisk &&
				     a[1] + a[3] > (fz.ramdisk_blocks - FZ_REPORT_BLOCKS) * HAKO_BLK_SIZE;
	case SYS_brk:         return a[0] >= HAKO_USER_IMAGE_BASE && a[0] < fz.heap_floor;
	case SYS_write:       return a[1] != 0 && user_mapped_maybe(a[0]);
	case SYS_spawn:
	case SYS_spawn_priv:  return !spawn_ok(a[0]);
	case SYS_priv_drop:   return !fz.unprivileged;
	case SYS_isoch_ctl:
		if ((int)a[0] != HAKO_ISOCH_CREATE || !user_mapped_maybe(a[2]))
			return false;
		/* Only a structure in our own buffers can be read here. */
		if (!in_bufs(a[2], sizeof(struct hako_isoch)))
			return true;
		return ((const struct hako_isoch *)a[2])->period_ns > ISOCH_PERIOD_LIMIT;
	}
	return false;
}

/* ---- making the call ----------------------------------------------------- */

/* Calls that cost much more than the others (a process, a thread, a
 * timer, a purge) are drawn 1 in RARITY times they come up. */
static uint32_t rarity(int nr)
{
	switch (nr) {
	case SYS_spawn:       return 100;
	case SYS_thread_create: case SYS_nic_traffic: case SYS_isoch_ctl: case SYS_ispc_mode:
		return 8;
	case SYS_perf_ctl: case SYS_intr_ctl: case SYS_blk_ctl: case SYS_drvproc_ctl:
		return 4;
	}
	return 1;
}

static void count(struct fz_thread *t, int nr, long r, uint64_t tsc)
{
	fz_count(t->counts, nr >= 0 && nr < SYS_COUNT ? nr : FZ_OTHER, r, tsc);
}

/* Make call nr with parameters a[] (argument_words lays them out); counted; the result. */
long fz_call(struct fz_thread *t, int nr, const uint64_t *a)
{
	long w[6];
	argument_words(nr, a, w);
	uint64_t t0 = tsc_now();
	long r = sys_raw(nr, w[0], w[1], w[2], w[3], w[4], w[5]);
	t->made++;
	count(t, nr, r, tsc_now() - t0);
	return r;
}

/* Arguments by kind for call c; false if they are left out. */
static bool generic(struct fz_thread *t, const struct fz_call *c, uint64_t *a)
{
	for (int i = 0; i < c->nargs; i++)
		a[i] = arg_of(t, c->kind[i]);
	for (int i = c->nargs; i < 6; i++)
		a[i] = B(t, 2) ? 0 : R(t);                   /* registers the call does not read */
	return !fz_refused(c->nr, a);
}

void fz_one_call(struct fz_thread *t)
{
	uint64_t a[6];
	if (B(t, 64) == 0) {                             /* a number the list does not have */
		int nr = B(t, 2) ? SYS_COUNT + (int)B(t, 1000) : (int)(R(t) | 0x80000000u);
		for (int i = 0; i < 6; i++)
			a[i] = R(t);
		fz_call(t, nr, a);
		return;
	}
	for (;;) {
		const struct fz_call *c = &fz_calls[B(t, FZ_NCALLS)];
		if (fz.no[c->nr] || B(t, rarity(c->nr)))
			continue;
		if (B(t, 4) && fz_smart(t, c->nr))
			return;
		if (generic(t, c, a)) {
			long r = fz_call(t, c->nr, a);
			fz_after(t, c->nr, a, r);
			return;
		}
	}
}
