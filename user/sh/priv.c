/*
 * user/sh/priv.c — the shell's `priv` command: show the shell's
 * privileges, or start a program holding fewer (uapi/hako_priv.h).
 *
 *     priv                     the privileges the shell holds
 *     priv LIST CMD [ARGS]     run CMD holding only LIST: `none`, `all`, or
 *                              names joined by commas (devctl,intr,drvproc,
 *                              measure,sched,ipc); never more than the shell's
 */
#include <stdio.h>
#include <string.h>
#include <hako/sys.h>
#include "sh.h"

static const struct {
	const char *name;
	uint64_t bit;
} privs[] = {
	{ "devctl", HAKO_PRIV_DEVCTL },
	{ "intr", HAKO_PRIV_INTR },
	{ "drvproc", HAKO_PRIV_DRVPROC },
	{ "measure", HAKO_PRIV_MEASURE },
	{ "sched", HAKO_PRIV_SCHED },
	{ "ipc", HAKO_PRIV_IPC },
};
#define NPRIVS (sizeof privs / sizeof privs[0])

/* One name of LIST (LEN bytes): its bit, or 0 if it names none. */
static uint64_t bit_of(const char *name, size_t len)
{
	for (size_t i = 0; i < NPRIVS; i++)
		if (strlen(privs[i].name) == len && strncmp(privs[i].name, name, len) == 0)
			return privs[i].bit;
	return 0;
}

/* LIST as a mask in *out; 0 and a message if a name is unknown. */
static int parse_list(const char *list, uint64_t *out)
{
	if (strcmp(list, "none") == 0 || strcmp(list, "all") == 0) {
		*out = list[0] == 'n' ? HAKO_PRIV_NONE : HAKO_PRIV_ALL;
		return 1;
	}
	uint64_t mask = 0;
	for (const char *p = list; *p;) {
		const char *comma = strchr(p, ',');
		size_t len = comma ? (size_t)(comma - p) : strlen(p);
		uint64_t bit = bit_of(p, len);
		if (!bit) {
			printf("sh: priv: no privilege %.*s (none, all, or of:", (int)len, p);
			for (size_t i = 0; i < NPRIVS; i++)
				printf(" %s", privs[i].name);
			printf(")\n");
			return 0;
		}
		mask |= bit;
		p += len + (comma ? 1 : 0);
	}
	*out = mask;
	return 1;
}

int sh_priv_prefix(int argc, char **argv, uint64_t *keep)
{
	*keep = HAKO_PRIV_ALL;
	if (argc < 3 || strcmp(argv[0], "priv") != 0)
		return 0;
	return parse_list(argv[1], keep) ? 2 : -1;
}

int sh_priv_show(int argc, char **argv)
{
	if (argc != 1) {
		printf("usage: priv [LIST CMD [ARGS]]\n");
		return 1;
	}
	(void)argv;
	long held = sys_priv_get();
	printf("privileges:");
	for (size_t i = 0; i < NPRIVS; i++)
		if (held & (long)privs[i].bit)
			printf(" %s", privs[i].name);
	printf(held ? "\n" : " none\n");
	return 0;
}
