/*
 * cmdline.c — parsing the kernel command line (pure; host-tested).
 *
 * Loaders put the image path in front (QEMU: "build/hako.elf k=v -- cmd"),
 * so words before `--` that have no '=' are ignored.  Text past the
 * buffer and words past CMD_MAX_WORDS are not kept but marked (cut,
 * dropped): options.c refuses such a line.
 */
#include <stdbool.h>
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

/* Whether [from + 1, end) holds a word: the text split_words did not reach. */
static bool more_words(const char *from, const char *end)
{
	for (const char *p = from + 1; p < end; p++)
		if (*p != ' ' && *p != '\t' && *p != '\n')
			return true;
	return false;
}

void cmdline_parse(struct cmdline *cl, const char *text)
{
	char *words[CMD_MAX_WORDS * 2 + 2];
	int max = CMD_MAX_WORDS * 2 + 2;
	memset(cl, 0, sizeof *cl);
	size_t len = strlcpy(cl->buf, text ? text : "", sizeof cl->buf);
	cl->cut = len >= sizeof cl->buf;
	len = strlen(cl->buf);
	int n = split_words(cl->buf, words, max);
	if (n == max)                        /* a word left after the last kept? */
		cl->dropped = more_words(words[n - 1] + strlen(words[n - 1]), cl->buf + len);
	int i = 0;
	for (; i < n && strcmp(words[i], "--") != 0; i++) {
		char *eq = strchr(words[i], '=');
		if (!eq)
			continue;
		if (cl->nopts >= CMD_MAX_WORDS) {
			cl->dropped = true;
			continue;
		}
		*eq = 0;
		cl->opt_key[cl->nopts] = words[i];
		cl->opt_val[cl->nopts++] = eq + 1;
	}
	for (i++; i < n; i++) {
		if (cl->argc == CMD_MAX_WORDS) {
			cl->dropped = true;
			break;
		}
		cl->argv[cl->argc++] = words[i];
	}
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
