/*
 * user/sh/sh.c — the Hako shell: prompt, split, run.
 *
 *     sh              interactive: prompt "hako$ ", one command per line
 *     sh -c WORDS...  run that one command line, exit with its status
 *
 * A command is a builtin (see `help`) or the name of a program in the
 * boot archive, started with the words as its argv and waited for; a
 * trailing `&` runs it in the background (reaped by the `wait` builtin);
 * `priv LIST` in front starts it holding fewer privileges (priv.c).
 * Words are separated by spaces; there is no quoting.
 */
#include <stdio.h>
#include <string.h>
#include <errno.h>
#include <hako/sys.h>
#include "sh.h"

#define PROMPT "hako$ "
#define STATUS_NOT_FOUND 127
#define STATUS_CANNOT_RUN 126

int sh_last_status;

/* Split LINE in place at spaces; returns the word count, or -1 if more
 * than MAX. */
static int split(char *line, char **words, int max)
{
	char *save = NULL, *w;
	int n = 0;

	for (w = strtok_r(line, " \t", &save); w != NULL; w = strtok_r(NULL, " \t", &save)) {
		if (n == max)
			return -1;
		words[n++] = w;
	}
	return n;
}

/* A trailing "&" word, or '&' glued to the last word: remove it, say so. */
static int take_background(int *argc, char **argv)
{
	char *last = argv[*argc - 1];
	size_t len = strlen(last);

	if (last[len - 1] != '&')
		return 0;
	if (len == 1)
		(*argc)--;
	else
		last[len - 1] = '\0';
	argv[*argc] = NULL;
	return 1;
}

/* After a foreground command: say how it ended if not cleanly. */
static void report(int status)
{
	if (HAKO_WIFKILLED(status))
		printf("killed (cause %d)\n", HAKO_WCAUSE(status));
	else if (status != 0)
		printf("(status %d)\n", status);
}

/* Start ARGV holding the shell's privileges ANDed with KEEP; wait unless BACKGROUND. */
static int run_program(char **argv, int background, uint64_t keep)
{
	int pid, status = 0;

	if (background && jobs_full()) {
		printf("sh: too many background jobs (use wait)\n");
		return 1;
	}
	pid = (int)sys_spawn_priv(argv[0], argv, keep);
	if (pid == -ENOENT) {
		printf("sh: %s: not found\n", argv[0]);
		return STATUS_NOT_FOUND;
	}
	if (pid < 0) {
		printf("sh: %s: %s\n", argv[0], strerror(-pid));
		return STATUS_CANNOT_RUN;
	}
	if (background) {
		jobs_add(pid, argv[0]);
		printf("[%d]\n", pid);
		return 0;
	}
	if (waitpid(pid, &status) < 0) {
		printf("sh: lost child %d\n", pid);
		return STATUS_CANNOT_RUN;
	}
	report(status);
	return status;
}

int sh_run_line(char *line)
{
	char *argv[SH_WORDS_MAX + 1];
	int argc = split(line, argv, SH_WORDS_MAX);
	int background, status;

	if (argc < 0) {
		printf("sh: more than %d words\n", SH_WORDS_MAX);
		return sh_last_status = 1;
	}
	if (argc == 0)
		return sh_last_status;
	argv[argc] = NULL;
	background = take_background(&argc, argv);
	if (argc == 0)
		return sh_last_status;
	uint64_t keep;
	int skip = sh_priv_prefix(argc, argv, &keep);
	if (skip < 0)
		return sh_last_status = 1;
	if (skip > 0)
		status = run_program(argv + skip, background, keep);
	else if (!sh_builtin(argc, argv, &status))
		status = run_program(argv, background, keep);
	sh_last_status = status;
	return status;
}

/* An exit code for a raw status: a kill is 128 + its cause. */
static int exit_code(int status)
{
	if (HAKO_WIFKILLED(status))
		return 128 + HAKO_WCAUSE(status);
	return HAKO_WEXITCODE(status);
}

/* sh -c WORDS...: join the words (one may hold several) and run them. */
static int run_words(int argc, char **argv)
{
	static char line[SH_LINE_MAX];
	size_t len = 0;

	for (int i = 0; i < argc; i++) {
		len += strlcpy(line + len, argv[i], sizeof(line) - len);
		if (len + 1 >= sizeof(line)) {
			printf("sh: -c: command too long\n");
			return 2;
		}
		line[len++] = ' ';
		line[len] = '\0';
	}
	return exit_code(sh_run_line(line));
}

int main(int argc, char **argv)
{
	static char line[SH_LINE_MAX];

	if (argc >= 2 && strcmp(argv[1], "-c") == 0) {
		if (argc == 2) {
			printf("sh: -c needs a command\n");
			return 2;
		}
		return run_words(argc - 2, argv + 2);
	}
	if (argc > 1) {
		printf("usage: sh [-c command words...]\n");
		return 2;
	}
	for (;;) {
		printf(PROMPT);
		if (sh_read_line(line, sizeof(line)) < 0) {
			printf("sh: console read failed\n");
			return 1;
		}
		sh_run_line(line);
	}
}
