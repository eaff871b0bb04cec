/*
 * user/sh/builtins.c — the commands the shell runs itself.
 *
 * Each returns its status; `status` returns the previous one, so asking
 * twice gives the same answer.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <hako/sys.h>
#include "sh.h"

struct builtin {
	const char *name;
	const char *usage;
	const char *help;
	int (*run)(int argc, char **argv);
};

static int do_help(int argc, char **argv);

int sh_parse_int(const char *what, const char *s, int *out)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 0);
	if (end == s || *end != '\0' || errno == ERANGE || v != (int)v) {
		printf("sh: %s: not a number: %s\n", what, s);
		return 0;
	}
	*out = (int)v;
	return 1;
}

static int do_ls(int argc, char **argv)
{
	char name[HAKO_PATH_MAX + 1];
	long n;
	int i;

	(void)argc;
	(void)argv;
	for (i = 0;; i++) {
		memset(name, 0, sizeof(name));
		n = sys_progname(i, name, sizeof(name) - 1);
		if (n < 0)
			break;
		printf("%s\n", name);
	}
	if (n != -ENOENT) {
		printf("sh: ls: %s\n", strerror((int)-n));
		return 1;
	}
	return 0;
}

static int do_status(int argc, char **argv)
{
	int s = sh_last_status;

	(void)argc;
	(void)argv;
	if (HAKO_WIFKILLED(s))
		printf("status %d (killed, cause %d)\n", s, HAKO_WCAUSE(s));
	else
		printf("status %d\n", s);
	return s;
}

static int do_exit(int argc, char **argv)
{
	int code = 0;

	if (argc > 1 && !sh_parse_int("exit", argv[1], &code))
		return 1;
	exit(code);
}

static int do_poweroff(int argc, char **argv)
{
	int code = 0;
	long r;

	if (argc > 1 && !sh_parse_int("poweroff", argv[1], &code))
		return 1;
	r = sys_poweroff(code);
	printf("sh: poweroff: %s\n", strerror((int)-r));
	return 1;
}

/* sys_cpustat returns the number of CPUs (offline ones included). */
static int do_cpus(int argc, char **argv)
{
	struct hako_cpustat st;
	long r = 0, ncpus = 1;
	int cpu;

	(void)argc;
	(void)argv;
	printf("cpu online idle prio runq        ticks         irqs     switches\n");
	for (cpu = 0; cpu < ncpus; cpu++) {
		r = sys_cpustat(cpu, &st);
		if (r < 0)
			break;
		ncpus = r;
		printf("%3d %6d %4d %4d %4d %12llu %12llu %12llu\n", cpu, st.online,
		       st.idle, st.cur_prio, st.rq_len, (unsigned long long)st.ticks,
		       (unsigned long long)st.irqs, (unsigned long long)st.ctx_switches);
	}
	if (cpu == 0) {
		printf("sh: cpus: %s\n", strerror((int)-r));
		return 1;
	}
	return 0;
}

/* One line per thread, kernel threads (pid 0) too: the kernel's list (sys_ps). */
static int do_ps(int argc, char **argv)
{
	static const char *const states[] = { "new", "runnable", "running", "sleeping", "dead" };
	struct hako_psinfo info;
	struct hako_sysinfo si;
	uint64_t hz = sys_sysinfo(&si) == 0 && si.tsc_hz ? si.tsc_hz : 1000000000ull;
	long r;
	int i;

	if (argc != 1) {
		printf("usage: ps\n");
		return 1;
	}
	(void)argv;
	printf("  PID   TID STATE     CPU PRIO     CPU-MS NAME\n");
	for (i = 0; (r = sys_ps(i, &info)) == 0; i++) {
		unsigned st = (unsigned)info.state;
		printf("%5d %5d %-9s %3d %4d %10llu %s\n", info.pid, info.tid,
		       st < 5 ? states[st] : "?", info.cpu, info.prio,
		       (unsigned long long)(info.runtime_tsc / (hz / 1000)), info.name);
	}
	if (r != -ENOENT) {
		printf("sh: ps: %s\n", strerror((int)-r));
		return 1;
	}
	return 0;
}

static int do_mem(int argc, char **argv)
{
	struct hako_sysinfo si;
	long r = sys_sysinfo(&si);
	unsigned long long kib;

	(void)argc;
	(void)argv;
	if (r < 0) {
		printf("sh: mem: %s\n", strerror((int)-r));
		return 1;
	}
	kib = (unsigned long long)si.page_size / 1024;
	printf("frames: %llu free of %llu (%llu KiB free of %llu KiB, %d-byte pages)\n",
	       (unsigned long long)si.free_frames, (unsigned long long)si.total_frames,
	       si.free_frames * kib, si.total_frames * kib, si.page_size);
	printf("cpus %d, processes %d, threads %d, tsc %llu Hz, %llu frames per minimal process\n",
	       si.ncpus, si.nprocs, si.nthreads, (unsigned long long)si.tsc_hz,
	       (unsigned long long)si.proc_kernel_frames);
	return 0;
}

static int do_wait(int argc, char **argv)
{
	int pid = -1;

	if (argc > 1 && !sh_parse_int("wait", argv[1], &pid))
		return 1;
	return jobs_wait(pid);
}

static int do_jobs(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	jobs_list();
	return 0;
}

static int do_kill(int argc, char **argv)
{
	int pid;
	long r;

	if (argc != 2) {
		printf("usage: kill PID\n");
		return 1;
	}
	if (!sh_parse_int("kill", argv[1], &pid))
		return 1;
	r = sys_kill(pid);
	if (r < 0) {
		printf("sh: kill %d: %s\n", pid, strerror((int)-r));
		return 1;
	}
	return 0;
}

static int do_echo(int argc, char **argv)
{
	char line[SH_LINE_MAX];

	line[0] = '\0';
	for (int i = 1; i < argc; i++) {
		if (i > 1)
			strlcat(line, " ", sizeof(line));
		strlcat(line, argv[i], sizeof(line));
	}
	printf("%s\n", line);
	return 0;
}

static const struct builtin builtins[] = {
	{ "help", "", "this list", do_help },
	{ "ls", "", "list the programs", do_ls },
	{ "status", "", "status of the last command", do_status },
	{ "echo", "[WORDS]", "print the words", do_echo },
	{ "jobs", "", "list background children", do_jobs },
	{ "wait", "[PID]", "wait for background children", do_wait },
	{ "kill", "PID", "kill a process", do_kill },
	{ "priv", "[LIST CMD]", "privileges; run CMD holding LIST", sh_priv_show },
	{ "ps", "", "every thread: pid, tid, state, CPU, CPU time, name", do_ps },
	{ "cpus", "", "per-CPU counters", do_cpus },
	{ "mem", "", "free and total memory", do_mem },
	{ "exit", "[N]", "leave the shell with status N", do_exit },
	{ "poweroff", "[N]", "stop the machine with status N", do_poweroff },
	{ NULL, NULL, NULL, NULL },
};

static int do_help(int argc, char **argv)
{
	(void)argc;
	(void)argv;
	printf("builtins:\n");
	for (const struct builtin *b = builtins; b->name != NULL; b++) {
		char left[32];

		snprintf(left, sizeof(left), "%s %s", b->name, b->usage);
		printf("  %-18s %s\n", left, b->help);
	}
	printf("any other word runs the program of that name (see ls) with the\n"
	       "words after it as arguments; a trailing & runs it in the background;\n"
	       "priv LIST CMD runs it holding only LIST (none, all, or some of\n"
	       "devctl,intr,drvproc,measure,sched,ipc), never more than the shell\n");
	return 0;
}

int sh_builtin(int argc, char **argv, int *status)
{
	for (const struct builtin *b = builtins; b->name != NULL; b++) {
		if (strcmp(argv[0], b->name) == 0) {
			*status = b->run(argc, argv);
			return 1;
		}
	}
	return 0;
}
