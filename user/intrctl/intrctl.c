/*
 * intrctl — shows and changes how each device's interrupts are handled
 * (interrupt packaging, paper 000), through the intr_ctl system call.
 *
 *   intrctl                                every device: mode, N, T, counters
 *   intrctl DEV                            one device in full
 *   intrctl DEV sequential
 *   intrctl DEV packed [n N] [t TIME] [tick on|off]
 *   intrctl DEV adaptive [bound TIME] [tick on|off]
 *   intrctl DEV reset                      handle what is pending, zero the counters
 *   intrctl batches                        every CPU's batches: types held, stretches
 *   intrctl group on|off                   batches grouped by device type, or not
 *
 * DEV is a device number or name ("rtl8139.0"); TIME is a number with
 * ns, us, ms or s ("2ms"; T 0 turns the T trigger off).  Settings not
 * named stay as they were.  Exit status 0, 1 on an error, 2 on a usage error.
 */
#include <inttypes.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <hako/args.h>
#include <hako/sys.h>

static const char *const modes[] = { "sequential", "packed", "adaptive" };

static const char usage_text[] =
	"usage: intrctl                             every device: mode, N, T, counters\n"
	"       intrctl DEV                         one device in full (a number or a name)\n"
	"       intrctl DEV sequential\n"
	"       intrctl DEV packed [n N] [t TIME] [tick on|off]\n"
	"       intrctl DEV adaptive [bound TIME] [tick on|off]\n"
	"       intrctl DEV reset\n"
	"       intrctl batches                     batches since boot: types held, stretches\n"
	"       intrctl group on|off                batches grouped by device type (on), or not\n"
	"TIME is a number with ns, us, ms or s (\"2ms\"); N is 1 to 32; TIME at most 1s.\n";

static int usage(void)
{
	printf("%s", usage_text);
	return 1;
}

static int fail(const char *what, long err)
{
	printf("intrctl: %s: %s\n", what, strerror((int)-err));
	return 1;
}

/* "250us" -> 250000; -1 if it is not a time. */
static int64_t parse_time(const char *s)
{
	char *end;
	long long v = strtoll(s, &end, 10);
	if (end == s || v < 0)
		return -1;
	if (*end == 0 || strcmp(end, "ns") == 0)
		return v;
	if (strcmp(end, "us") == 0)
		return v * 1000;
	if (strcmp(end, "ms") == 0)
		return v * 1000000;
	if (strcmp(end, "s") == 0)
		return v * 1000000000;
	return -1;
}

static void show_time(const char *label, uint64_t ns)
{
	if (ns >= 1000000 && ns % 1000000 == 0)
		printf("%s%" PRIu64 "ms", label, ns / 1000000);
	else if (ns >= 1000 && ns % 1000 == 0)
		printf("%s%" PRIu64 "us", label, ns / 1000);
	else
		printf("%s%" PRIu64 "ns", label, ns);
}

static const char *mode_name(int m)
{
	return m >= 0 && m <= 2 ? modes[m] : "?";
}

static void show_line(int id, const struct hako_intr_dev *d)
{
	printf("%2d %-10s %-10s vec %3d cpu %2d  N %2u", id, d->name, mode_name(d->set.mode),
	       d->vector, d->cpu, d->n_now);
	uint64_t t = d->set.mode == HAKO_INTR_PACKED ? d->set.t_ns : d->t_now_ns;
	if (t)
		show_time("  T ", t);
	else
		printf("  T off");
	printf("%s  pending %2u  irqs %" PRIu64 " handled %" PRIu64 " batches %" PRIu64 "\n",
	       d->set.flags & HAKO_INTR_TICK ? " +tick" : "", d->pending, d->c.interrupts,
	       d->c.handled, d->c.batches);
}

static void show_full(int id, const struct hako_intr_dev *d)
{
	const struct hako_intr_counters *c = &d->c;
	show_line(id, d);
	printf("   type %s, set: N %u", d->type, d->set.n);
	show_time(", T ", d->set.t_ns);
	show_time(", delay bound ", d->set.bound_ns);
	show_time("; measured gap between interrupts ", d->gap_ns);
	printf("\n   interrupts %" PRIu64 "  registered %" PRIu64 "  handled %" PRIu64 "  not mine %" PRIu64 "\n", c->interrupts,
	       c->registered, c->handled, c->not_mine);
	printf("   batches %" PRIu64 ": by N %" PRIu64 ", T %" PRIu64 ", tick %" PRIu64 ", urgent %" PRIu64 ", full %" PRIu64 ", flush %" PRIu64 "\n",
	       c->batches, c->by_n, c->by_t, c->by_tick, c->by_urgent, c->by_full, c->by_flush);
	printf("   delay (TSC ticks) mean %" PRIu64 " max %" PRIu64 "\n", c->handled ? c->delay_sum / c->handled : 0,
	       c->delay_max);
}

static int list_all(void)
{
	struct hako_intr_dev d;
	int id = 0;
	for (; sys_intr_ctl(id, HAKO_INTR_GET, &d) == 0; id++)
		show_line(id, &d);
	if (id == 0)
		printf("intrctl: no devices under interrupt packaging (boot with --net hub for the NICs)\n");
	return 0;
}

/* A number, or the name of a device; -1 if neither. */
static int find_dev(const char *s)
{
	char *end;
	long v = strtol(s, &end, 10);
	if (end != s && *end == 0)
		return (int)v;
	struct hako_intr_dev d;
	for (int id = 0; sys_intr_ctl(id, HAKO_INTR_GET, &d) == 0; id++)
		if (strcmp(d.name, s) == 0)
			return id;
	return -1;
}

/* A setting the kernel would refuse: say which and what is allowed; 1. */
static int bad_value(const char *key, const char *value, const char *allowed)
{
	printf("intrctl: %s %s: %s\n", key, value, allowed);
	return 1;
}

/* Words after the mode: n N, t TIME, bound TIME, tick on|off; 0, or 1
 * after saying which word is wrong. */
static int parse_options(struct hako_intr_set *set, int argc, char **argv)
{
	for (int i = 0; i < argc; i += 2) {
		const char *k = argv[i], *v = i + 1 < argc ? argv[i + 1] : "(none)";
		int64_t t = parse_time(v);
		char *end;
		long n = strtol(v, &end, 10);
		if (strcmp(k, "n") == 0) {
			if (end == v || *end || n < 1 || n > HAKO_INTR_N_MAX)
				return bad_value(k, v, "give N from 1 to 32");
			set->n = (uint32_t)n;
		} else if (strcmp(k, "t") == 0 || strcmp(k, "bound") == 0) {
			if (t < 0 || (uint64_t)t > HAKO_INTR_T_MAX_NS)
				return bad_value(k, v, "give a time up to 1s, e.g. 250us or 2ms");
			*(strcmp(k, "t") == 0 ? &set->t_ns : &set->bound_ns) = (uint64_t)t;
		} else if (strcmp(k, "tick") == 0) {
			if (strcmp(v, "on") != 0 && strcmp(v, "off") != 0)
				return bad_value(k, v, "on or off");
			set->flags = strcmp(v, "on") == 0 ? set->flags | HAKO_INTR_TICK
							  : set->flags & ~(uint32_t)HAKO_INTR_TICK;
		} else {
			return bad_value(k, v, "not a setting (n, t, bound, tick)");
		}
	}
	return 0;
}

static int change(int id, int argc, char **argv)
{
	struct hako_intr_dev d;
	long r = sys_intr_ctl(id, HAKO_INTR_GET, &d);
	if (r < 0)
		return fail("device", r);
	if (strcmp(argv[0], "reset") == 0) {
		r = sys_intr_ctl(id, HAKO_INTR_RESET, NULL);
		return r < 0 ? fail("reset", r) : 0;
	}
	struct hako_intr_set set = d.set;
	set.mode = -1;
	for (int m = 0; m < 3; m++)
		if (strcmp(argv[0], modes[m]) == 0)
			set.mode = m;
	if (set.mode < 0) {
		printf("intrctl: %s: not a mode (sequential, packed, adaptive) or reset\n", argv[0]);
		return usage();
	}
	if (parse_options(&set, argc - 1, argv + 1))
		return 1;
	if (set.mode == HAKO_INTR_ADAPTIVE && set.bound_ns == 0)
		set.bound_ns = 1000000;            /* 1 ms unless told */
	r = sys_intr_ctl(id, HAKO_INTR_SET, &set);
	if (r < 0)
		return fail("set", r);
	sys_intr_ctl(id, HAKO_INTR_GET, &d);
	show_full(id, &d);
	return 0;
}

/* `intrctl batches`: the batch statistics; `intrctl group on|off`. */
static int batches(void)
{
	struct hako_intr_stats st;
	long r = sys_intr_ctl(0, HAKO_INTR_STATS, &st);
	if (r < 0)
		return fail("batches", r);
	printf("batches %" PRIu64 " (grouping %s), main handlers %" PRIu64
	       ", stretches of one type %" PRIu64 "\n",
	       st.batches, st.group ? "on" : "off", st.entries, st.runs);
	for (int t = 0; t < HAKO_INTR_TYPES_HIST; t++)
		printf("  holding %d%s type%s: %" PRIu64
		       "\n", t + 1, t + 1 == HAKO_INTR_TYPES_HIST ? "+" : "",
		       t ? "s" : "", st.types[t]);
	return 0;
}

static int group(const char *arg)
{
	int on = strcmp(arg, "on") == 0 ? 1 : strcmp(arg, "off") == 0 ? 0 : -1;
	if (on < 0)
		return usage();
	long r = sys_intr_ctl(0, HAKO_INTR_GROUP, (void *)(long)on);
	return r < 0 ? fail("group", r) : 0;
}

int main(int argc, char **argv)
{
	if (argc < 2)
		return list_all();
	arg_help(argc, argv, usage_text);
	if (argc == 2 && strcmp(argv[1], "batches") == 0)
		return batches();
	if (strcmp(argv[1], "group") == 0)
		return argc == 3 ? group(argv[2]) : usage();
	int id = find_dev(argv[1]);
	struct hako_intr_dev d;
	if (id < 0 || sys_intr_ctl(id, HAKO_INTR_GET, &d) < 0) {
		printf("intrctl: %s: no such device (devices:", argv[1]);
		for (int i = 0; sys_intr_ctl(i, HAKO_INTR_GET, &d) == 0; i++)
			printf(" %s", d.name);
		printf(")\n");
		return 1;
	}
	if (argc == 2) {
		show_full(id, &d);
		return 0;
	}
	return change(id, argc - 2, argv + 2);
}
