/*
 * user/lib/strtol.c — parsing numbers: strtol, strtoul and friends, atoi.
 */
#include <stdlib.h>
#include <ctype.h>
#include <errno.h>
#include <limits.h>

static int digit_value(int c)
{
	if (isdigit(c))
		return c - '0';
	if (c >= 'a' && c <= 'z')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'Z')
		return c - 'A' + 10;
	return 99;
}

/* Skip the "0x" or "0" prefix BASE allows (0 = guess); returns the base. */
static int take_prefix(const char **sp, int base)
{
	const char *s = *sp;
	int hex = s[0] == '0' && (s[1] == 'x' || s[1] == 'X') && isxdigit(s[2]);

	if ((base == 0 || base == 16) && hex) {
		*sp = s + 2;
		return 16;
	}
	if (base == 0)
		return s[0] == '0' ? 8 : 10;
	return base;
}

/* The common part: sign in *NEG, magnitude returned, clamped to MAX
 * with *OVER set when it does not fit (MAX: the result type's, so the
 * long long forms read 64 bits where long has 32). */
static unsigned long long parse(const char *s, char **end, int base, unsigned long long max,
				int *neg, int *over)
{
	const char *start = s;
	unsigned long long v = 0;
	int any = 0, d;

	*neg = *over = 0;
	while (isspace(*s))
		s++;
	if (*s == '+' || *s == '-')
		*neg = *s++ == '-';
	if (base < 0 || base == 1 || base > 36) {
		s = start;
		goto done;
	}
	base = take_prefix(&s, base);
	for (; (d = digit_value((unsigned char)*s)) < base; s++, any = 1) {
		if (v > (max - (unsigned long long)d) / (unsigned long long)base)
			*over = 1;
		else
			v = v * (unsigned long long)base + (unsigned long long)d;
	}
	if (!any)
		s = start;
done:
	if (end != NULL)
		*end = (char *)s;
	return *over ? max : v;
}

unsigned long strtoul(const char *s, char **end, int base)
{
	int neg, over;
	unsigned long v = (unsigned long)parse(s, end, base, ULONG_MAX, &neg, &over);

	if (over) {
		errno = ERANGE;
		return ULONG_MAX;
	}
	return neg ? -v : v;
}

long strtol(const char *s, char **end, int base)
{
	int neg, over;
	unsigned long v = (unsigned long)parse(s, end, base, ULONG_MAX, &neg, &over);
	unsigned long limit = neg ? (unsigned long)LONG_MAX + 1 : (unsigned long)LONG_MAX;

	if (over || v > limit) {
		errno = ERANGE;
		return neg ? LONG_MIN : LONG_MAX;
	}
	return neg ? (long)-v : (long)v;
}

unsigned long long strtoull(const char *s, char **end, int base)
{
	int neg, over;
	unsigned long long v = parse(s, end, base, ULLONG_MAX, &neg, &over);

	if (over) {
		errno = ERANGE;
		return ULLONG_MAX;
	}
	return neg ? -v : v;
}

long long strtoll(const char *s, char **end, int base)
{
	int neg, over;
	unsigned long long v = parse(s, end, base, ULLONG_MAX, &neg, &over);
	unsigned long long limit = neg ? (unsigned long long)LLONG_MAX + 1 : (unsigned long long)LLONG_MAX;

	if (over || v > limit) {
		errno = ERANGE;
		return neg ? LLONG_MIN : LLONG_MAX;
	}
	return neg ? (long long)-v : (long long)v;
}

long atol(const char *s)
{
	return strtol(s, NULL, 10);
}

int atoi(const char *s)
{
	return (int)strtol(s, NULL, 10);
}

int abs(int v)
{
	return v < 0 ? -v : v;
}

long labs(long v)
{
	return v < 0 ? -v : v;
}
