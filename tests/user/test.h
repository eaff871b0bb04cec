/*
 * test.h — the in-guest test suite's framework (tests/user).
 *
 * TEST(name) { ... return 0; } defines a test and registers it in the
 * "utests" section.  selftest runs every test (or those named) in a
 * process of its own, compares the free-frame count before and after (a
 * leak fails the test), prints `selftest: PASS name` and a result line
 * per test, and ends with `N passed, N failed, N skipped`.
 *
 * TEST_NEEDS(name, need) is a test that needs something a machine may
 * lack (the hub's network cards): the runner calls need() first, and when
 * it returns a reason instead of NULL the test is not run but reported
 * `SKIP name: reason` (a skip never counts as a pass).
 *
 * CHECK(cond[, fmt, ...]) fails the test with a message (tests/include/
 * checks.h, the vocabulary every C test shares); CHECK_EQ(a, b) prints
 * both values.  A test that needs a helper process spawns
 * "selftest" with `--role NAME ARGS`; roles are registered with
 * UROLE(name) and receive argc/argv after the role name.
 */
#ifndef _HAKO_TEST_H
#define _HAKO_TEST_H

#include <stddef.h>
#include <stdint.h>

struct utest {
	const char *name;
	int (*fn)(void);
	const char *(*need)(void);   /* NULL, or: NULL if it can run here, else why not */
} __attribute__((aligned(8)));       /* as the section's entries are: they stay an array on 32-bit arches too */

struct urole {
	const char *name;
	int (*fn)(int argc, char **argv);
} __attribute__((aligned(8)));

#define TEST_NEEDS(tname, need) \
	static int utest_##tname(void); \
	static const struct utest utest_entry_##tname \
		__attribute__((used, section("utests"), aligned(8))) = { #tname, utest_##tname, need }; \
	static int utest_##tname(void)

#define TEST(tname) TEST_NEEDS(tname, NULL)

#define UROLE(rname) \
	static int urole_##rname(int argc __attribute__((unused)), char **argv __attribute__((unused))); \
	static const struct urole urole_entry_##rname \
		__attribute__((used, section("uroles"), aligned(8))) = { #rname, urole_##rname }; \
	static int urole_##rname(int argc __attribute__((unused)), char **argv __attribute__((unused)))

void test_fail(const char *file, int line, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

#define CHECK_FAIL_ test_fail
#define CHECK_RETURN_ return 1
#include <checks.h>

/* Spawn `selftest --role ROLE ARGS...` (args NULL-terminated); its pid or -errno. */
int spawn_role(const char *role, ...);
/* spawn_role then wait: the child's wait status, or -errno. */
int run_role(const char *role, ...);
/* Sleep ms, kill pid, wait for it: its wait status, or -errno if kill or wait failed. */
int kill_after(int pid, uint64_t ms);
/* Free frames now (sys_sysinfo). */
uint64_t free_frames(void);
int online_cpus(void);
/* For TEST_NEEDS: NULL with two CPUs or more, else why the test is skipped. */
const char *needs_two_cpus(void);
/* tests/user/arch/ARCH/regs.S: system call nr with arguments a[0..3]; 0
 * if the registers the C ABI keeps came back as they went in, else a bit
 * each; out (NULL: not stored) gets the result and, where the arch has
 * words calls, the six word registers (out[1..6], hako_words' order). */
long regs_kept_across_syscall(long nr, const long a[4], long out[7]);

#endif
