/*
 * test_priv.c — the privileges of the control calls (uapi/hako_priv.h):
 * every control call is refused with -EPERM to a process holding no
 * privilege (the queries stay open), a process cannot raise its own set
 * (priv_drop only removes, spawn_priv gives a child no more than its
 * parent), and a call whose bit is held still works after another bit is
 * dropped.
 *
 * The unprivileged calls name devices and cards that do not exist and
 * carry arguments the call would refuse: where the privilege check were
 * missing, the call would fail with -ENODEV, -EINVAL or -EFAULT instead of
 * -EPERM, and act on nothing.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <hako/sys.h>
#include "test.h"

#define NO_DEV 999                       /* no device, source or card has this number */

static struct hako_intr_set intr_set;
static struct hako_blk_set blk_set = { .mode = 99 };
static struct hako_drvproc_inject inject = { .kind = 99 };
static struct hako_traffic traffic;      /* all zero: refused by every check */
static struct hako_isoch isoch;          /* period 0: refused by admission */

static long probe(int op)
{
	struct hako_intr_probe p = { .op = op };
	return sys_intr_ctl(NO_DEV, HAKO_INTR_PROBE, &p);
}

static long c_intr_set(void) { return sys_intr_ctl(NO_DEV, HAKO_INTR_SET, &intr_set); }
static long c_intr_reset(void) { return sys_intr_ctl(NO_DEV, HAKO_INTR_RESET, NULL); }
static long c_probe_start(void) { return probe(HAKO_PROBE_START); }
static long c_probe_stop(void) { return probe(HAKO_PROBE_STOP); }
static long c_probe_calibrate(void) { return probe(HAKO_PROBE_CALIBRATE); }
static long c_blk_delay(void) { return sys_blk_ctl(NO_DEV, HAKO_BLK_DELAY, (void *)1000); }
static long c_blk_set(void) { return sys_blk_ctl(NO_DEV, HAKO_BLK_SET, &blk_set); }
static long c_blk_reset(void) { return sys_blk_ctl(NO_DEV, HAKO_BLK_RESET, NULL); }
static long c_perf_purge(void) { return sys_perf_ctl(HAKO_PERF_PURGE, (void *)1); }
static long c_perf_preempt_reset(void) { return sys_perf_ctl(HAKO_PERF_PREEMPT_RESET, (void *)1); }
static long c_perf_internal(void) { return sys_perf_ctl(HAKO_PERF_INTERNAL, NULL); }
static long c_drvproc_reset(void) { return sys_drvproc_ctl(NO_DEV, HAKO_DRVPROC_RESET, NULL); }
static long c_drvproc_inject(void) { return sys_drvproc_ctl(NO_DEV, HAKO_DRVPROC_INJECT, &inject); }
static long c_drvproc_restart(void) { return sys_drvproc_ctl(NO_DEV, HAKO_DRVPROC_RESTART, NULL); }
static long c_nic_traffic_start(void) { return sys_nic_traffic(NO_DEV, &traffic); }
static long c_nic_traffic_stop(void) { return sys_nic_traffic(NO_DEV, NULL); }
static long c_ispc_mode(void) { return sys_ispc_mode(99); }
static long c_setprio_high(void) { return sys_setprio(0, HAKO_PRIO_DEFAULT + 1); }
static long c_isoch_create(void) { return sys_isoch_ctl(HAKO_ISOCH_CREATE, 0, &isoch); }

/* Every control call (docs/design/proc.md "Privileges"), one entry per call and op. */
static const struct {
	const char *name;
	long (*call)(void);
	unsigned need;
} control[] = {
	{ "intr_ctl SET", c_intr_set, HAKO_PRIV_INTR },
	{ "intr_ctl RESET", c_intr_reset, HAKO_PRIV_INTR },
	{ "intr_ctl PROBE START", c_probe_start, HAKO_PRIV_MEASURE },
	{ "intr_ctl PROBE STOP", c_probe_stop, HAKO_PRIV_MEASURE },
	{ "intr_ctl PROBE CALIBRATE", c_probe_calibrate, HAKO_PRIV_MEASURE },
	{ "blk_ctl DELAY", c_blk_delay, HAKO_PRIV_DEVCTL },
	{ "blk_ctl SET", c_blk_set, HAKO_PRIV_DEVCTL },
	{ "blk_ctl RESET", c_blk_reset, HAKO_PRIV_DEVCTL },
	{ "perf_ctl PURGE", c_perf_purge, HAKO_PRIV_MEASURE },
	{ "perf_ctl PREEMPT_RESET", c_perf_preempt_reset, HAKO_PRIV_MEASURE },
	{ "perf_ctl INTERNAL", c_perf_internal, HAKO_PRIV_MEASURE },
	{ "drvproc_ctl RESET", c_drvproc_reset, HAKO_PRIV_DRVPROC },
	{ "drvproc_ctl INJECT", c_drvproc_inject, HAKO_PRIV_DRVPROC },
	{ "drvproc_ctl RESTART", c_drvproc_restart, HAKO_PRIV_DRVPROC },
	{ "nic_traffic start", c_nic_traffic_start, HAKO_PRIV_DEVCTL },
	{ "nic_traffic stop", c_nic_traffic_stop, HAKO_PRIV_DEVCTL },
	{ "ispc_mode", c_ispc_mode, HAKO_PRIV_IPC },
	{ "setprio above the default", c_setprio_high, HAKO_PRIV_SCHED },
	{ "isoch_ctl CREATE", c_isoch_create, HAKO_PRIV_SCHED },
};
#define NCONTROL (sizeof control / sizeof control[0])

/* Calls every control call whose bit the process lacks: each must say -EPERM.
 * Exit status: 0, or 1 + the index of the first that did not. */
UROLE(priv_refused)
{
	unsigned held = (unsigned)sys_priv_get();
	for (unsigned i = 0; i < NCONTROL; i++) {
		if (control[i].need & held)
			continue;
		long r = control[i].call();
		if (r != -EPERM) {
			printf("selftest: %s without its privilege returned %ld, expected -EPERM (%d)\n",
			       control[i].name, r, -EPERM);
			return 1 + (int)i;
		}
	}
	return 0;
}

/* Exit status: the privileges the process holds. */
UROLE(priv_report)
{
	return (int)sys_priv_get();
}

static int spawn_role_priv(const char *role, uint64_t keep)
{
	char *argv[] = { "selftest", "--role", (char *)role, NULL };
	int pid = (int)sys_spawn_priv("selftest", argv, keep);
	if (pid < 0)
		return pid;
	int status;
	int r = waitpid(pid, &status);
	return r < 0 ? r : status;
}

TEST(control_calls_refused_without_privilege)
{
	int status = spawn_role_priv("priv_refused", HAKO_PRIV_NONE);
	CHECK(status == 0, "%s", status > 0 && status <= (int)NCONTROL ? control[status - 1].name :
	      "the unprivileged child did not run");
	/* The queries and the calls on its own things stay open to it. */
	CHECK_EQ(spawn_role_priv("priv_report", HAKO_PRIV_NONE), HAKO_PRIV_NONE);
	CHECK_EQ(sys_priv_get(), HAKO_PRIV_ALL);
	return 0;
}

TEST(unprivileged_queries_stay_open)
{
	static struct hako_perf_preempt pre;
	struct hako_blk_info info;
	CHECK_EQ(sys_priv_drop(HAKO_PRIV_ALL), HAKO_PRIV_NONE);
	CHECK_EQ(sys_perf_ctl(HAKO_PERF_PREEMPT_GET, &pre), 0);
	CHECK_EQ(sys_setprio(0, HAKO_PRIO_DEFAULT), 0);
	CHECK_EQ(sys_setprio(0, HAKO_PRIO_DEFAULT - 1), 0);
	long r = sys_blk_ctl(0, HAKO_BLK_INFO, &info);
	CHECK(r == 0 || r == -ENODEV, "blk_ctl INFO returned %ld", r);
	struct hako_drvproc_stat st;
	r = sys_drvproc_ctl(0, HAKO_DRVPROC_STAT, &st);
	CHECK(r == 0 || r == -ENODEV, "drvproc_ctl STAT returned %ld", r);
	CHECK_EQ(spawn_role_priv("priv_report", HAKO_PRIV_ALL), HAKO_PRIV_NONE);
	return 0;
}

TEST(process_cannot_raise_its_privileges)
{
	const uint64_t some = HAKO_PRIV_MEASURE | HAKO_PRIV_SCHED;
	CHECK_EQ(sys_priv_drop(HAKO_PRIV_ALL & ~some), some);
	CHECK_EQ(sys_priv_get(), some);
	CHECK_EQ(sys_priv_drop(HAKO_PRIV_NONE), some);              /* nothing removed, nothing added */
	CHECK_EQ(sys_priv_drop(~0ull), -EINVAL);                     /* no bit beyond the privileges */
	CHECK_EQ(sys_priv_drop((uint64_t)-(int64_t)HAKO_PRIV_ALL), -EINVAL);
	CHECK_EQ(sys_priv_get(), some);
	/* A child asking for everything gets what the parent holds. */
	CHECK_EQ(spawn_role_priv("priv_report", HAKO_PRIV_ALL), some);
	CHECK_EQ(spawn_role_priv("priv_report", HAKO_PRIV_MEASURE | HAKO_PRIV_DEVCTL), HAKO_PRIV_MEASURE);
	CHECK_EQ(sys_spawn_priv("selftest", NULL, 1ull << 40), -EINVAL);
	char *argv[] = { "selftest", "--role", "priv_report", NULL };
	CHECK_EQ(spawn_wait("selftest", argv), some);               /* plain spawn: the same set */
	/* The child without a bit is refused the calls that need it. */
	CHECK_EQ(spawn_role_priv("priv_refused", HAKO_PRIV_ALL), 0);
	CHECK_EQ(sys_priv_drop(some), HAKO_PRIV_NONE);
	CHECK_EQ(spawn_role_priv("priv_report", HAKO_PRIV_ALL), HAKO_PRIV_NONE);
	return 0;
}

TEST(privileged_call_works_after_another_bit_dropped)
{
	CHECK_EQ(sys_priv_drop(HAKO_PRIV_DEVCTL | HAKO_PRIV_SCHED), HAKO_PRIV_ALL & ~(HAKO_PRIV_DEVCTL | HAKO_PRIV_SCHED));
	CHECK_EQ(sys_perf_ctl(HAKO_PERF_PURGE, NULL), 0);            /* MEASURE still held */
	CHECK_EQ(sys_blk_ctl(0, HAKO_BLK_RESET, NULL), -EPERM);      /* DEVCTL gone */
	CHECK_EQ(sys_setprio(0, HAKO_PRIO_DEFAULT + 1), -EPERM);     /* SCHED gone */
	CHECK_EQ(sys_ispc_mode(99), -EINVAL);                        /* IPC held: the mode is checked */
	struct hako_drvproc_stat st;
	long r = sys_drvproc_ctl(NO_DEV, HAKO_DRVPROC_RESET, &st);
	CHECK_EQ(r, -ENODEV);                                        /* DRVPROC held: the card is checked */
	return 0;
}
