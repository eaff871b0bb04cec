/*
 * kprintf.h — formatted output to the console, and into buffers.
 *
 * Formats: %d %i %u %x %X %o %c %s %p %% with flags '-', '0', width,
 * precision for %s, and length modifiers l, ll, z.
 */
#ifndef HAKO_KPRINTF_H
#define HAKO_KPRINTF_H

#include <stdarg.h>
#include <stddef.h>

int kvsnprintf(char *buf, size_t size, const char *fmt, va_list ap);
int ksnprintf(char *buf, size_t size, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
int kprintf(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
int kvprintf(const char *fmt, va_list ap);

#endif
