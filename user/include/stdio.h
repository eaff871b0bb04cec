/*
 * stdio.h — formatted output to the console.
 *
 * There are no FILEs: everything goes to the console with sys_write, and
 * each printf/puts call is one write, so lines from different processes
 * and threads never mix (the kernel takes at most 4096 bytes per write:
 * longer text arrives whole, but in several writes).
 *
 * Formats: %d %i %u %x %X %o %s %c %p %%, the hh/h/l/ll/z/j/t sizes, a
 * width or '*', the flags '-' '0' '+' ' ', a precision ('.N' or '.*')
 * for strings and integers.
 */
#ifndef _HAKO_STDIO_H
#define _HAKO_STDIO_H

#include <stdarg.h>
#include <stddef.h>

#define EOF (-1)

int printf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
int vprintf(const char *fmt, va_list ap) __attribute__((format(printf, 1, 0)));
int snprintf(char *buf, size_t size, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
int vsnprintf(char *buf, size_t size, const char *fmt, va_list ap)
	__attribute__((format(printf, 3, 0)));
int puts(const char *s);
int putchar(int c);

#endif
