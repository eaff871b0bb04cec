/*
 * kprintf.h — formatted output to the console, and into buffers.
 *
 * The formatting is the shared library's (lib/format.c; the formats are
 * listed in lib/format.h); kprintf adds the console (console.c).
 */
#ifndef HAKO_KPRINTF_H
#define HAKO_KPRINTF_H

#include <stdarg.h>
#include <stddef.h>
#include <lib/format.h>

/* The kernel's names for the shared formatter. */
#define kvsnprintf vsnprintf
#define ksnprintf  snprintf

int kprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
int kvprintf(const char *fmt, va_list ap);

#endif
