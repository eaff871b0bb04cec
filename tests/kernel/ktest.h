/*
 * ktest.h — kernel self-tests.
 *
 * A test is a function returning 0 on success; TEST(name) defines one
 * and registers it in the .ktests section.  Each runs in a kernel thread
 * of its own and fails if the free-frame count is not back to where it
 * was.  CHECK(cond[, fmt, ...]) and CHECK_EQ(a, b) fail it
 * (tests/include/checks.h, the vocabulary every C test shares).  A test that cannot run on this machine
 * (no such device, one CPU) says so with SKIP(why): it is reported SKIP,
 * never PASS.
 * `ktest [NAME...]` on the command line runs them (all, or those named),
 * ends with `N passed, N failed, N skipped` and powers off with the
 * number of failures.
 */
#ifndef HAKO_KTEST_H
#define HAKO_KTEST_H

#include <stdint.h>

struct ktest {
	const char *name;
	int (*fn)(void);
} __attribute__((aligned(8)));       /* as .ktests' entries are: they stay an array on 32-bit arches too */

#define TEST(tname) \
	static int ktest_##tname(void); \
	static const struct ktest ktest_entry_##tname \
		__attribute__((used, section(".ktests"), aligned(8))) = { #tname, ktest_##tname }; \
	static int ktest_##tname(void)

/* What a test returns besides 0 (passed) and a negative number (failed). */
#define KTEST_SKIPPED 1

void ktest_fail(const char *file, int line, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
/* Note why the test cannot run here; returns KTEST_SKIPPED. */
int ktest_skip(const char *why);

/* End the test as skipped: it proved nothing on this machine. */
#define SKIP(why) return ktest_skip(why)

#define CHECK_FAIL_ ktest_fail
#define CHECK_RETURN_ return -1
#include <checks.h>

/* Run fn on every CPU at once, each in a thread pinned there, with the
 * argument args + cpu * size; returns when all have ended.  -ENOMEM if a
 * thread could not be made (the ones made still run and end first). */
int ktest_on_every_cpu(const char *name, void (*fn)(void *), void *args, uint64_t size);
int ktest_main(int argc, char **argv);   /* returns the number of failures */

#endif
