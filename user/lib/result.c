/*
 * user/lib/result.c — "@@ " JSON result lines for the harness
 * (hako/result.h).
 */
#include <stdio.h>
#include <hako/result.h>
#include "libc.h"

void result_line(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	__print_framed("@@ ", fmt, ap, "\n");
	va_end(ap);
}

/* Append LEN bytes of S at BUF[*N] if room is left for the closing quote
 * and the NUL; 0 if not. */
static int add(char *buf, size_t size, size_t *n, const char *s, size_t len)
{
	if (*n + len + 2 > size)
		return 0;
	for (size_t i = 0; i < len; i++)
		buf[(*n)++] = s[i];
	return 1;
}

char *json_quote(char *buf, size_t size, const char *s)
{
	static const char hex[] = "0123456789abcdef";
	size_t n = 0;

	if (size < 3) {
		if (size > 0)
			buf[0] = '\0';
		return buf;
	}
	buf[n++] = '"';
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;
		char esc[6] = { '\\', 'u', '0', '0', hex[c >> 4], hex[c & 15] };
		char two[2] = { '\\', (char)c };
		int ok;

		if (c == '"' || c == '\\')
			ok = add(buf, size, &n, two, 2);
		else if (c < 0x20)
			ok = add(buf, size, &n, esc, 6);
		else
			ok = add(buf, size, &n, (const char *)&c, 1);
		if (!ok)
			break;
	}
	buf[n++] = '"';
	buf[n] = '\0';
	return buf;
}
