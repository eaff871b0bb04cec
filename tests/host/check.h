/*
 * check.h — the harness for Hako's host unit tests.
 *
 * A test file defines cases with TEST(name) { ... } and nothing else: this
 * header supplies main().  Each case prints exactly one line on stdout,
 *
 *     ok NAME
 *     not ok NAME: reason (file:line)
 *
 * and the program exits 1 if any case failed.  A CHECK(cond[, fmt, ...])
 * that fails (tests/include/checks.h, the vocabulary every C test shares)
 * records the first failure and returns from the function it is in.
 *
 * Every case runs in a forked child with a time limit, so a crash (say an
 * AddressSanitizer report) or an endless loop in kernel code fails that
 * case, with its name, instead of ending the run.  HOST_TESTS_NOFORK=1 runs
 * cases in-process (for a debugger); a name on the command line runs only
 * the cases whose names contain it.
 *
 * KNOWN_BUG(name) defines a case that shows a kernel bug not fixed yet: it
 * runs only with HOST_TESTS_KNOWN_BUGS=1, and a note on stderr says so.
 *
 * check_alloc() gives a zeroed heap block that the harness frees after the
 * case, even when a CHECK returned early, so failures do not read as leaks.
 */
#ifndef HAKO_HOST_CHECK_H
#define HAKO_HOST_CHECK_H

#include <errno.h>
#include <inttypes.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#define CHECK_MAX_CASES 256
#define CHECK_MAX_ALLOCS 64
#ifndef CHECK_TIMEOUT_S
#define CHECK_TIMEOUT_S 20      /* seconds per case */
#endif

typedef void (*check_fn)(void);

struct check_case {
	const char *name;
	check_fn fn;
	int line;
	bool known_bug;
};

static struct check_case check_cases[CHECK_MAX_CASES];
static int check_ncases;
static const char *check_file;          /* the test file, for crash reports */
static bool check_failed;               /* the running case has failed */
static char check_reason[1024];
static void *check_allocs[CHECK_MAX_ALLOCS];
static int check_nallocs;

static void check_register(const char *name, check_fn fn, const char *file, int line, bool known_bug)
{
	if (check_ncases == CHECK_MAX_CASES) {
		fprintf(stderr, "check.h: more than %d cases\n", CHECK_MAX_CASES);
		exit(2);
	}
	check_file = file;
	check_cases[check_ncases++] = (struct check_case){ name, fn, line, known_bug };
}

#define CHECK_DEFINE_(name, known)                                              \
	static void test_##name(void);                                          \
	__attribute__((constructor)) static void check_register_##name(void)    \
	{                                                                       \
		check_register(#name, test_##name, __FILE__, __LINE__, known);  \
	}                                                                       \
	static void test_##name(void)

#define TEST(name) CHECK_DEFINE_(name, false)
#define KNOWN_BUG(name) CHECK_DEFINE_(name, true)

/* Record the first failure of the running case; later ones are dropped. */
__attribute__((format(printf, 3, 4)))
static void check_fail(const char *file, int line, const char *fmt, ...)
{
	if (check_failed)
		return;
	check_failed = true;
	char msg[sizeof check_reason - 128];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	snprintf(check_reason, sizeof check_reason, "%s (%s:%d)", msg, file, line);
	for (char *p = check_reason; *p; p++)   /* one line, printable */
		if (*p == '\n' || *p == '\r' || *p == '\t')
			*p = ' ';
}

/*
 * The macros below call only check_* helpers, never strcmp and friends:
 * test_string.c renames those to the kernel's versions under test.
 */
#define CHECK_UNUSED_ __attribute__((unused))

CHECK_UNUSED_ static bool check_str_equal(const char *a, const char *b)
{
	return !a || !b ? a == b : strcmp(a, b) == 0;
}

/* s as a C literal in buf ("NULL" for a null pointer), cut at size. */
CHECK_UNUSED_ static const char *check_quote(char *buf, size_t size, const char *s)
{
	if (!s)
		return "NULL";
	size_t n = strlen(s);
	size_t o = 0;
	buf[o++] = '"';
	for (size_t i = 0; i < n && o + 6 < size; i++) {
		unsigned char c = (unsigned char)s[i];
		if (c == '"' || c == '\\')
			o += (size_t)snprintf(buf + o, size - o, "\\%c", c);
		else if (c >= 0x20 && c < 0x7f)
			buf[o++] = (char)c;
		else
			o += (size_t)snprintf(buf + o, size - o, "\\x%02x", c);
	}
	buf[o++] = '"';
	buf[o] = 0;
	return buf;
}

CHECK_UNUSED_ static void *check_alloc(size_t n)
{
	void *p = calloc(1, n ? n : 1);
	if (!p || check_nallocs == CHECK_MAX_ALLOCS) {
		fprintf(stderr, "check_alloc: out of memory or slots\n");
		abort();
	}
	check_allocs[check_nallocs++] = p;
	return p;
}

static void check_free_all(void)
{
	while (check_nallocs)
		free(check_allocs[--check_nallocs]);
}


/* Integers of any type up to 64 bits, compared as values. */
#define CHECK_EQ(actual, expected)                                              \
	do {                                                                    \
		uint64_t check_a_ = (uint64_t)(actual);                         \
		uint64_t check_e_ = (uint64_t)(expected);                       \
		if (check_a_ != check_e_) {                                     \
			check_fail(__FILE__, __LINE__,                          \
				   "%s is %" PRId64 " (0x%" PRIx64 "), expected %" PRId64 " (0x%" PRIx64 ")", \
				   #actual, (int64_t)check_a_, check_a_,        \
				   (int64_t)check_e_, check_e_);                \
			return;                                                 \
		}                                                               \
	} while (0)

#define CHECK_PTR(actual, expected)                                             \
	do {                                                                    \
		const void *check_a_ = (actual), *check_e_ = (expected);       \
		if (check_a_ != check_e_) {                                     \
			check_fail(__FILE__, __LINE__, "%s is %p, expected %p", \
				   #actual, check_a_, check_e_);                \
			return;                                                 \
		}                                                               \
	} while (0)

/* Two C strings (either may be NULL) are equal. */
#define CHECK_STR(actual, expected)                                             \
	do {                                                                    \
		const char *check_a_ = (actual), *check_e_ = (expected);       \
		if (!check_str_equal(check_a_, check_e_)) {                     \
			char check_qa_[160], check_qe_[160];                    \
			check_fail(__FILE__, __LINE__, "%s is %s, expected %s", \
				   #actual,                                     \
				   check_quote(check_qa_, sizeof check_qa_, check_a_), \
				   check_quote(check_qe_, sizeof check_qe_, check_e_)); \
			return;                                                 \
		}                                                               \
	} while (0)

/* n bytes at actual equal n bytes at expected. */
#define CHECK_MEM(actual, expected, n)                                          \
	do {                                                                    \
		const unsigned char *check_a_ = (const void *)(actual);        \
		const unsigned char *check_e_ = (const void *)(expected);      \
		size_t check_n_ = (n), check_i_ = 0;                            \
		while (check_i_ < check_n_ && check_a_[check_i_] == check_e_[check_i_]) \
			check_i_++;                                             \
		if (check_i_ < check_n_) {                                      \
			check_fail(__FILE__, __LINE__,                          \
				   "%s differs at byte %zu of %zu: 0x%02x, expected 0x%02x", \
				   #actual, check_i_, check_n_,                 \
				   check_a_[check_i_], check_e_[check_i_]);     \
			return;                                                 \
		}                                                               \
	} while (0)

/* CHECK and the vocabulary every C test shares; CHECK_EQ above is the host's. */
#define CHECK_FAIL_ check_fail
#define CHECK_RETURN_ return
#include <checks.h>

static void check_write_all(int fd, const char *p, size_t n)
{
	while (n) {
		ssize_t w = write(fd, p, n);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return;
		p += w;
		n -= (size_t)w;
	}
}

/* Run c; put "" in reason if it passed, else why not. */
static void check_run_case(const struct check_case *c, bool use_fork, char *reason, size_t size)
{
	check_failed = false;
	check_reason[0] = 0;
	reason[0] = 0;
	if (!use_fork) {
		c->fn();
		check_free_all();
		if (check_failed)
			snprintf(reason, size, "%s", check_reason);
		return;
	}
	int fds[2];
	if (pipe(fds) != 0) {
		perror("check.h: pipe");
		exit(2);
	}
	fflush(stdout);
	fflush(stderr);
	pid_t pid = fork();
	if (pid < 0) {
		perror("check.h: fork");
		exit(2);
	}
	if (pid == 0) {
		close(fds[0]);
		alarm(CHECK_TIMEOUT_S);
		c->fn();
		check_free_all();
		if (check_failed)
			check_write_all(fds[1], check_reason, strlen(check_reason));
		close(fds[1]);
		exit(0);        /* through exit(), so LeakSanitizer looks too */
	}
	close(fds[1]);
	size_t len = 0;
	for (;;) {
		ssize_t r = read(fds[0], reason + len, size - 1 - len);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		len += (size_t)r;
	}
	reason[len] = 0;
	close(fds[0]);
	int status;
	while (waitpid(pid, &status, 0) < 0)
		if (errno != EINTR) {
			perror("check.h: waitpid");
			exit(2);
		}
	if (reason[0])
		return;
	if (WIFSIGNALED(status) && WTERMSIG(status) == SIGALRM)
		snprintf(reason, size, "timed out after %d s (%s:%d)", CHECK_TIMEOUT_S, check_file, c->line);
	else if (WIFSIGNALED(status))
		snprintf(reason, size, "killed by signal %d (%s:%d)", WTERMSIG(status), check_file, c->line);
	else if (WEXITSTATUS(status) != 0)
		snprintf(reason, size, "exited with status %d, see the sanitizer report on stderr (%s:%d)",
			 WEXITSTATUS(status), check_file, c->line);
}

static int check_by_line(const void *a, const void *b)
{
	const struct check_case *x = a, *y = b;
	return (x->line > y->line) - (x->line < y->line);
}

int main(int argc, char **argv)
{
	const char *filter = argc > 1 ? argv[1] : NULL;
	const char *env = getenv("HOST_TESTS_NOFORK");
	bool use_fork = !(env && *env && strcmp(env, "0") != 0);
	env = getenv("HOST_TESTS_KNOWN_BUGS");
	bool known = env && *env && strcmp(env, "0") != 0;
	int failed = 0;

	/* Constructors run in no promised order: run cases in source order. */
	qsort(check_cases, (size_t)check_ncases, sizeof check_cases[0], check_by_line);
	setvbuf(stdout, NULL, _IOLBF, 0);
	for (int i = 0; i < check_ncases; i++) {
		const struct check_case *c = &check_cases[i];
		if (filter && !strstr(c->name, filter))
			continue;
		if (c->known_bug && !known) {
			fprintf(stderr, "# %s: skipped known kernel bug (HOST_TESTS_KNOWN_BUGS=1 runs it)\n",
				c->name);
			continue;
		}
		char reason[sizeof check_reason];
		check_run_case(c, use_fork, reason, sizeof reason);
		if (reason[0]) {
			printf("not ok %s: %s\n", c->name, reason);
			failed++;
		} else {
			printf("ok %s\n", c->name);
		}
	}
	return failed ? 1 : 0;
}

#endif
