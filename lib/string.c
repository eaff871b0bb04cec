/*
 * string.c — byte and string routines, plain C: the kernel has no SSE,
 * and the same code serves the kernel, the user library and the host
 * tests (no globals, no allocation: strdup stays in the user library).
 *
 * gcc emits calls to memcpy, memset, memmove and memcmp itself, so the
 * loops below must not be turned back into calls to themselves
 * (-fno-tree-loop-distribute-patterns where gcc would).  memset and
 * memcpy move 8 bytes at a time while both sides are aligned.
 */
#include <stdint.h>
#include <lib/string.h>

/* A 64-bit word that may alias whatever the caller's bytes hold. */
typedef uint64_t __attribute__((may_alias)) word_t;

void *memset(void *dst, int c, size_t n)
{
	unsigned char *d = dst;
	uint64_t pattern = 0x0101010101010101ull * (unsigned char)c;
	while (n && ((uintptr_t)d & 7))
		*d++ = (unsigned char)c, n--;
	for (; n >= 8; d += 8, n -= 8)
		*(word_t *)d = pattern;
	while (n--)
		*d++ = (unsigned char)c;
	return dst;
}

void *memcpy(void *dst, const void *src, size_t n)
{
	unsigned char *d = dst;
	const unsigned char *s = src;
	while (n >= 8 && (((uintptr_t)d | (uintptr_t)s) & 7) == 0) {
		*(word_t *)d = *(const word_t *)s;
		d += 8, s += 8, n -= 8;
	}
	while (n--)
		*d++ = *s++;
	return dst;
}

void *memmove(void *dst, const void *src, size_t n)
{
	unsigned char *d = dst;
	const unsigned char *s = src;
	if (d == s || n == 0)
		return dst;
	if (d < s)
		return memcpy(dst, src, n);
	while (n--)
		d[n] = s[n];
	return dst;
}

int memcmp(const void *a, const void *b, size_t n)
{
	const unsigned char *x = a, *y = b;
	for (; n; n--, x++, y++)
		if (*x != *y)
			return *x - *y;
	return 0;
}

void *memchr(const void *s, int c, size_t n)
{
	const unsigned char *p = s;
	for (; n; n--, p++)
		if (*p == (unsigned char)c)
			return (void *)p;
	return NULL;
}

size_t strlen(const char *s)
{
	size_t n = 0;
	while (s[n])
		n++;
	return n;
}

size_t strnlen(const char *s, size_t max)
{
	size_t n = 0;
	while (n < max && s[n])
		n++;
	return n;
}

int strcmp(const char *a, const char *b)
{
	while (*a && *a == *b)
		a++, b++;
	return (unsigned char)*a - (unsigned char)*b;
}

int strncmp(const char *a, const char *b, size_t n)
{
	for (; n; n--, a++, b++) {
		if (*a != *b)
			return (unsigned char)*a - (unsigned char)*b;
		if (!*a)
			return 0;
	}
	return 0;
}

char *strchr(const char *s, int c)
{
	for (; *s; s++)
		if (*s == (char)c)
			return (char *)s;
	return (char)c == 0 ? (char *)s : NULL;
}

char *strrchr(const char *s, int c)
{
	const char *last = NULL;
	for (;; s++) {
		if (*s == (char)c)
			last = s;
		if (!*s)
			return (char *)last;
	}
}

char *strstr(const char *hay, const char *needle)
{
	size_t n = strlen(needle);
	for (; *hay; hay++)
		if (strncmp(hay, needle, n) == 0)
			return (char *)hay;
	return n == 0 ? (char *)hay : NULL;
}

size_t strspn(const char *s, const char *accept)
{
	size_t n = 0;
	while (s[n] && strchr(accept, s[n]))
		n++;
	return n;
}

size_t strcspn(const char *s, const char *reject)
{
	size_t n = 0;
	while (s[n] && !strchr(reject, s[n]))
		n++;
	return n;
}

char *strcpy(char *dst, const char *src)
{
	char *d = dst;
	while ((*d++ = *src++))
		;
	return dst;
}

/* C's strncpy: pads with NULs, does not terminate when src is too long. */
char *strncpy(char *dst, const char *src, size_t n)
{
	size_t i = 0;
	for (; i < n && src[i]; i++)
		dst[i] = src[i];
	for (; i < n; i++)
		dst[i] = 0;
	return dst;
}

char *strcat(char *dst, const char *src)
{
	strcpy(dst + strlen(dst), src);
	return dst;
}

/* Copy at most size-1 bytes and always terminate; returns strlen(src). */
size_t strlcpy(char *dst, const char *src, size_t size)
{
	size_t len = strlen(src);
	if (size) {
		size_t n = len < size - 1 ? len : size - 1;
		memcpy(dst, src, n);
		dst[n] = 0;
	}
	return len;
}

/* Append within size bytes, always terminated; returns the length it tried to make. */
size_t strlcat(char *dst, const char *src, size_t size)
{
	size_t have = strnlen(dst, size);
	if (have == size)
		return size + strlen(src);
	return have + strlcpy(dst + have, src, size - have);
}

/* Split s at any of delim; *save remembers where to go on (s = NULL then). */
char *strtok_r(char *s, const char *delim, char **save)
{
	if (!s)
		s = *save;
	if (!s)
		return NULL;
	s += strspn(s, delim);
	if (!*s) {
		*save = NULL;
		return NULL;
	}
	char *end = s + strcspn(s, delim);
	if (*end) {
		*end = 0;
		*save = end + 1;
	} else {
		*save = NULL;
	}
	return s;
}
