/*
 * devctl — shows and changes how each block device is reached on a
 * multiprocessor (paper 001), through the blk_ctl system call.
 *
 *   devctl                                 every device: mode, policy, counters per CPU
 *   devctl DEV                             one device
 *   devctl DEV mode funnel|symmetric       who issues commands
 *   devctl DEV policy master|fixed N|issuer|idle|busiest|broadcast|load
 *                                          who takes the interrupt
 *   devctl DEV iop on|off                  commands through the I/O processor (kernel iop=N)
 *   devctl DEV delay US                    a fixed-delay device's service time (testdev)
 *   devctl DEV reset                       zero the counters
 *
 * DEV is a device number or name ("testdev0").  The counters per CPU are
 * requests issued and completed there, interrupts taken there (broadcast:
 * relayed ones too), broadcast races lost there, leftover interrupts
 * left to the target there (issuer, idle, busiest, load: an MSI that
 * arrives after its requests were completed elsewhere) and handler runs
 * that completed nothing there; with an I/O processor, also the
 * completion IPIs it sent to each.  Exit status 0, 1 on an error, 2 on a usage error.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <hako/args.h>
#include <hako/sys.h>
#include <hako_blk.h>

static const char *const modes[] = { "symmetric", "funnel" };
static const char *const policies[HAKO_BLK_POLICIES] = {
	"master", "fixed", "issuer", "idle", "busiest", "broadcast", "load",
};

static const char usage_text[] =
	"usage: devctl                              every device: mode, policy, counters per CPU\n"
	"       devctl DEV                          one device (a number or a name)\n"
	"       devctl DEV mode funnel|symmetric\n"
	"       devctl DEV policy master|fixed N|issuer|idle|busiest|broadcast|load\n"
	"       devctl DEV iop on|off\n"
	"       devctl DEV delay US\n"
	"       devctl DEV reset\n";

static int usage(void)
{
	printf("%s", usage_text);
	return 1;
}

static int fail(const char *what, long err)
{
	printf("devctl: %s: %s\n", what, strerror((int)-err));
	return 1;
}

/* A word that is not one of the allowed ones: say which and what is allowed. */
static int bad_word(const char *what, const char *word, const char *allowed)
{
	printf("devctl: %s %s: not one of %s\n", what, word, allowed);
	return 1;
}

static const char *mode_name(int m) { return m >= 0 && m < 2 ? modes[m] : "?"; }
static const char *policy_name(int p) { return p >= 0 && p < HAKO_BLK_POLICIES ? policies[p] : "?"; }

static int ncpus(void)
{
	struct hako_sysinfo si;
	return sys_sysinfo(&si) < 0 || si.ncpus < 1 ? 1 : (int)si.ncpus;
}

static void row(const char *label, const uint64_t *v, int n)
{
	printf("   %-10s", label);
	for (int c = 0; c < n; c++)
		printf(" %8lu", (unsigned long)v[c]);
	printf("\n");
}

static void show(int id, const struct hako_blk_info *in)
{
	printf("%2d %-10s %-9s ", id, in->name, mode_name(in->mode));
	if (!in->has_irq)
		printf("policy n/a (no interrupt)");
	else if (in->policy == HAKO_BLK_FIXED)
		printf("policy fixed %d", in->fixed_cpu);
	else
		printf("policy %s", policy_name(in->policy));
	if (in->has_irq && in->effective != in->policy)
		printf(" (funnelled: %s in effect)", policy_name(in->effective));
	if (in->has_irq)
		printf(", to cpu %d", in->target);
	if (in->delay_us)
		printf(", delay %luus", (unsigned long)in->delay_us);
	if (in->iop_cpu >= 0)
		printf(", iop %s (cpu %d, %lu commands)", in->iop ? "on" : "off", in->iop_cpu,
		       (unsigned long)in->iop_cmds);
	printf("\n   reads %lu writes %lu errors %lu retargets %lu solo %lu (on issuer %lu)\n",
	       (unsigned long)in->reads, (unsigned long)in->writes, (unsigned long)in->errors,
	       (unsigned long)in->retargets, (unsigned long)in->solo,
	       (unsigned long)in->solo_on_issuer);
	int n = ncpus();
	printf("   %-10s", "cpu");
	for (int c = 0; c < n; c++)
		printf(" %8d", c);
	printf("\n");
	row("issued", in->issued, n);
	row("completed", in->completed, n);
	if (in->has_irq) {
		row("interrupts", in->interrupts, n);
		row("lost", in->lost, n);
		row("left", in->left, n);
		row("empty", in->empty, n);
	}
	if (in->iop_cpu >= 0)
		row("iop ipis", in->iop_ipis, n);
}

static int list_all(void)
{
	struct hako_blk_info in;
	int id = 0;
	for (; sys_blk_ctl(id, HAKO_BLK_INFO, &in) == 0; id++)
		show(id, &in);
	if (id == 0)
		printf("devctl: no block devices\n");
	return 0;
}

/* A number, or the name of a device; -1 if neither. */
static int find_dev(const char *s)
{
	char *end;
	long v = strtol(s, &end, 10);
	if (end != s && *end == 0)
		return (int)v;
	struct hako_blk_info in;
	for (int id = 0; sys_blk_ctl(id, HAKO_BLK_INFO, &in) == 0; id++)
		if (strcmp(in.name, s) == 0)
			return id;
	return -1;
}

static int lookup(const char *const *names, int n, const char *s)
{
	for (int i = 0; i < n; i++)
		if (strcmp(names[i], s) == 0)
			return i;
	return -1;
}

#define POLICY_WORDS "master, fixed N, issuer, idle, busiest, broadcast, load"

/* "policy fixed N" and the others into set; 0, or 1 after saying what is wrong. */
static int parse_policy(struct hako_blk_set *set, int argc, char **argv)
{
	if (argc < 1)
		return bad_word("policy", "(none)", POLICY_WORDS);
	set->policy = lookup(policies, HAKO_BLK_POLICIES, argv[0]);
	if (set->policy < 0)
		return bad_word("policy", argv[0], POLICY_WORDS);
	if (set->policy != HAKO_BLK_FIXED)
		return argc == 1 ? 0 : bad_word("policy", argv[1], "(nothing after the policy)");
	int n = ncpus();
	char *end = argv[1];
	long cpu = argc == 2 ? strtol(argv[1], &end, 10) : -1;
	if (argc != 2 || end == argv[1] || *end || cpu < 0 || cpu >= n) {
		printf("devctl: policy fixed %s: give a CPU from 0 to %d\n",
		       argc == 2 ? argv[1] : "(none)", n - 1);
		return 1;
	}
	set->fixed_cpu = (int32_t)cpu;
	return 0;
}

static int change(int id, int argc, char **argv)
{
	struct hako_blk_info in;
	long r;
	const char *what = argv[0];
	struct hako_blk_set set = { HAKO_BLK_KEEP, HAKO_BLK_KEEP, HAKO_BLK_KEEP, 0 };
	if (strcmp(what, "reset") == 0 && argc == 1) {
		r = sys_blk_ctl(id, HAKO_BLK_RESET, NULL);
	} else if (strcmp(what, "delay") == 0 && argc == 2) {
		char *end;
		unsigned long us = strtoul(argv[1], &end, 10);
		if (end == argv[1] || *end)
			return bad_word("delay", argv[1], "a number of microseconds");
		r = sys_blk_ctl(id, HAKO_BLK_DELAY, (void *)us);
	} else if (strcmp(what, "mode") == 0 && argc == 2) {
		set.mode = lookup(modes, 2, argv[1]);
		if (set.mode < 0)
			return bad_word("mode", argv[1], "funnel, symmetric");
		r = sys_blk_ctl(id, HAKO_BLK_SET, &set);
	} else if (strcmp(what, "iop") == 0 && argc == 2) {
		if (strcmp(argv[1], "on") == 0)
			set.iop = HAKO_BLK_IOP_ON;
		else if (strcmp(argv[1], "off") == 0)
			set.iop = HAKO_BLK_IOP_OFF;
		else
			return bad_word("iop", argv[1], "on, off");
		r = sys_blk_ctl(id, HAKO_BLK_SET, &set);
		if (r == -EINVAL && set.iop == HAKO_BLK_IOP_ON) {
			printf("devctl: no I/O processor (boot with iop=N)\n");
			return 1;
		}
	} else if (strcmp(what, "policy") == 0) {
		if (parse_policy(&set, argc - 1, argv + 1))
			return 1;
		sys_blk_ctl(id, HAKO_BLK_INFO, &in);
		if (!in.has_irq) {
			printf("devctl: %s has no interrupt: delivery policies do not apply\n", in.name);
			return 1;
		}
		r = sys_blk_ctl(id, HAKO_BLK_SET, &set);
	} else {
		printf("devctl: %s: not a change devctl makes\n", what);
		return usage();
	}
	if (r < 0)
		return fail(what, r);
	sys_blk_ctl(id, HAKO_BLK_INFO, &in);
	show(id, &in);
	return 0;
}

int main(int argc, char **argv)
{
	if (argc < 2)
		return list_all();
	arg_help(argc, argv, usage_text);
	int id = find_dev(argv[1]);
	struct hako_blk_info in;
	if (id < 0 || sys_blk_ctl(id, HAKO_BLK_INFO, &in) < 0) {
		printf("devctl: %s: no such block device (devices:", argv[1]);
		for (int d = 0; sys_blk_ctl(d, HAKO_BLK_INFO, &in) == 0; d++)
			printf(" %s", in.name);
		printf(")\n");
		return 1;
	}
	if (argc == 2) {
		show(id, &in);
		return 0;
	}
	return change(id, argc - 2, argv + 2);
}
