/*
 * ispcbench/partial.c — the paper's partial operations: system-call entry
 * and exit, ICA paste, ICA peel, the first access to a freshly pasted ICA,
 * and the process switch (two processes waking each other through
 * semaphores; the same in both modes, measured here for the table).
 *
 * Paste, peel and the first access are also measured in a helper server
 * (`_server_` figures): the paper's Table 2 tells the two sides apart.
 * `clock` is the span of two clock reads alone, which every figure
 * includes (a few instructions on x86, two system-call halves on SH-4).
 *
 * Each figure has a region.  Peel, paste and the first access were timed
 * back to back; each now starts with a TSC read of its own after the
 * previous region's markers, so the markers fall outside every span.
 * Every region holds its figure's two clock reads whole; the clock's own
 * region holds them alone, so a region's modelled cost less the clock's
 * is the operation's own (tools/hakotool/papers/p002/sh4.py).
 */
#include <stdio.h>
#include <stdlib.h>
#include <hako/sys.h>
#include <arch/tsc.h>
#include "ispcbench.h"

#define RUNS 2000

/* Two clock reads back to back: what every figure's span includes (on
 * SH-4 the clock is a system call, sys_clock). */
static int partial_clock(void)
{
	struct samples s;
	if (samples_init(&s, RUNS) < 0)
		return -1;
	for (int i = 0; i < RUNS; i++) {
		ispc_region_begin(REGION_ISPC_CLOCK, 0);
		uint64_t t0 = tsc_now();
		uint64_t t1 = tsc_now();
		ispc_region_end(REGION_ISPC_CLOCK, 0);
		samples_add(&s, t1 - t0);
	}
	ispc_report(figure("clock", ""), &s, "the span of two clock reads, in every figure",
		    ispc_region(REGION_ISPC_CLOCK), s.n);
	samples_free(&s);
	return 0;
}

static int partial_syscall(void)
{
	struct samples s;
	if (samples_init(&s, RUNS) < 0)
		return -1;
	for (int i = 0; i < RUNS; i++) {
		ispc_region_begin(REGION_ISPC_SYSCALL, 0);
		uint64_t t0 = tsc_now();
		sys_null();
		uint64_t t1 = tsc_now();
		ispc_region_end(REGION_ISPC_SYSCALL, 0);
		samples_add(&s, t1 - t0);
	}
	ispc_report(figure("syscall", ""), &s, "per null system call",
		    ispc_region(REGION_ISPC_SYSCALL), s.n);
	samples_free(&s);
	return 0;
}

/* A server's three regions are the application's, SERVER_SHIFT on. */
#define SERVER_SHIFT (REGION_ISPC_SERVER_PASTE - REGION_ISPC_PASTE)
_Static_assert(REGION_ISPC_SERVER_PEEL - REGION_ISPC_PEEL == SERVER_SHIFT &&
	       REGION_ISPC_SERVER_FIRST - REGION_ISPC_FIRST_ACCESS == SERVER_SHIFT,
	       "server regions follow the application's");

/*
 * Peel, paste back, touch: each timed on its own, RUNS times.  Run by the
 * client (an application) or, for OP_SERVER_PARTIAL, by a helper server,
 * which in fast mode holds the ICA window: there peel and paste change
 * only the kernel's bookkeeping and the touch finds the window's mapping.
 */
int partial_ica(int server)
{
	struct samples peel, paste, touch;
	uint64_t va;
	int k = server ? SERVER_SHIFT : 0;
	const char *side = server ? "server" : "";
	long id = sys_ica_alloc(1, &va);
	if (id < 0)
		return fail("ica_alloc", id);
	*(volatile uint32_t *)va = 1;
	int err = samples_init(&peel, RUNS) < 0 || samples_init(&paste, RUNS) < 0 ||
		  samples_init(&touch, RUNS) < 0 ? -1 : 0;
	for (int i = 0; i < RUNS && !err; i++) {
		ispc_region_begin(REGION_ISPC_PEEL, k);
		uint64_t t0 = tsc_now();
		long r = sys_ica_peel((int)id);
		uint64_t t1 = tsc_now();
		ispc_region_end(REGION_ISPC_PEEL, k);
		ispc_region_begin(REGION_ISPC_PASTE, k);
		uint64_t t1b = tsc_now();
		long r2 = sys_ica_paste((int)id);
		uint64_t t2 = tsc_now();
		ispc_region_end(REGION_ISPC_PASTE, k);
		ispc_region_begin(REGION_ISPC_FIRST_ACCESS, k);
		uint64_t t2b = tsc_now();
		(void)*(volatile uint32_t *)va;
		uint64_t t3 = tsc_now();
		ispc_region_end(REGION_ISPC_FIRST_ACCESS, k);
		if (r < 0 || r2 < 0)
			err = fail("ica_peel/ica_paste", r < 0 ? r : r2);
		samples_add(&peel, t1 - t0);
		samples_add(&paste, t2 - t1b);
		samples_add(&touch, t3 - t2b);
	}
	if (!err) {
		ispc_report(figure("ica_paste", side), &paste, "per ica_paste of a one-page ICA",
			    ispc_region(REGION_ISPC_PASTE + k), paste.n);
		ispc_report(figure("ica_peel", side), &peel, "per ica_peel of a one-page ICA, touched",
			    ispc_region(REGION_ISPC_PEEL + k), peel.n);
		ispc_report(figure("first_access", side), &touch, "first read of a freshly pasted ICA",
			    ispc_region(REGION_ISPC_FIRST_ACCESS + k), touch.n);
	}
	samples_free(&peel);
	samples_free(&paste);
	samples_free(&touch);
	sys_ica_free((int)id);
	return err;
}

/* The same three in a helper server: one request asks for them. */
static int partial_server(void)
{
	struct call c;
	int server = spawn_server(0);
	if (server < 0 || call_open(&c, 0) < 0)
		return -1;
	c.st->op = OP_SERVER_PARTIAL;
	struct hako_ispc_msg m = { .ctl = c.ctl, .data = -1 };
	long r = sys_ispc_request(server, &m, 0);
	call_close(&c);
	stop_server(server);
	if (r < 0 || m.status < 0)
		return fail("server partial operations", r < 0 ? r : m.status);
	return 0;
}

/* The other side of the switch: wait on A, post B, RUNS times. */
int pong_main(int argc, char **argv)
{
	int a = atoi(argv[0]), b = atoi(argv[1]);
	if (argc < 2 || pin_self(BENCH_CPU) < 0 || sys_sem_post(b) < 0)
		return 1;
	for (int i = 0; i < RUNS; i++)
		if (sys_sem_wait(a) < 0 || sys_sem_post(b) < 0)
			return 1;
	return 0;
}

static int partial_switch(void)
{
	struct samples s;
	long a = sys_sem_create(0), b = sys_sem_create(0);
	char sa[16], sb[16];
	snprintf(sa, sizeof sa, "%ld", a);
	snprintf(sb, sizeof sb, "%ld", b);
	char *argv[] = { "ispcbench", "--pong", sa, sb, NULL };
	int pid = a < 0 || b < 0 ? -1 : spawnv("ispcbench", argv), status, err = 0;
	if (pid < 0 || samples_init(&s, RUNS) < 0 || sys_sem_wait((int)b) < 0)
		err = fail("process switch set-up", pid);
	for (int i = 0; i < RUNS && !err; i++) {
		ispc_region_begin(REGION_ISPC_SWITCH, 0);
		uint64_t t0 = tsc_now();
		if (sys_sem_post((int)a) < 0 || sys_sem_wait((int)b) < 0)
			err = fail("sem_post/sem_wait", -1);
		uint64_t t1 = tsc_now();
		ispc_region_end(REGION_ISPC_SWITCH, 0);
		samples_add(&s, (t1 - t0) / 2);
	}
	if (!err)
		ispc_report(figure("process_switch", ""), &s, "one way: half a semaphore ping-pong",
			    ispc_region(REGION_ISPC_SWITCH), 2ul * s.n);
	if (pid > 0)
		waitpid(pid, &status);
	sys_sem_destroy((int)a);
	sys_sem_destroy((int)b);
	samples_free(&s);
	return err;
}

int part_partial(void)
{
	if (partial_clock() < 0 || partial_syscall() < 0 || partial_ica(0) < 0 || partial_server() < 0)
		return -1;
	return partial_switch();
}
