/*
 * tests/user/test_ica.c — the kernel's ICA and request machinery (paper 002)
 * seen from the system calls alone: allocation, paste and peel, who may
 * touch what, and requests through tiny servers played by roles
 * (stepwise and direct return, a server that dies).  test_ispc.c checks
 * the real servers of servers/.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <hako/sys.h>
#include "test.h"
#include "fleet.h"

#define PF 14


TEST(ica_bad_arguments)
{
	uint64_t va, before = ica_free_pages();
	CHECK_EQ(sys_ica_alloc(0, &va), -EINVAL);
	CHECK_EQ(sys_ica_alloc(HAKO_ICA_MAX_PAGES + 1, &va), -EINVAL);
	CHECK_EQ(sys_ica_alloc(1, (uint64_t *)8), -EFAULT);
	CHECK_EQ(sys_ica_free(-1), -EINVAL);
	CHECK_EQ(sys_ica_free(12345), -EINVAL);
	CHECK_EQ(sys_ica_paste(0x7fffffff), -EINVAL);
	CHECK_EQ(sys_ica_peel(3), -EINVAL);
	long id = sys_ica_alloc(2, &va);
	CHECK(id > 0, "alloc %ld", id);
	CHECK_EQ(sys_ica_paste((int)id), -EBUSY);      /* pasted already */
	CHECK_EQ(sys_ica_free((int)id), 0);
	CHECK_EQ(sys_ica_free((int)id), -EINVAL);      /* freed already */
	CHECK_EQ(sys_ica_peel((int)id), -EINVAL);
	CHECK_EQ(ica_free_pages(), before);
	return 0;
}

TEST(ica_zeroed_kept_across_peel_and_paste)
{
	uint64_t va;
	long id = sys_ica_alloc(4, &va);
	CHECK(id > 0, "alloc %ld", id);
	CHECK(va >= HAKO_ICA_AREA && va < HAKO_ICA_AREA + HAKO_ICA_AREA_SIZE, "va %lx", (unsigned long)va);
	uint64_t *w = (uint64_t *)va;
	for (int i = 0; i < 4 * 512; i++)
		CHECK(w[i] == 0, "word %d not zero", i);
	for (int i = 0; i < 4 * 512; i++)
		w[i] = 0x1ca0000ull + (uint64_t)i;
	CHECK_EQ(sys_ica_peel((int)id), 0);
	CHECK_EQ(sys_ica_peel((int)id), -EPERM);       /* not pasted in us now */
	CHECK_EQ(sys_ica_paste((int)id), (long)va);    /* same place, same bytes */
	for (int i = 0; i < 4 * 512; i++)
		CHECK(w[i] == 0x1ca0000ull + (uint64_t)i, "word %d lost", i);
	CHECK_EQ(sys_ica_free((int)id), 0);
	return 0;
}

UROLE(ica_touch_after_peel)
{
	uint64_t va;
	long id = sys_ica_alloc(1, &va);
	if (id < 0 || sys_ica_peel((int)id) < 0)
		return 1;
	return *(volatile int *)va;      /* must be killed here */
}

TEST(ica_touch_after_peel_killed)
{
	int s = run_role("ica_touch_after_peel", NULL);
	CHECK(HAKO_WIFKILLED(s) && HAKO_WCAUSE(s) == PF, "status 0x%x", s);
	return 0;
}

/* A child touches our ICA at its address: it was never pasted there. */
TEST(ica_of_another_process_killed)
{
	uint64_t va;
	long id = sys_ica_alloc(1, &va);
	CHECK(id > 0, "alloc %ld", id);
	*(volatile int *)va = 7;
	char addr[24];
	snprintf(addr, sizeof addr, "0x%lx", (unsigned long)va);
	int s = run_role("touch", addr, NULL);
	CHECK(HAKO_WIFKILLED(s) && HAKO_WCAUSE(s) == PF, "read: status 0x%x", s);
	s = run_role("touch", addr, "w", NULL);
	CHECK(HAKO_WIFKILLED(s) && HAKO_WCAUSE(s) == PF, "write: status 0x%x", s);
	CHECK_EQ(*(volatile int *)va, 7);
	CHECK_EQ(sys_ica_free((int)id), 0);
	return 0;
}

TEST(ica_exhaustion_is_an_error)
{
	static int ids[600];
	uint64_t va, before = ica_free_pages();
	int n = 0;
	long id;
	while (n < 600 && (id = sys_ica_alloc(16, &va)) > 0)
		ids[n++] = (int)id;
	CHECK(id == -ENOMEM || id == -EAGAIN, "last alloc %ld after %d", id, n);
	CHECK(n > 0, "no ICA at all");
	while ((id = sys_ica_alloc(1, &va)) > 0 && n < 600)   /* small ones until the table fills */
		ids[n++] = (int)id;
	CHECK(id == -ENOMEM || id == -EAGAIN, "last small alloc %ld", id);
	for (int i = 0; i < n; i++)
		CHECK_EQ(sys_ica_free(ids[i]), 0);
	CHECK_EQ(ica_free_pages(), before);
	return 0;
}

TEST(ispc_mode_switch_only_when_idle)
{
	long mode = sys_ispc_mode(HAKO_ISPC_QUERY);
	CHECK(mode == HAKO_ISPC_BASELINE || mode == HAKO_ISPC_FAST, "mode %ld", mode);
	CHECK_EQ(sys_ispc_mode(7), -EINVAL);
	uint64_t va;
	long id = sys_ica_alloc(1, &va);
	CHECK(id > 0, "alloc %ld", id);
	CHECK_EQ(sys_ispc_mode((int)!mode), -EBUSY);
	CHECK_EQ(sys_ica_free((int)id), 0);
	CHECK_EQ(sys_ispc_mode((int)!mode), !mode);
	CHECK_EQ(sys_ispc_mode((int)mode), mode);
	return 0;
}

/* ---- requests through role servers ------------------------------------ */

/*
 * A server: answers each request with the int at the start of the control
 * ICA plus its own number; with a next pid it first forwards the request
 * there (stepwise: waits, then adds its number; direct: passes it on).
 */
/* Listen, then tell the spawner (the semaphore in argv[0]) that we do. */
static int listen_and_say_so(char **argv)
{
	return sys_ispc_listen(0) < 0 || sys_sem_post(atoi(argv[0])) < 0 ? -1 : 0;
}

UROLE(ispc_adder)
{
	int add = atoi(argv[1]), next = argc > 2 ? atoi(argv[2]) : 0;
	if (listen_and_say_so(argv) < 0)
		return 1;
	struct hako_ispc_msg m;
	if (sys_ispc_receive(&m, 0) < 0)
		return 2;
	for (;;) {
		int value = *(volatile int *)m.ctl_va;
		if (!next && value == -1000)
			return 0;                /* asked to leave without answering */
		int status = value + add;
		if (next) {
			long r = sys_ispc_request(next, &m, HAKO_ISPC_WAIT);
			if (r == HAKO_ISPC_PASSED)      /* direct: m is our next request */
				continue;
			status = r < 0 ? (int)r : m.status < 0 ? m.status : m.status + add;
		}
		m.status = status;
		if (sys_ispc_reply(&m, HAKO_ISPC_WAIT) < 0)
			return 4;
	}
}

/* Send value in a fresh ICA to pid and wait: the status, or the error. */
static long call(int pid, int value, int flags, struct hako_ispc_msg *m)
{
	uint64_t va;
	long id = sys_ica_alloc(1, &va);
	if (id < 0)
		return id;
	*(int *)va = value;
	*m = (struct hako_ispc_msg){ .ctl = (int)id, .data = -1 };
	long r = sys_ispc_request(pid, m, flags);
	long result = r < 0 ? r : m->status;
	if (r >= 0 && (m->ctl_va != va || *(int *)va != value))
		result = -9999;              /* the ICA did not come back intact */
	sys_ica_free((int)id);
	return result;
}

/* Spawn server role ROLE with up to two arguments; return once it listens. */
static int spawn_listening(const char *role, const char *a1, const char *a2)
{
	long sem = sys_sem_create(0);
	if (sem < 0)
		return (int)sem;
	char id[12];
	snprintf(id, sizeof id, "%ld", sem);
	int pid = spawn_role(role, id, a1, a2, NULL);
	long r = pid < 0 ? pid : sys_sem_wait((int)sem);
	sys_sem_destroy((int)sem);
	return r < 0 ? (int)r : pid;
}

static int spawn_adder(int add, int next)
{
	char a[12], n[12];
	snprintf(a, sizeof a, "%d", add);
	snprintf(n, sizeof n, "%d", next);
	return spawn_listening("ispc_adder", a, next ? n : NULL);
}

TEST(ispc_sync_async_and_stages)
{
	uint64_t before = ica_free_pages();
	int last = spawn_adder(1000, 0), mid = spawn_adder(100, last), first = spawn_adder(10, mid);
	CHECK(last > 0 && mid > 0 && first > 0, "spawn %d %d %d", last, mid, first);
	struct hako_ispc_msg m;
	CHECK_EQ(call(last, 1, 0, &m), 1001);
	CHECK_EQ(m.from, last);
	struct hako_ica_stat st;
	CHECK_EQ(sys_ica_stat(&st), 0);
	printf("ispc: mode %s, %d server window(s), %lu pastes, %lu peels, %lu faults so far\n",
	       st.mode == HAKO_ISPC_FAST ? "fast" : "baseline", st.windows,
	       (unsigned long)st.pastes, (unsigned long)st.peels, (unsigned long)st.faults);
	CHECK_EQ(call(first, 2, 0, &m), 1112);         /* stepwise: every stage adds */
	CHECK_EQ(m.from, first);
	CHECK_EQ(call(first, 3, HAKO_ISPC_DIRECT, &m), 1003);   /* direct: only the last one */
	CHECK_EQ(m.from, last);
	/* three at once, collected in any order */
	int ids[3], seen = 0;
	for (int i = 0; i < 3; i++) {
		uint64_t va;
		ids[i] = (int)sys_ica_alloc(1, &va);
		*(int *)va = i;
		m = (struct hako_ispc_msg){ .ctl = ids[i], .data = -1 };
		CHECK_EQ(sys_ispc_request(mid, &m, HAKO_ISPC_ASYNC), 0);
	}
	for (int i = 0; i < 3; i++) {
		CHECK_EQ(sys_ispc_result(-1, &m, 0), 0);
		seen |= 1 << (m.status - 1100);
	}
	CHECK_EQ(seen, 7);
	CHECK_EQ(sys_ispc_result(-1, &m, HAKO_ISPC_NONBLOCK), -ESRCH);   /* none left */
	for (int i = 0; i < 3; i++)
		CHECK_EQ(sys_ica_free(ids[i]), 0);
	for (int pid = first; pid >= last; pid--)
		CHECK(kill_after(pid, 0) >= 0, "kill %d", pid);
	CHECK_EQ(ica_free_pages(), before);
	return 0;
}

TEST(ispc_server_death_gives_epipe)
{
	uint64_t before = ica_free_pages();
	int last = spawn_adder(1, 0), first = spawn_adder(10, last);
	struct hako_ispc_msg m;
	CHECK_EQ(call(first, -1000, 0, &m), -EPIPE);   /* the last one leaves with it */
	CHECK_EQ(m.from, first);                       /* stepwise: first passed the error on */
	CHECK_EQ(call(last, 5, 0, &m), -ESRCH);        /* gone */
	int status;
	CHECK_EQ(waitpid(last, &status), last);
	CHECK(kill_after(first, 0) >= 0, "kill %d", first);
	CHECK_EQ(ica_free_pages(), before);
	return 0;
}

/* A requester killed while its request is being served: the ICAs go. */
UROLE(ispc_caller)
{
	struct hako_ispc_msg m;
	if (argc < 2)
		return (int)call(atoi(argv[0]), -1000, 0, &m);
	uint64_t va;                     /* "copy": a data ICA that travels as a copy */
	long ctl = sys_ica_alloc(1, &va), data = sys_ica_alloc(3, &va);
	m = (struct hako_ispc_msg){ .ctl = (int)ctl, .data = (int)data, .data_bytes = 5000 };
	return (int)sys_ispc_request(atoi(argv[0]), &m, HAKO_ISPC_COPY);
}

TEST(ispc_requester_death_frees_icas)
{
	uint64_t before = ica_free_pages();
	for (int copy = 0; copy < 2; copy++) {
		int server = spawn_listening("ispc_hold", NULL, NULL);
		char pid[12];
		snprintf(pid, sizeof pid, "%d", server);
		int caller = spawn_role("ispc_caller", pid, copy ? "copy" : NULL, NULL);
		int s = kill_after(caller, 20);
		CHECK(HAKO_WIFKILLED(s), "caller status 0x%x", s);
		CHECK(kill_after(server, 0) >= 0, "kill server");
		CHECK_EQ(ica_free_pages(), before);
	}
	return 0;
}

/* Takes one request and keeps it. */
UROLE(ispc_hold)
{
	struct hako_ispc_msg m;
	if (listen_and_say_so(argv) < 0 || sys_ispc_receive(&m, 0) < 0)
		return 1;
	for (;;)
		sleep_ms(1000);
}

/* Answers the sum of the data ICA's first page, after writing 0x55 over
 * its first 100 bytes and 0x77 at byte 200. */
UROLE(ispc_bumper)
{
	struct hako_ispc_msg m;
	if (listen_and_say_so(argv) < 0 || sys_ispc_receive(&m, 0) < 0)
		return 1;
	for (;;) {
		volatile uint8_t *d = (volatile uint8_t *)m.data_va;
		long sum = 0;
		for (int i = 0; d && i < 4096; i++)
			sum += d[i];
		for (int i = 0; d && i < 100; i++)
			d[i] = 0x55;
		if (d)
			d[200] = 0x77;
		m.status = m.data_bytes == 100 ? (int)sum : -1;   /* the kernel says what it copied */
		if (sys_ispc_reply(&m, HAKO_ISPC_WAIT) < 0)
			return 2;
	}
}

/* HAKO_ISPC_COPY: the server gets a copy of 100 bytes; 100 come back. */
TEST(ispc_copy_instead_of_remap)
{
	uint64_t before = ica_free_pages(), cva, dva;
	int server = spawn_listening("ispc_bumper", NULL, NULL);
	long ctl = sys_ica_alloc(1, &cva), data = sys_ica_alloc(2, &dva);
	CHECK(server > 0 && ctl > 0 && data > 0, "set-up %d %ld %ld", server, ctl, data);
	memset((void *)dva, 0xaa, 8192);
	struct hako_ispc_msg m = { .ctl = (int)ctl, .data = (int)data, .data_bytes = 100 };
	CHECK_EQ(sys_ispc_request(server, &m, HAKO_ISPC_COPY), 0);
	CHECK_EQ(m.status, 100 * 0xaa);              /* the rest of the copy was zero */
	CHECK_EQ(m.data, data);
	CHECK_EQ(m.data_va, dva);
	const uint8_t *d = (const uint8_t *)dva;
	CHECK_EQ(d[0], 0x55);
	CHECK_EQ(d[99], 0x55);
	CHECK_EQ(d[100], 0xaa);
	CHECK_EQ(d[200], 0xaa);                      /* past the 100 bytes: not copied back */
	m = (struct hako_ispc_msg){ .ctl = (int)ctl, .data = (int)data, .data_bytes = 8193 };
	CHECK_EQ(sys_ispc_request(server, &m, HAKO_ISPC_COPY), -EINVAL);
	m.data_bytes = 0;
	CHECK_EQ(sys_ispc_request(server, &m, HAKO_ISPC_COPY), -EINVAL);
	m = (struct hako_ispc_msg){ .ctl = (int)ctl, .data = -1, .data_bytes = 10 };
	CHECK_EQ(sys_ispc_request(server, &m, HAKO_ISPC_COPY), -EINVAL);
	CHECK_EQ(sys_ica_free((int)ctl), 0);
	CHECK_EQ(sys_ica_free((int)data), 0);
	CHECK(kill_after(server, 0) >= 0, "kill");
	CHECK_EQ(ica_free_pages(), before);
	return 0;
}

/* Sends 256 KiB copies to server argv[0] until killed; 1 if one fails. */
UROLE(ispc_copier)
{
	enum { PAGES = 64 };
	uint64_t cva, dva;
	long ctl = sys_ica_alloc(1, &cva), data = sys_ica_alloc(PAGES, &dva);
	for (;;) {
		struct hako_ispc_msg m = { .ctl = (int)ctl, .data = (int)data, .data_bytes = PAGES * 4096 };
		if (sys_ispc_request(atoi(argv[0]), &m, HAKO_ISPC_COPY) != 0 || m.data != data)
			return 1;
	}
}

/*
 * While its result is copied back, a HAKO_ISPC_COPY copy has no owner,
 * holder or request: the end of another process must leave it alone.
 * 50 processes start and end while a copier keeps sending copies; then
 * the ICA count and free pages are where they were.
 */
TEST(ispc_copy_survives_other_processes_ending)
{
	struct hako_ica_stat st0, st;
	CHECK_EQ(sys_ica_stat(&st0), 0);
	char pid[12];
	int server = spawn_listening("ispc_bumper", NULL, NULL);
	snprintf(pid, sizeof pid, "%d", server);
	int copier = spawn_role("ispc_copier", pid, NULL);
	CHECK(server > 0 && copier > 0, "spawn %d %d", server, copier);
	for (int i = 0; i < 50; i++)
		CHECK_EQ(run_role("exit_with", "0", NULL), 0);
	int s = kill_after(copier, 0);
	CHECK(HAKO_WIFKILLED(s), "copier status 0x%x", s);
	CHECK(kill_after(server, 0) >= 0, "kill server");
	CHECK_EQ(sys_ica_stat(&st), 0);
	CHECK_EQ(st.icas, st0.icas);
	CHECK_EQ(st.free_pages, st0.free_pages);
	return 0;
}

/* ---- a fuzzer: plausible ISPC calls in random order ------------------- */

static uint64_t fuzz_rng;

static unsigned fuzz_next(void)
{
	fuzz_rng = fuzz_rng * 6364136223846793005ull + 1442695040888963407ull;
	return (unsigned)(fuzz_rng >> 33);
}

/* One random call among those a confused or hostile server-client makes:
 * ids from our own pool (sometimes off by a little), targets the peers. */
static void fuzz_step(int *ids, int nids, const int *peers, int npeers)
{
	struct hako_ispc_msg m = { .ctl = ids[fuzz_next() % nids], .data = -1 };
	if (fuzz_next() % 3 == 0)
		m.data = ids[fuzz_next() % nids];
	if (fuzz_next() % 8 == 0)
		m.ctl += (int)(fuzz_next() % 3) - 1;
	m.data_bytes = fuzz_next() % 9000;
	int peer = peers[fuzz_next() % npeers];
	uint64_t va;
	switch (fuzz_next() % 9) {
	case 0: sys_ispc_request(peer, &m, HAKO_ISPC_ASYNC | (fuzz_next() % 2 ? HAKO_ISPC_DIRECT : 0)); break;
	case 1: sys_ispc_request(peer, &m, HAKO_ISPC_ASYNC | HAKO_ISPC_COPY); break;
	case 2: sys_ispc_receive(&m, HAKO_ISPC_NONBLOCK); break;
	case 3: m.status = (int)fuzz_next(); sys_ispc_reply(&m, fuzz_next() % 2 ? HAKO_ISPC_WAIT | HAKO_ISPC_NONBLOCK : 0); break;
	case 4: sys_ispc_result(fuzz_next() % 2 ? -1 : m.ctl, &m, HAKO_ISPC_NONBLOCK); break;
	case 5: sys_ica_peel(m.ctl); break;
	case 6: sys_ica_paste(m.ctl); break;
	case 7: if (sys_ica_free(m.ctl) == 0) {           /* keep the pool full */
			long id = sys_ica_alloc(1 + fuzz_next() % 4, &va);
			for (int i = 0; i < nids && id > 0; i++)
				if (ids[i] == m.ctl)
					ids[i] = (int)id;
		}
		break;
	default:
		sys_ispc_result(-1, &m, HAKO_ISPC_NONBLOCK);
		break;
	}
}

UROLE(ispc_fuzzer)
{
	fuzz_rng = strtoull(argv[0], NULL, 0);
	int peers[3], npeers = 0, ids[8];
	for (int i = 1; i < argc && npeers < 3; i++)
		peers[npeers++] = atoi(argv[i]);
	if (npeers == 0)
		peers[npeers++] = 0;             /* the name-server pid: nobody listens */
	uint64_t va;
	for (int i = 0; i < 8; i++)
		ids[i] = (int)sys_ica_alloc(1 + i % 3, &va);
	sys_ispc_listen(0);
	for (int i = 0; i < 3000; i++)
		fuzz_step(ids, 8, peers, npeers);
	for (int i = 0; i < 1000000; i++) {  /* then go on slowly until killed */
		fuzz_step(ids, 8, peers, npeers);
		sys_yield();
	}
	return 0;
}

/* Three fuzzers send each other plausible garbage, then all are killed:
 * the kernel stays up and every ICA page comes back. */
TEST(ispc_fuzzers_leave_nothing_behind)
{
	uint64_t before = ica_free_pages();
	const char *seeds[] = { "21", "22" };
	for (unsigned round = 0; round < sizeof seeds / sizeof seeds[0]; round++) {
		char a[12], b[12];
		int p1 = spawn_role("ispc_fuzzer", seeds[round], NULL);
		snprintf(a, sizeof a, "%d", p1);
		int p2 = spawn_role("ispc_fuzzer", seeds[round], a, NULL);
		snprintf(b, sizeof b, "%d", p2);
		int p3 = spawn_role("ispc_fuzzer", seeds[round], a, b, NULL);
		CHECK(p1 > 0 && p2 > 0 && p3 > 0, "spawn %d %d %d", p1, p2, p3);
		sleep_ms(30);
		struct hako_ica_stat mid;
		if (sys_ica_stat(&mid) == 0)
			printf("ispc fuzz round %u: %d requests in flight, %d ICAs, %lu peels so far\n",
			       round, mid.requests, mid.icas, (unsigned long)mid.peels);
		int pids[] = { p3, p2, p1 };
		for (int i = 0; i < 3; i++)
			CHECK(kill_after(pids[i], 0) >= 0, "kill %d", pids[i]);
	}
	CHECK_EQ(ica_free_pages(), before);
	struct hako_ica_stat st;
	CHECK_EQ(sys_ica_stat(&st), 0);
	CHECK_EQ(st.requests, 0);
	return 0;
}
