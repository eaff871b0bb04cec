/*
 * string.h — memory and string helpers for the freestanding kernel.
 * gcc may emit calls to memcpy/memset/memmove/memcmp itself, so these
 * names are fixed.
 */
#ifndef HAKO_STRING_H
#define HAKO_STRING_H

#include <stddef.h>

void *memset(void *dst, int c, size_t n);
void *memcpy(void *dst, const void *src, size_t n);
void *memmove(void *dst, const void *src, size_t n);
int memcmp(const void *a, const void *b, size_t n);
size_t strlen(const char *s);
size_t strnlen(const char *s, size_t max);
int strcmp(const char *a, const char *b);
int strncmp(const char *a, const char *b, size_t n);
char *strchr(const char *s, int c);
size_t strlcpy(char *dst, const char *src, size_t size);

#endif
