/*
 * tests/user/fleet.h — the server processes one ISPC test starts, and the
 * small helpers those tests share.
 *
 * ISPC_TEST(name) { ... } is a TEST whose body gets `struct fleet *fl`;
 * whatever the body started with fleet_start is killed and waited for when
 * it returns, pass or fail, so no server outlives its test (the frame and
 * ICA counts the runner compares stay honest).
 */
#ifndef SELFTEST_FLEET_H
#define SELFTEST_FLEET_H

#include <stdint.h>
#include <hako/ispc.h>
#include "test.h"

#define FLEET_MAX 8

struct fleet {
	int pid[FLEET_MAX];
	int n;
	int ns;                      /* the name server's pid, 0 before it is started */
};

/* Spawn program PROG with ARGS (NULL-terminated) as one of F's: its pid or -errno. */
int fleet_start(struct fleet *f, const char *prog, ...);
/* Start `PROG NAME ARGS...` (ARGS NULL-terminated), and a name server
 * first if F has none; wait until NAME is registered: the pid, or -errno. */
int fleet_server(struct fleet *f, const char *prog, const char *name, ...);
/* Kill and reap member PID now: its wait status, or -errno. */
int fleet_stop(struct fleet *f, int pid);
/* Kill and reap all of them, newest first. */
void fleet_stop_all(struct fleet *f);

#define ISPC_TEST(tname) ISPC_TEST_NEEDS(tname, NULL)
/* The same for a test that needs something (TEST_NEEDS). */
#define ISPC_TEST_NEEDS(tname, need) \
	static int ispc_##tname(struct fleet *fl); \
	TEST_NEEDS(tname, need) \
	{ \
		struct fleet fleet = { .n = 0, .ns = 0 }; \
		int failed = ispc_##tname(&fleet); \
		fleet_stop_all(&fleet); \
		return failed; \
	} \
	static int ispc_##tname(struct fleet *fl __attribute__((unused)))

/* Free pages of the ICA region (0 if ica_stat fails). */
uint64_t ica_free_pages(void);
/* Wait until WANT requests are in flight (up to MS ms): how many are. */
int wait_requests(int want, unsigned ms);
/* Send asynchronous requests on CALL to PID until it listens (not -ESRCH),
 * for up to MS ms: the tag, or the last error. */
long send_when_listening(int pid, struct ispc_call *call, unsigned ms);

/*
 * The fastpath's tests (test_ispc_fastpath.c, test_ispc_call.c).
 * FP_TEST(name) { ... } is an ISPC_TEST that puts the fastpath switch
 * back as it found it; FP_TEST_NEEDS(name, need) the same with a need.
 */
#define FP_TEST_NEEDS(tname, need) \
	static int fp_##tname(struct fleet *fl); \
	ISPC_TEST_NEEDS(tname, need) \
	{ \
		long was = sys_ispc_mode(HAKO_ISPC_FASTPATH_QUERY); \
		CHECK(was == HAKO_ISPC_FASTPATH_ON || was == HAKO_ISPC_FASTPATH_OFF, "query %ld", was); \
		int failed = fp_##tname(fl); \
		fleet_stop_all(fl); \
		sys_ispc_mode((int)was); \
		return failed; \
	} \
	static int fp_##tname(struct fleet *fl __attribute__((unused)))
#define FP_TEST(tname) FP_TEST_NEEDS(tname, NULL)

struct hako_ica_stat ica_stat_now(void);
/* The fastpath on (1) or off (0): HAKO_ISPC_FASTPATH_ON or _OFF, or -errno. */
long fastpath_set(int on);
/* For TEST_NEEDS: NULL where ispc_call and ispc_reply_recv give the message
 * in registers (x86_64), else why not (-ENOSYS). */
const char *needs_words(void);
/* The same and two CPUs. */
const char *needs_words_two_cpus(void);
/* ispc_call (the message in registers) on CALL to PID: the server's
 * status, or the call's error (-ERANGE if the tag that came back is not
 * the call's); *w the words. */
long call_words(int pid, struct ispc_call *call, struct hako_words *w);

#endif
