/*
 * options.c — the plugin's arguments into struct cm_options (options.h).
 *
 * Hako's defaults: its direct map as the one range mapped with 2 MiB pages,
 * the CPU number 24 bytes from the per-CPU base (offsetof(struct cpu, id),
 * kernel/sched/cpu.h asserts it), device service times at 1000 cycles a
 * microsecond (the guest's TSC rate under icount shift 0), the exit port
 * 0xf4 (isa-debug-exit).  Another guest (the Linux peer) names its own
 * layout: cpu_id_offset=N and large=BASE:SIZE (the first replaces the
 * direct map).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "options.h"
#include "../../kernel/arch/x86_64/include/arch/layout.h"

#define HAKO_CPU_ID_OFFSET 24

/* large=BASE:SIZE, both hexadecimal; `given`: an earlier one replaced the default. */
static int parse_large(const char *text, struct cm_options *o, bool *given)
{
	char *end;
	uint64_t base = strtoull(text, &end, 16);
	if (*end != ':' || (*given ? o->nlarge : 0) >= CM_LARGE_MAX)
		return -1;
	uint64_t size = strtoull(end + 1, &end, 16);
	if (*end || !size)
		return -1;
	if (!*given)
		o->nlarge = 0;
	*given = true;
	o->large[o->nlarge].base = base;
	o->large[o->nlarge].size = size;
	o->nlarge++;
	return 0;
}

/* handler=START:END, both hexadecimal, START below END. */
static int parse_handler(const char *text, struct cm_options *o)
{
	char *end;
	uint64_t start = strtoull(text, &end, 16);
	if (end == text || *end != ':')
		return -1;
	const char *second = end + 1;
	uint64_t stop = strtoull(second, &end, 16);
	if (end == second || *end || stop <= start)
		return -1;
	o->handler_start = start;
	o->handler_end = stop;
	return 0;
}

int cm_options_parse(int argc, char **argv, struct cm_options *o, char *err, size_t errlen)
{
	*o = (struct cm_options){
		.cpu_id_offset = HAKO_CPU_ID_OFFSET,
		.large = { { DIRECT_MAP_BASE, DIRECT_MAP_SIZE } }, .nlarge = 1,
		.clock_mhz = 1000, .exit_port = 0xf4,
	};
	bool large_given = false;
	for (int i = 0; i < argc; i++) {
		const char *a = argv[i];
		if (strncmp(a, "profile=", 8) == 0)
			o->profile_path = a + 8;
		else if (strncmp(a, "out=", 4) == 0)
			o->out_path = a + 4;
		else if (strcmp(a, "regs=on") == 0)
			o->show_regs = true;
		else if (strcmp(a, "l2=off") == 0)
			o->l2_off = true;
		else if (strcmp(a, "pcprof=on") == 0)
			o->pcprof = true;
		else if (strncmp(a, "turns=", 6) == 0 && a[6])
			o->turns_path = a + 6;
		else if (strncmp(a, "cpu_id_offset=", 14) == 0)
			o->cpu_id_offset = strtoull(a + 14, NULL, 0);
		else if (strncmp(a, "large=", 6) == 0 && parse_large(a + 6, o, &large_given) == 0)
			continue;
		else if (strncmp(a, "epoch=", 6) == 0 && o->nepoch_addrs < CM_EPOCH_ADDRS_MAX && a[6])
			o->epoch_addrs[o->nepoch_addrs++] = strtoull(a + 6, NULL, 16);
		else if (strncmp(a, "exit_port=", 10) == 0)
			o->exit_port = (int32_t)strtol(a + 10, NULL, 0);
		else if (strncmp(a, "mhz=", 4) == 0 && (o->clock_mhz = strtoull(a + 4, NULL, 10)))
			continue;
		else if (strncmp(a, "handler=", 8) == 0 && parse_handler(a + 8, o) == 0)
			continue;
		else if (strncmp(a, "release=", 8) == 0 && o->nrelease_addrs < CM_RELEASE_ADDRS_MAX && a[8])
			o->release_addrs[o->nrelease_addrs++] = strtoull(a + 8, NULL, 16);
		else {
			snprintf(err, errlen, "bad argument '%s' (profile=PATH, out=PATH, regs=on, l2=off, "
				 "pcprof=on, turns=PATH, cpu_id_offset=N, large=BASE:SIZE, epoch=ADDR, at most %d, "
				 "release=ADDR, at most %d, mhz=N, exit_port=N, handler=START:END)", a, CM_EPOCH_ADDRS_MAX,
				 CM_RELEASE_ADDRS_MAX);
			return -1;
		}
	}
	if (!o->profile_path) {
		snprintf(err, errlen, "the profile=PATH argument is required");
		return -1;
	}
	return 0;
}
