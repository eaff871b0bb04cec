/*
 * user/lib/libc.h — what the library's own files share.  Not for programs.
 */
#ifndef _HAKO_LIBC_PRIVATE_H
#define _HAKO_LIBC_PRIVATE_H

#include <stdarg.h>
#include <stddef.h>

/* Write LEN bytes to the console, retrying short writes. */
void __console_write(const char *buf, size_t len);

/* Format HEAD FMT... TAIL and write it with one console write; returns
 * the number of bytes written. */
int __print_framed(const char *head, const char *fmt, va_list ap, const char *tail)
	__attribute__((format(printf, 2, 0)));

#endif
