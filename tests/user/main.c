/*
 * tests/user/main.c — Hako's in-guest test suite: the runner.
 *
 *   selftest                 every test
 *   selftest NAME...         the tests named
 *   selftest --list          their names
 *   selftest --one NAME      run one test in this process (what the runner spawns)
 *   selftest --role R ARGS   act as helper process R for a test
 *
 * Each test runs in a child process; the runner waits for it, then
 * compares the free-frame count, the free pages of the ICA region and
 * the kernel's count of ICAs with the ones taken before it started: a
 * frame or an ICA page not given back, or an ICA count not back where it
 * was, fails the test.  A test whose need (TEST_NEEDS) this machine
 * lacks is not started but skipped.  Output per test: a line
 * `selftest: PASS|FAIL name` or `selftest: SKIP name: reason` and a result
 * line (kind "utest"); at the end `selftest: N passed, N failed, N skipped`
 * and a "utest-summary" record.  The exit status is the number of
 * failures (at most 255).
 */
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <hako/result.h>
#include <hako/sys.h>
#include "test.h"

extern const struct utest __start_utests[], __stop_utests[];
extern const struct urole __start_uroles[], __stop_uroles[];

static char reason[200];

void test_fail(const char *file, int line, const char *fmt, ...)
{
	va_list ap;
	int n = snprintf(reason, sizeof reason, "%s:%d: ", file, line);
	va_start(ap, fmt);
	vsnprintf(reason + n, sizeof reason - (size_t)n, fmt, ap);
	va_end(ap);
	printf("selftest: %s\n", reason);
}

uint64_t free_frames(void)
{
	struct hako_sysinfo si;
	return sys_sysinfo(&si) < 0 ? 0 : si.free_frames;
}

/* Free pages of the ICA region and ICAs allocated; zeros where the kernel has no ICAs. */
static struct hako_ica_stat ica_now(void)
{
	struct hako_ica_stat st;
	return sys_ica_stat(&st) < 0 ? (struct hako_ica_stat){ 0 } : st;
}

int online_cpus(void)
{
	struct hako_sysinfo si;
	return sys_sysinfo(&si) < 0 ? 1 : si.ncpus;
}

const char *needs_two_cpus(void)
{
	return online_cpus() < 2 ? "needs 2 CPUs" : NULL;
}

static int vspawn_role(const char *role, va_list ap)
{
	char *argv[HAKO_ARGV_MAX + 1];
	int argc = 0;
	argv[argc++] = "selftest";
	argv[argc++] = "--role";
	argv[argc++] = (char *)role;
	for (char *a; argc < HAKO_ARGV_MAX && (a = va_arg(ap, char *)) != NULL;)
		argv[argc++] = a;
	argv[argc] = NULL;
	return spawnv("selftest", argv);
}

int spawn_role(const char *role, ...)
{
	va_list ap;
	va_start(ap, role);
	int pid = vspawn_role(role, ap);
	va_end(ap);
	return pid;
}

int run_role(const char *role, ...)
{
	va_list ap;
	va_start(ap, role);
	int pid = vspawn_role(role, ap);
	va_end(ap);
	if (pid < 0)
		return pid;
	int status;
	int r = waitpid(pid, &status);
	return r < 0 ? r : status;
}

int kill_after(int pid, uint64_t ms)
{
	sleep_ms(ms);
	long err = sys_kill(pid);
	if (err < 0)
		return (int)err;
	int status;
	int r = waitpid(pid, &status);
	return r < 0 ? r : status;
}

static const struct utest *find_test(const char *name)
{
	for (const struct utest *t = __start_utests; t < __stop_utests; t++)
		if (strcmp(t->name, name) == 0)
			return t;
	return NULL;
}

static int run_one_here(const char *name)
{
	const struct utest *t = find_test(name);
	if (!t) {
		printf("selftest: no test %s\n", name);
		return 2;
	}
	return t->fn() ? 1 : 0;
}

static int run_role_here(int argc, char **argv)
{
	for (const struct urole *r = __start_uroles; r < __stop_uroles; r++)
		if (strcmp(r->name, argv[0]) == 0)
			return r->fn(argc - 1, argv + 1);
	printf("selftest: no role %s\n", argv[0]);
	return 2;
}

/* Touch the runner's stack once, so its own growth never looks like a leak. */
static void warm_stack(void)
{
	volatile char area[64 * 1024];
	for (size_t i = 0; i < sizeof area; i += 4096)
		area[i] = 0;
}

static const char *describe(int status, char *buf, size_t size)
{
	if (HAKO_WIFKILLED(status))
		snprintf(buf, size, "killed (cause %d)", HAKO_WCAUSE(status));
	else
		snprintf(buf, size, "exit status %d", HAKO_WEXITCODE(status));
	return buf;
}

enum verdict { PASSED, FAILED, SKIPPED };

/* Report t skipped if this machine lacks what it needs. */
static bool skipped_here(const struct utest *t)
{
	const char *why = t->need ? t->need() : NULL;
	if (!why)
		return false;
	printf("selftest: SKIP %s: %s\n", t->name, why);
	result_line("{\"kind\":\"utest\",\"name\":\"%s\",\"skipped\":true,\"reason\":\"%s\"}",
		    t->name, why);
	return true;
}

/* Run test t in a child; PASSED if it passed and gave every frame back. */
static enum verdict run_in_child(const struct utest *t)
{
	char *argv[] = { "selftest", "--one", (char *)t->name, NULL };
	char why[160];
	struct hako_ica_stat icas_before = ica_now();
	uint64_t before = free_frames(), ica_before = icas_before.free_pages;
	uint64_t start = clock_ns();
	int status = spawn_wait("selftest", argv);
	uint64_t ms = (clock_ns() - start) / 1000000;
	struct hako_ica_stat icas_after = ica_now();
	uint64_t after = free_frames(), ica_after = icas_after.free_pages;
	int ok = status == 0 && after >= before && ica_after >= ica_before &&
		 icas_after.icas == icas_before.icas;
	if (status < 0)
		snprintf(why, sizeof why, "cannot spawn: error %d", status);
	else if (status != 0)
		describe(status, why, sizeof why);
	else if (after < before)
		snprintf(why, sizeof why, "leaked %lu frames (%lu free before, %lu after)",
			 (unsigned long)(before - after), (unsigned long)before, (unsigned long)after);
	else if (ica_after < ica_before)
		snprintf(why, sizeof why, "leaked %lu ICA pages (%lu free before, %lu after)",
			 (unsigned long)(ica_before - ica_after), (unsigned long)ica_before,
			 (unsigned long)ica_after);
	else if (icas_after.icas != icas_before.icas)
		snprintf(why, sizeof why, "ICA count %d before, %d after", icas_before.icas, icas_after.icas);
	printf("selftest: %s %s (%lu ms)%s%s\n", ok ? "PASS" : "FAIL", t->name, (unsigned long)ms,
	       ok ? "" : ": ", ok ? "" : why);
	if (ok)
		result_line("{\"kind\":\"utest\",\"name\":\"%s\",\"ok\":true,\"ms\":%lu}", t->name, (unsigned long)ms);
	else
		result_line("{\"kind\":\"utest\",\"name\":\"%s\",\"ok\":false,\"reason\":\"%s\"}", t->name, why);
	return ok ? PASSED : FAILED;
}

int main(int argc, char **argv)
{
	if (argc >= 3 && strcmp(argv[1], "--one") == 0)
		return run_one_here(argv[2]);
	if (argc >= 3 && strcmp(argv[1], "--role") == 0)
		return run_role_here(argc - 2, argv + 2);
	if (argc >= 2 && strcmp(argv[1], "--list") == 0) {
		for (const struct utest *t = __start_utests; t < __stop_utests; t++)
			printf("%s\n", t->name);
		return 0;
	}
	warm_stack();
	int count[3] = { 0 };                /* by enum verdict */
	uint64_t first = free_frames();
	for (const struct utest *t = __start_utests; t < __stop_utests; t++) {
		bool wanted = argc < 2;
		for (int i = 1; i < argc && !wanted; i++)
			wanted = strcmp(argv[i], t->name) == 0;
		if (!wanted)
			continue;
		count[skipped_here(t) ? SKIPPED : run_in_child(t)]++;
	}
	for (int i = 1; i < argc; i++)
		if (!find_test(argv[i])) {
			printf("selftest: FAIL %s: no such test\n", argv[i]);
			result_line("{\"kind\":\"utest\",\"name\":\"%s\",\"ok\":false,\"reason\":\"no such test\"}", argv[i]);
			count[FAILED]++;
		}
	printf("selftest: frames free %lu at the start, %lu at the end\n",
	       (unsigned long)first, (unsigned long)free_frames());
	printf("selftest: %d passed, %d failed, %d skipped\n", count[PASSED], count[FAILED],
	       count[SKIPPED]);
	result_line("{\"kind\":\"utest-summary\",\"passed\":%d,\"failed\":%d,\"skipped\":%d}",
		    count[PASSED], count[FAILED], count[SKIPPED]);
	return count[FAILED] > 255 ? 255 : count[FAILED];
}
