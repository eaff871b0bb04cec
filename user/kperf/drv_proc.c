/*
 * kperf/drv_proc.c — drivers of the calls about processes, threads, the
 * console, time and scheduling.  Calls that do not return on success
 * (exit, thread_exit, poweroff) are reported as not timed, with why.
 */
#include <stdio.h>
#include "kperf.h"

#define SETTLE_NS 5000000ull	/* long enough for a child to start, exit or fall asleep */

int kperf_drv_null(struct kperf_run *run)
{
	KPERF_TIME(run, sys_null(), sys_null());
	return 0;
}

int kperf_drv_exit(struct kperf_run *run)
{
	run->why = "does not return: the caller is gone (sysbench's spawn_exit_wait includes it)";
	return KPERF_NOT_TIMED;
}

int kperf_drv_write(struct kperf_run *run)
{
	long r = KPERF_TIME(run, sys_write(".", 1), sys_write(".", 1));
	sys_write("\n", 1);	/* result lines must start a line */
	run->note = "one byte to the console";
	return r == 1 ? 0 : kperf_fail("write", r);
}

int kperf_drv_read(struct kperf_run *run)
{
	char buf[16];
	long r = KPERF_TIME(run, sys_read(buf, sizeof buf, HAKO_READ_NONBLOCK),
			    sys_read(buf, sizeof buf, HAKO_READ_NONBLOCK));
	run->note = "console, non-blocking, nothing typed";
	return r < 0 ? kperf_fail("read", r) : 0;
}

int kperf_drv_getpid(struct kperf_run *run)
{
	KPERF_TIME(run, sys_getpid(), sys_getpid());
	return 0;
}

static char *exit_argv[] = { "kperf", "--exit", NULL };
static char *sleep_argv[] = { "kperf", "--sleep", NULL };

/* The two children A and B of a spawn driver collected; 0, or why not if one failed. */
static int reap_two(const char *call, long a, long b)
{
	if (a > 0)
		waitpid((int)a, NULL);
	if (b > 0)
		waitpid((int)b, NULL);
	return a < 0 || b < 0 ? kperf_fail(call, a < 0 ? a : b) : 0;
}

int kperf_drv_spawn(struct kperf_run *run)
{
	long a = -1;
	long b = KPERF_TIME(run, a = sys_spawn("kperf", exit_argv), sys_spawn("kperf", exit_argv));
	run->note = "`kperf --exit` from the boot archive (the child's run not included)";
	return reap_two("spawn", a, b);
}

int kperf_drv_spawn_priv(struct kperf_run *run)
{
	long a = -1;
	long b = KPERF_TIME(run, a = sys_spawn_priv("kperf", exit_argv, HAKO_PRIV_NONE),
			    sys_spawn_priv("kperf", exit_argv, HAKO_PRIV_NONE));
	run->note = "`kperf --exit` holding no privilege (the child's run not included)";
	return reap_two("spawn_priv", a, b);
}

int kperf_drv_priv_get(struct kperf_run *run)
{
	long r = KPERF_TIME(run, sys_priv_get(), sys_priv_get());
	return r < 0 ? kperf_fail("priv_get", r) : 0;
}

int kperf_drv_priv_drop(struct kperf_run *run)
{
	long r = KPERF_TIME(run, sys_priv_drop(HAKO_PRIV_NONE), sys_priv_drop(HAKO_PRIV_NONE));
	run->note = "no bit (the set stays as it is)";
	return r < 0 ? kperf_fail("priv_drop", r) : 0;
}

/* Two children of ARGV, given time to get going. */
static int two_children(char **argv, int pid[2])
{
	pid[0] = kperf_spawn(argv);
	pid[1] = pid[0] < 0 ? -1 : kperf_spawn(argv);
	if (pid[1] < 0)
		return kperf_fail("spawn", pid[0] < 0 ? pid[0] : pid[1]);
	sys_sleep(SETTLE_NS);
	return 0;
}

int kperf_drv_wait(struct kperf_run *run)
{
	int pid[2], status;
	if (two_children(exit_argv, pid) < 0)
		return -1;
	long r = KPERF_TIME(run, sys_wait(pid[0], &status), sys_wait(pid[1], &status));
	run->note = "a child that has exited already";
	return r != pid[1] ? kperf_fail("wait", r) : 0;
}

int kperf_drv_kill(struct kperf_run *run)
{
	int pid[2];
	if (two_children(sleep_argv, pid) < 0)
		return -1;
	long r = KPERF_TIME(run, sys_kill(pid[0]), sys_kill(pid[1]));
	waitpid(pid[0], NULL);
	waitpid(pid[1], NULL);
	run->note = "a sleeping child";
	return r < 0 ? kperf_fail("kill", r) : 0;
}

int kperf_drv_yield(struct kperf_run *run)
{
	KPERF_TIME(run, sys_yield(), sys_yield());
	run->note = "nothing else ready on the CPU";
	return 0;
}

int kperf_drv_sleep(struct kperf_run *run)
{
	KPERF_TIME(run, sys_sleep(0), sys_sleep(0));
	run->note = "0 ns: a timer already due";
	return 0;
}

int kperf_drv_clock(struct kperf_run *run)
{
	KPERF_TIME(run, sys_clock(), sys_clock());
	return 0;
}

int kperf_drv_brk(struct kperf_run *run)
{
	long r = KPERF_TIME(run, sys_brk(NULL), sys_brk(NULL));
	run->note = "query (NULL)";
	return r < 0 ? kperf_fail("brk", r) : 0;
}

static void quit_entry(void *arg)
{
	(void)arg;
	sys_thread_exit(0);
}

int kperf_drv_thread_create(struct kperf_run *run)
{
	long a = -1;
	long b = KPERF_TIME(run, a = sys_thread_create(quit_entry, NULL),
			    sys_thread_create(quit_entry, NULL));
	if (a > 0)
		sys_thread_join((int)a);
	if (b > 0)
		sys_thread_join((int)b);
	run->note = "a thread that exits at once (its run not included)";
	return a < 0 || b < 0 ? kperf_fail("thread_create", a < 0 ? a : b) : 0;
}

int kperf_drv_thread_exit(struct kperf_run *run)
{
	run->why = "does not return: the calling thread is gone";
	return KPERF_NOT_TIMED;
}

int kperf_drv_thread_join(struct kperf_run *run)
{
	long a = sys_thread_create(quit_entry, NULL);
	long b = a < 0 ? a : sys_thread_create(quit_entry, NULL);
	if (b < 0)
		return kperf_fail("thread_create", b);
	sys_sleep(SETTLE_NS);
	long r = KPERF_TIME(run, sys_thread_join((int)a), sys_thread_join((int)b));
	run->note = "a thread that has exited already";
	return r < 0 ? kperf_fail("thread_join", r) : 0;
}

int kperf_drv_gettid(struct kperf_run *run)
{
	KPERF_TIME(run, sys_gettid(), sys_gettid());
	return 0;
}

int kperf_drv_set_affinity(struct kperf_run *run)
{
	uint64_t mask = 1ull << KPERF_CPU;
	long r = KPERF_TIME(run, sys_set_affinity(0, mask), sys_set_affinity(0, mask));
	run->note = "the mask it has (no move)";
	return r < 0 ? kperf_fail("set_affinity", r) : 0;
}

int kperf_drv_migrate(struct kperf_run *run)
{
	long r = KPERF_TIME(run, sys_migrate(KPERF_CPU), sys_migrate(KPERF_CPU));
	run->note = "to the CPU it is on";
	return r < 0 ? kperf_fail("migrate", r) : 0;
}

int kperf_drv_getcpu(struct kperf_run *run)
{
	KPERF_TIME(run, sys_getcpu(), sys_getcpu());
	return 0;
}

int kperf_drv_poweroff(struct kperf_run *run)
{
	run->why = "does not return: the machine stops (and only pid 1 may call it)";
	return KPERF_NOT_TIMED;
}

#define PRIO_DEFAULT 8	/* kernel/sched/sched.h: what every thread starts with */

int kperf_drv_setprio(struct kperf_run *run)
{
	long r = KPERF_TIME(run, sys_setprio(0, PRIO_DEFAULT), sys_setprio(0, PRIO_DEFAULT));
	run->note = "the priority it has";
	return r < 0 ? kperf_fail("setprio", r) : 0;
}
