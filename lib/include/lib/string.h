/*
 * lib/string.h — the byte and string routines of the shared library
 * (lib/string.c), the same code in the kernel, in libhako.a and in the
 * host tests.  Each side's <string.h> includes this one.
 *
 * gcc may emit calls to memcpy, memset, memmove and memcmp itself, so
 * those names are fixed.
 */
#ifndef HAKO_LIB_STRING_H
#define HAKO_LIB_STRING_H

#include <stddef.h>

void *memset(void *dst, int c, size_t n);
void *memcpy(void *dst, const void *src, size_t n);
void *memmove(void *dst, const void *src, size_t n);
int memcmp(const void *a, const void *b, size_t n);
void *memchr(const void *s, int c, size_t n);

size_t strlen(const char *s);
size_t strnlen(const char *s, size_t max);
int strcmp(const char *a, const char *b);
int strncmp(const char *a, const char *b, size_t n);
char *strchr(const char *s, int c);
char *strrchr(const char *s, int c);
char *strstr(const char *hay, const char *needle);
size_t strspn(const char *s, const char *accept);
size_t strcspn(const char *s, const char *reject);
char *strcpy(char *dst, const char *src);
char *strncpy(char *dst, const char *src, size_t n);
char *strcat(char *dst, const char *src);
size_t strlcpy(char *dst, const char *src, size_t size);
size_t strlcat(char *dst, const char *src, size_t size);
char *strtok_r(char *s, const char *delim, char **save);

#endif
