/*
 * stdio.h — formatted output to the console.
 *
 * There are no FILEs: everything goes to the console with sys_write, and
 * each printf/puts call is one write, so lines from different processes
 * and threads never mix (the kernel takes at most 4096 bytes per write:
 * longer text arrives whole, but in several writes).
 *
 * snprintf and vsnprintf are the shared library's formatter (lib/format.c;
 * the formats are listed in lib/format.h); printf formats with it too.
 */
#ifndef _HAKO_STDIO_H
#define _HAKO_STDIO_H

#include <stdarg.h>
#include <stddef.h>
#include <lib/format.h>

#define EOF (-1)

int printf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
int vprintf(const char *fmt, va_list ap) __attribute__((format(printf, 1, 0)));
int puts(const char *s);
int putchar(int c);

#endif
