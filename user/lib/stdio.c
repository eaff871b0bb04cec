/*
 * user/lib/stdio.c — console output: printf, vprintf, puts, putchar.
 *
 * Each call formats into a buffer (the stack, or the heap for long text)
 * and hands it to the kernel with one sys_write, so the text of one call
 * is never interleaved with other writers.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <hako/sys.h>
#include "libc.h"

#define SMALL_OUT 512

void __console_write(const char *buf, size_t len)
{
	while (len > 0) {
		long n = sys_write(buf, len);
		if (n <= 0)
			return;
		buf += n;
		len -= (size_t)n;
	}
}

/* HEAD, then FMT formatted, then TAIL into BUF of SIZE bytes; returns the
 * length the whole needs (possibly more than fits). */
static size_t format_framed(char *buf, size_t size, const char *head,
			    const char *fmt, va_list ap, const char *tail)
{
	size_t hl = strlen(head), tl = strlen(tail), body;

	if (hl < size)
		memcpy(buf, head, hl);
	body = (size_t)vsnprintf(hl < size ? buf + hl : NULL,
				 hl < size ? size - hl : 0, fmt, ap);
	if (hl + body + tl < size)
		memcpy(buf + hl + body, tail, tl + 1);
	return hl + body + tl;
}

int __print_framed(const char *head, const char *fmt, va_list ap, const char *tail)
{
	char small[SMALL_OUT];
	char *big;
	size_t len;
	va_list aq;

	va_copy(aq, ap);
	len = format_framed(small, sizeof(small), head, fmt, aq, tail);
	va_end(aq);
	if (len < sizeof(small)) {
		__console_write(small, len);
		return (int)len;
	}
	big = malloc(len + 1);
	if (big == NULL) {		/* no memory: print what fitted */
		__console_write(small, sizeof(small) - 1);
		return (int)sizeof(small) - 1;
	}
	va_copy(aq, ap);
	format_framed(big, len + 1, head, fmt, aq, tail);
	va_end(aq);
	__console_write(big, len);
	free(big);
	return (int)len;
}

int vprintf(const char *fmt, va_list ap)
{
	return __print_framed("", fmt, ap, "");
}

int printf(const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vprintf(fmt, ap);
	va_end(ap);
	return n;
}

int puts(const char *s)
{
	return printf("%s\n", s);
}

int putchar(int c)
{
	char ch = (char)c;

	__console_write(&ch, 1);
	return (unsigned char)ch;
}
