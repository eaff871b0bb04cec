/*
 * hako/result.h — result records for the harness.
 *
 * result_line("{\"name\":\"%s\",\"value\":%lu}", ...) prints "@@ ", the
 * formatted text and "\n" in one console write; the harness stores every
 * line starting with "@@ " as a JSON record.  The text must be JSON:
 * strings passed through %s are not escaped (see json_quote).
 */
#ifndef _HAKO_RESULT_H
#define _HAKO_RESULT_H

#include <stddef.h>

void result_line(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Copy S into BUF as a JSON string literal, quotes included, truncated to
 * fit SIZE; returns BUF (for use as a %s argument). */
char *json_quote(char *buf, size_t size, const char *s);

#endif
