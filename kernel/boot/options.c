/*
 * options.c — the kernel options and what each allows (pure; host-tested
 * in tests/host/test_options.c).  The boot checks the whole command line
 * once, right after reading it (main.c), and stops at the first wrong
 * option with one line naming it and what is allowed: an unknown key, a
 * value out of range, a line longer than the buffer or with more words
 * than are kept is refused, never half-used.
 */
#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#include <errno.h>
#include <kprintf.h>
#include <options.h>
#include <hako.h>

static bool one_of(const char *v, const char *a, const char *b)
{
	return strcmp(v, a) == 0 || strcmp(v, b) == 0;
}

static bool on_off(const char *v) { return one_of(v, "on", "off"); }
static bool console_ok(const char *v) { return one_of(v, "serial", "vga"); }
static bool ispc_ok(const char *v) { return one_of(v, "baseline", "fast"); }
static bool drvmode_ok(const char *v) { return one_of(v, "user", "super"); }
static bool isoch_ok(const char *v) { return one_of(v, "rm", "table"); }

static bool tick_ok(const char *v)
{
	int64_t ns = parse_duration_ns(v);
	return ns >= (int64_t)OPTIONS_TICK_MIN_NS && ns <= (int64_t)OPTIONS_TICK_MAX_NS;
}

static bool slice_ok(const char *v)
{
	return v[0] >= '1' && v[0] <= '9' && v[1] == 0;
}

/* A CPU number 1 .. OPTIONS_CPUS_MAX - 1 in decimal, without a sign or leading zero. */
static bool iop_ok(const char *v)
{
	int n = 0;
	if (v[0] < '1' || v[0] > '9')
		return false;
	for (; *v; v++) {
		if (*v < '0' || *v > '9' || n >= OPTIONS_CPUS_MAX)
			return false;
		n = n * 10 + (*v - '0');
	}
	return n < OPTIONS_CPUS_MAX;
}

/* Each comma-separated word of list passes word_ok; empty words never do. */
static bool each_word(const char *list, bool (*word_ok)(const char *w, size_t n))
{
	for (const char *p = list;;) {
		const char *comma = strchr(p, ',');
		size_t n = comma ? (size_t)(comma - p) : strlen(p);
		if (n == 0 || !word_ok(p, n))
			return false;
		if (!comma)
			return true;
		p = comma + 1;
	}
}

static bool process_driver(const char *w, size_t n)
{
	for (int i = 0; options_drvproc_driver(i); i++)
		if (strlen(options_drvproc_driver(i)) == n && strncmp(options_drvproc_driver(i), w, n) == 0)
			return true;
	return false;
}

static bool drvproc_ok(const char *v)
{
	return one_of(v, "all", "none") || each_word(v, process_driver);
}

/* A program name: letters, digits, '-', '_', shorter than HAKO_PATH_MAX. */
static bool program_name(const char *w, size_t n)
{
	if (n >= HAKO_PATH_MAX)
		return false;
	for (size_t i = 0; i < n; i++) {
		char c = w[i];
		if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
		      c == '-' || c == '_'))
			return false;
	}
	return true;
}

static bool servers_ok(const char *v)
{
	return !*v || (strlen(v) < OPTIONS_SERVERS_MAX && each_word(v, program_name));
}

static const struct option {
	const char *key;
	const char *allowed;
	bool (*ok)(const char *value);
} options[] = {
	{ "tick", "a duration from 100us to 1s, e.g. 10ms", tick_ok },
	{ "slice", "1..9 ticks", slice_ok },
	{ "irqtrace", "on or off", on_off },
	{ "lockcheck", "on or off", on_off },
	{ "serialise", "on or off", on_off },
	{ "console", "serial or vga", console_ok },
	{ "ispc", "baseline or fast", ispc_ok },
	{ "iop", "a CPU 1..15 other than the boot CPU", iop_ok },
	{ "drvproc", "all (the network drivers), none, or drivers joined by commas:", drvproc_ok },
	{ "servers", "programs joined by commas, 127 bytes at most, or nothing", servers_ok },
	{ "fastpath", "on or off", on_off },
	{ "drvswitch", "on or off", on_off },
	{ "drvmode", "user or super", drvmode_ok },
	{ "isoch", "rm or table", isoch_ok },
	{ "semdirect", "on or off", on_off },
};
#define NOPTIONS (sizeof options / sizeof options[0])

/* "the options: tick slice ..." or the network drivers, appended to why. */
static void append_names(char *why, size_t len, bool drivers)
{
	size_t used = strlen(why);
	for (int i = 0;; i++) {
		const char *name = drivers ? options_drvproc_driver(i) : i < (int)NOPTIONS ? options[i].key : NULL;
		if (!name || used + 1 >= len)
			break;
		used += (size_t)ksnprintf(why + used, len - used, "%s%s", drivers && i ? "," : " ", name);
		if (used >= len)
			used = len - 1;
	}
	if (used + 1 < len)
		ksnprintf(why + used, len - used, ")");
}

int options_check(const struct cmdline *cl, char *why, size_t len)
{
	if (cl->cut) {
		ksnprintf(why, len, "kernel command line refused (longer than %d bytes)",
			  (int)sizeof cl->buf - 1);
		return -EINVAL;
	}
	if (cl->dropped) {
		ksnprintf(why, len, "kernel command line refused (more than %d options or %d words "
			  "after --)", CMD_MAX_WORDS, CMD_MAX_WORDS);
		return -EINVAL;
	}
	for (int i = 0; i < cl->nopts; i++) {
		const char *key = cl->opt_key[i], *value = cl->opt_val[i];
		const struct option *o = NULL;
		for (size_t k = 0; k < NOPTIONS && !o; k++)
			if (strcmp(options[k].key, key) == 0)
				o = &options[k];
		if (!o) {
			ksnprintf(why, len, "kernel option %s=%s refused (no such option; the options:",
				  key, value);
			append_names(why, len, false);
			return -EINVAL;
		}
		if (!o->ok(value)) {
			ksnprintf(why, len, "kernel option %s=%s refused (allowed: %s", key, value, o->allowed);
			if (o->ok == drvproc_ok)
				append_names(why, len, true);
			else
				strlcat(why, ")", len);
			return -EINVAL;
		}
	}
	return 0;
}
