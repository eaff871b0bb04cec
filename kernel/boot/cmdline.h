/*
 * cmdline.h — the kernel command line: `key=value` options, then `--`,
 * then the command to run (e.g. `tick=5ms -- ktest sched`).
 */
#ifndef HAKO_CMDLINE_H
#define HAKO_CMDLINE_H

#include <stdbool.h>
#include <stdint.h>

#define CMD_MAX_WORDS 32

struct cmdline {
	char buf[1024];              /* BOOT_CMDLINE_MAX */
	int nopts;
	char *opt_key[CMD_MAX_WORDS], *opt_val[CMD_MAX_WORDS];
	int argc;
	char *argv[CMD_MAX_WORDS];
	bool cut;                    /* the text did not fit buf: the rest is lost */
	bool dropped;                /* more options or arguments than CMD_MAX_WORDS */
};

extern struct cmdline kcmdline;

/* Split text into options and the command; what does not fit is marked
 * (cut, dropped) for options_check to refuse. */
void cmdline_parse(struct cmdline *cl, const char *text);
const char *cmdline_get(const struct cmdline *cl, const char *key);   /* NULL if absent */
/* "10ms", "500us", "2s", "1000000" (ns) -> ns; -1 on a bad value. */
int64_t parse_duration_ns(const char *s);
int split_words(char *s, char **words, int max);

#endif
