/*
 * user/sh/sh.h — what the shell's files share.
 */
#ifndef HAKO_SH_H
#define HAKO_SH_H

#include <stddef.h>
#include <stdint.h>
#include <hako.h>

#define SH_LINE_MAX  (HAKO_ARG_BYTES + 64)	/* one command line */
#define SH_WORDS_MAX HAKO_ARGV_MAX		/* words in one command */
#define SH_JOBS_MAX  16				/* background children tracked */

/* Raw wait status of the last command (builtins: their exit code). */
extern int sh_last_status;

/* line.c: read one line from the console with echo and editing; returns
 * its length, or -1 if the console failed. */
int sh_read_line(char *buf, size_t size);

/* sh.c: run one command line; returns its raw status. */
int sh_run_line(char *line);

/* builtins.c: run ARGV if it names a builtin, its status in *STATUS;
 * returns 0 if ARGV[0] is no builtin. */
int sh_builtin(int argc, char **argv, int *status);

/* builtins.c: parse a decimal int; 0 and a message if it is not one. */
int sh_parse_int(const char *what, const char *s, int *out);

/* priv.c: "priv LIST CMD ...": 2 (the words to skip) with LIST's mask in
 * *KEEP, -1 (said why) if LIST is wrong, 0 (KEEP all) for any other
 * command; sh_priv_show is the builtin `priv` alone. */
int sh_priv_prefix(int argc, char **argv, uint64_t *keep);
int sh_priv_show(int argc, char **argv);

/* jobs.c: background children. */
int jobs_full(void);
void jobs_add(int pid, const char *name);
void jobs_list(void);
int jobs_wait(int pid);		/* pid -1: all of them; returns the last status */

#endif
