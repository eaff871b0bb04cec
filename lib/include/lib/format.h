/*
 * lib/format.h — the printf formatter of the shared library
 * (lib/format.c): text into a bounded buffer.  The kernel's kprintf and
 * the user library's printf format with it and only add where the text
 * goes.
 *
 * Formats: %d %i %u %x %X %o %s %c %p %%; the sizes hh h l ll z j t; the
 * flags '-' '0' '+' ' '; a width and a precision, as digits or '*' (a
 * negative '*' width means '-', a negative precision none).  %p is 0x and
 * hex digits (the 0 flag pads the digits: %018p shows 16 of them); %s of
 * NULL is "(null)".  'l' is C's long, except in the kernel (built with
 * HAKO_FORMAT_L64), where it is 64 bits on every arch.  An unknown conversion is printed as written, a '%'
 * at the very end not at all.
 *
 * Output that does not fit is cut off and the buffer always terminated
 * (if size > 0); the return value is the length the whole output would
 * have had, as in C99.
 */
#ifndef HAKO_LIB_FORMAT_H
#define HAKO_LIB_FORMAT_H

#include <stdarg.h>
#include <stddef.h>

int vsnprintf(char *buf, size_t size, const char *fmt, va_list ap)
	__attribute__((format(printf, 3, 0)));
int snprintf(char *buf, size_t size, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

#endif
