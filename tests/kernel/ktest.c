/*
 * ktest.c — the self-test runner: one thread per test, a frame-leak
 * check around each, a result line per test and a summary.  A test that
 * cannot run on this machine (no such device) ends with SKIP(why):
 * its line says SKIP and why, its record "skipped":true, and it counts
 * neither as passed nor as failed.
 */
#include <stdarg.h>
#include <stdint.h>
#include <string.h>
#include <kprintf.h>
#include <ktest.h>
#include <pmm.h>
#include <stats.h>
#include <thread.h>
#include <cpu.h>
#include <errno.h>
#include <sched.h>

extern const struct ktest __ktests_start[], __ktests_end[];

static char fail_reason[200];
static char skip_reason[80];

void ktest_fail(const char *file, int line, const char *fmt, ...)
{
	char msg[160];
	va_list ap;
	va_start(ap, fmt);
	kvsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	ksnprintf(fail_reason, sizeof fail_reason, "%s:%d: %s", file, line, msg);
}

int ktest_on_every_cpu(const char *name, void (*fn)(void *), void *args, uint64_t size)
{
	struct thread *t[MAX_CPUS];
	int made = ncpus;
	for (int c = 0; c < ncpus; c++) {
		t[c] = thread_create(name, fn, (char *)args + (uint64_t)c * size, PRIO_DEFAULT, 1ull << c);
		if (!t[c]) {
			made = c;
			break;
		}
	}
	for (int c = 0; c < made; c++)
		thread_start(t[c]);
	for (int c = 0; c < made; c++)
		thread_join(t[c]);
	return made == ncpus ? 0 : -ENOMEM;
}

int ktest_skip(const char *why)
{
	strlcpy(skip_reason, why, sizeof skip_reason);
	return KTEST_SKIPPED;
}

struct run {
	const struct ktest *test;
	int result;
};

static void run_one(void *arg)
{
	struct run *r = arg;
	r->result = r->test->fn();
}

static bool selected(const struct ktest *t, int argc, char **argv)
{
	if (argc == 0)
		return true;
	for (int i = 0; i < argc; i++)
		if (strcmp(argv[i], t->name) == 0)
			return true;
	return false;
}

/* JSON strings: the reasons we print contain no quotes or backslashes but paths. */
static void json_clean(char *s)
{
	for (; *s; s++)
		if (*s == '"' || *s == '\\' || *s < ' ')
			*s = '\'';
}

enum verdict { PASSED, FAILED, SKIPPED };

/* Run t in a thread of its own; print its line and record. */
static enum verdict run_test(const struct ktest *t)
{
	fail_reason[0] = 0;
	skip_reason[0] = 0;
	uint64_t before = pmm_free_count();
	struct run r = { t, -1 };
	struct thread *th = thread_create(t->name, run_one, &r, PRIO_DEFAULT, 0);
	if (!th) {
		ksnprintf(fail_reason, sizeof fail_reason, "cannot create test thread");
	} else {
		thread_start(th);
		thread_join(th);
	}
	uint64_t after = pmm_free_count();
	enum verdict v = r.result == 0 ? PASSED
		: r.result == KTEST_SKIPPED && skip_reason[0] ? SKIPPED : FAILED;
	if (v == FAILED && !fail_reason[0])
		ksnprintf(fail_reason, sizeof fail_reason, "returned %d", r.result);
	if (v != FAILED && after != before) {
		ksnprintf(fail_reason, sizeof fail_reason, "leaked %ld frames",
			  (long)before - (long)after);
		v = FAILED;
	}
	json_clean(fail_reason);
	json_clean(skip_reason);
	if (v == SKIPPED) {
		kprintf("ktest: SKIP %s: %s\n", t->name, skip_reason);
		result_line("{\"kind\":\"ktest\",\"name\":\"%s\",\"skipped\":true,\"reason\":\"%s\"}",
			    t->name, skip_reason);
		return SKIPPED;
	}
	if (v == PASSED) {
		kprintf("ktest: PASS %s\n", t->name);
		result_line("{\"kind\":\"ktest\",\"name\":\"%s\",\"ok\":true}", t->name);
		return PASSED;
	}
	kprintf("ktest: FAIL %s: %s\n", t->name, fail_reason);
	result_line("{\"kind\":\"ktest\",\"name\":\"%s\",\"ok\":false,\"reason\":\"%s\"}", t->name, fail_reason);
	return FAILED;
}

int ktest_main(int argc, char **argv)
{
	int count[3] = { 0 };                  /* by enum verdict */
	for (int i = 0; i < argc; i++) {
		bool known = false;
		for (const struct ktest *t = __ktests_start; t < __ktests_end; t++)
			known |= strcmp(t->name, argv[i]) == 0;
		if (!known) {
			kprintf("ktest: no test named %s\n", argv[i]);
			count[FAILED]++;
		}
	}
	for (const struct ktest *t = __ktests_start; t < __ktests_end; t++) {
		if (!selected(t, argc, argv))
			continue;
		count[run_test(t)]++;
	}
	result_line("{\"kind\":\"ktest-summary\",\"passed\":%d,\"failed\":%d,\"skipped\":%d}",
		    count[PASSED], count[FAILED], count[SKIPPED]);
	kprintf("ktest: %d passed, %d failed, %d skipped\n", count[PASSED], count[FAILED],
		count[SKIPPED]);
	return count[FAILED];
}
