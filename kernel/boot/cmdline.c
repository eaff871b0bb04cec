/*
 * cmdline.c — parsing the kernel command line (pure; host-tested).
 *
 * Loaders put the image path in front (QEMU: "build/hako.elf k=v -- cmd"),
 * so words before `--` that have no '=' are ignored.
 */
#include <stdint.h>
#include <string.h>
#include <cmdline.h>

struct cmdline kcmdline;

int split_words(char *s, char **words, int max)
{
	int n = 0;
	while (*s && n < max) {
		while (*s == ' ' || *s == '\t' || *s == '\n')
			*s++ = 0;
		if (!*s)
			break;
		words[n++] = s;
		while (*s && *s != ' ' && *s != '\t' && *s != '\n')
			s++;
		if (*s)
			*s++ = 0;
	}
	return n;
}

void cmdline_parse(struct cmdline *cl, const char *text)
{
	char *words[CMD_MAX_WORDS * 2];
	memset(cl, 0, sizeof *cl);
	strlcpy(cl->buf, text ? text : "", sizeof cl->buf);
	int n = split_words(cl->buf, words, CMD_MAX_WORDS * 2);
	int i = 0;
	for (; i < n && strcmp(words[i], "--") != 0; i++) {
		char *eq = strchr(words[i], '=');
		if (!eq || cl->nopts >= CMD_MAX_WORDS)
			continue;
		*eq = 0;
		cl->opt_key[cl->nopts] = words[i];
		cl->opt_val[cl->nopts++] = eq + 1;
	}
	for (i++; i < n && cl->argc < CMD_MAX_WORDS; i++)
		cl->argv[cl->argc++] = words[i];
}

const char *cmdline_get(const struct cmdline *cl, const char *key)
{
	for (int i = cl->nopts - 1; i >= 0; i--)
		if (strcmp(cl->opt_key[i], key) == 0)
			return cl->opt_val[i];
	return NULL;
}

int64_t parse_duration_ns(const char *s)
{
	if (!s || !*s)
		return -1;
	int64_t v = 0;
	const char *p = s;
	for (; *p >= '0' && *p <= '9'; p++) {
		if (v > (INT64_MAX - 9) / 10)
			return -1;
		v = v * 10 + (*p - '0');
	}
	if (p == s)
		return -1;
	int64_t mul = strcmp(p, "s") == 0 ? 1000000000 : strcmp(p, "ms") == 0 ? 1000000 :
		      strcmp(p, "us") == 0 ? 1000 : (strcmp(p, "ns") == 0 || !*p) ? 1 : -1;
	if (mul < 0 || v > INT64_MAX / mul)
		return -1;
	return v * mul;
}
