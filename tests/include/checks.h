/*
 * checks.h — CHECK, the check every C test uses, shared by the three test
 * runners: the kernel's (tests/kernel/ktest.h), the in-guest suite's
 * (tests/user/test.h) and the host tests' (tests/host/check.h).
 *
 * The vocabulary of a C test, whatever runs it:
 *   TEST(name) { ... }          a test (each runner registers it its own way)
 *   CHECK(cond)                 fail the test unless cond: "COND is false"
 *   CHECK(cond, fmt, ...)       the same with a printf-style message
 *   CHECK_EQ(a, b)              two integers, both printed when they differ
 *   SKIP(why)                   (kernel) end the test as skipped, never passed
 *   TEST_NEEDS(name, need)      (in-guest) a test skipped where need() says why
 *   KNOWN_BUG(name)             (host) a test of a bug not fixed yet, run on request
 *
 * A runner defines, before including this header,
 *   CHECK_FAIL_(file, line, fmt, ...)   records the failure
 *   CHECK_RETURN_                       ends the failed test: `return -1`, `return 1`, `return`
 */
#ifndef HAKO_TESTS_CHECKS_H
#define HAKO_TESTS_CHECKS_H

/* The message: the caller's format and arguments, or "%s is false" with the
 * condition's text.  CHECK_MSG_PICK_ takes the first word of "1," (a message
 * was given) or "0" (none) and pastes it onto CHECK_MSG_. */
#define CHECK_CAT_(a, b) CHECK_CAT2_(a, b)
#define CHECK_CAT2_(a, b) a##b
#define CHECK_FIRST_(a, ...) a
#define CHECK_MSG_0(text, ...) "%s is false", text
#define CHECK_MSG_1(text, ...) __VA_ARGS__
#define CHECK_MSG_(text, ...) \
	CHECK_CAT_(CHECK_MSG_, CHECK_FIRST_(__VA_OPT__(1,) 0))(text, __VA_ARGS__)

#define CHECK(cond, ...)                                                        \
	do {                                                                    \
		if (!(cond)) {                                                  \
			CHECK_FAIL_(__FILE__, __LINE__, CHECK_MSG_(#cond, __VA_ARGS__)); \
			CHECK_RETURN_;                                          \
		}                                                               \
	} while (0)

/* Two integers as long longs (64 bits where long has 32); a runner with
 * its own (the host's prints hex too) defines CHECK_EQ before including
 * this header. */
#ifndef CHECK_EQ
#define CHECK_EQ(a, b)                                                          \
	do {                                                                    \
		long long check_a_ = (long long)(a), check_b_ = (long long)(b); \
		if (check_a_ != check_b_) {                                     \
			CHECK_FAIL_(__FILE__, __LINE__, "%s == %lld, expected %s == %lld", \
				    #a, check_a_, #b, check_b_);                \
			CHECK_RETURN_;                                          \
		}                                                               \
	} while (0)
#endif

#endif
