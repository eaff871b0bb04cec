/*
 * ispcbench/partial.c — the paper's partial operations: system-call entry
 * and exit, ICA paste, ICA peel, the first access to a freshly pasted ICA,
 * and the process switch (two processes waking each other through
 * semaphores; the same in both modes, measured here for the table).
 *
 * Each figure has a region.  Peel, paste and the first access were timed
 * back to back; each now starts with a TSC read of its own after the
 * previous region's markers, so the markers fall outside every span.
 */
#include <stdio.h>
#include <stdlib.h>
#include <hako/sys.h>
#include <hako/arch/x86_64/tsc.h>
#include "ispcbench.h"

#define RUNS 2000

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
	bench_report_region(figure("syscall", ""), &s, "per null system call",
			    ispc_region(REGION_ISPC_SYSCALL), s.n);
	samples_free(&s);
	return 0;
}

/* Peel, paste back, touch: each timed on its own, RUNS times. */
static int partial_ica(void)
{
	struct samples peel, paste, touch;
	uint64_t va;
	long id = sys_ica_alloc(1, &va);
	if (id < 0)
		return fail("ica_alloc", id);
	*(volatile uint32_t *)va = 1;
	int err = samples_init(&peel, RUNS) < 0 || samples_init(&paste, RUNS) < 0 ||
		  samples_init(&touch, RUNS) < 0 ? -1 : 0;
	for (int i = 0; i < RUNS && !err; i++) {
		ispc_region_begin(REGION_ISPC_PEEL, 0);
		uint64_t t0 = tsc_now();
		long r = sys_ica_peel((int)id);
		uint64_t t1 = tsc_now();
		ispc_region_end(REGION_ISPC_PEEL, 0);
		ispc_region_begin(REGION_ISPC_PASTE, 0);
		uint64_t t1b = tsc_now();
		long r2 = sys_ica_paste((int)id);
		uint64_t t2 = tsc_now();
		ispc_region_end(REGION_ISPC_PASTE, 0);
		ispc_region_begin(REGION_ISPC_FIRST_ACCESS, 0);
		uint64_t t2b = tsc_now();
		(void)*(volatile uint32_t *)va;
		uint64_t t3 = tsc_now();
		ispc_region_end(REGION_ISPC_FIRST_ACCESS, 0);
		if (r < 0 || r2 < 0)
			err = fail("ica_peel/ica_paste", r < 0 ? r : r2);
		samples_add(&peel, t1 - t0);
		samples_add(&paste, t2 - t1b);
		samples_add(&touch, t3 - t2b);
	}
	if (!err) {
		bench_report_region(figure("ica_paste", ""), &paste, "per ica_paste of a one-page ICA",
				    ispc_region(REGION_ISPC_PASTE), paste.n);
		bench_report_region(figure("ica_peel", ""), &peel, "per ica_peel of a one-page ICA, touched",
				    ispc_region(REGION_ISPC_PEEL), peel.n);
		bench_report_region(figure("first_access", ""), &touch, "first read of a freshly pasted ICA",
				    ispc_region(REGION_ISPC_FIRST_ACCESS), touch.n);
	}
	samples_free(&peel);
	samples_free(&paste);
	samples_free(&touch);
	sys_ica_free((int)id);
	return err;
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
		bench_report_region(figure("process_switch", ""), &s, "one way: half a semaphore ping-pong",
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
	if (partial_syscall() < 0 || partial_ica() < 0)
		return -1;
	return partial_switch();
}
