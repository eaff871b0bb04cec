/*
 * user/lib/args.c — "--name VALUE" / "--name=VALUE" options (hako/args.h).
 */
#include <stdio.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <hako/args.h>
#include <hako/sys.h>

static void bad_value(const char *name, const char *value)
{
	if (value == NULL)
		printf("%s: %s needs a value\n", prog_name(), name);
	else
		printf("%s: bad value for %s: '%s'\n", prog_name(), name, value);
	exit(2);
}

/* Find option NAME: 1 if present, with *VALUE its value (or NULL). */
static int find(int argc, char **argv, const char *name, const char **value)
{
	size_t n = strlen(name);

	for (int i = 1; i < argc; i++) {
		if (strcmp(argv[i], name) == 0) {
			*value = i + 1 < argc ? argv[i + 1] : NULL;
			return 1;
		}
		if (strncmp(argv[i], name, n) == 0 && argv[i][n] == '=') {
			*value = argv[i] + n + 1;
			return 1;
		}
	}
	return 0;
}

const char *arg_str(int argc, char **argv, const char *name, const char *def)
{
	const char *value;

	if (!find(argc, argv, name, &value))
		return def;
	if (value == NULL)
		bad_value(name, NULL);
	return value;
}

/* The k/m/g suffix's shift, or -1 for anything else. */
static int suffix_shift(const char *s)
{
	if (s[0] == '\0')
		return 0;
	if (s[1] != '\0')
		return -1;
	switch (s[0]) {
	case 'k': case 'K': return 10;
	case 'm': case 'M': return 20;
	case 'g': case 'G': return 30;
	}
	return -1;
}

long arg_int(int argc, char **argv, const char *name, long def)
{
	const char *value = arg_str(argc, argv, name, NULL);
	char *end;
	long v;
	int shift;

	if (value == NULL)
		return def;
	errno = 0;
	v = strtol(value, &end, 0);
	shift = suffix_shift(end);
	if (end == value || shift < 0 || errno == ERANGE)
		bad_value(name, value);
	if (v > (__LONG_MAX__ >> shift) || v < -(__LONG_MAX__ >> shift))
		bad_value(name, value);
	return v * (1L << shift);
}

int arg_flag(int argc, char **argv, const char *name)
{
	const char *value;

	return find(argc, argv, name, &value);
}

void arg_help(int argc, char **argv, const char *usage)
{
	if (argc < 2)
		return;
	const char *w = argv[1];
	if (strcmp(w, "-h") == 0 || strcmp(w, "--help") == 0 || strcmp(w, "help") == 0) {
		printf("%s", usage);
		exit(0);
	}
	if (w[0] == '-') {
		printf("%s: %s: no such option\n%s", prog_name(), w, usage);
		exit(2);
	}
}
