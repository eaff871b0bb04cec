/*
 * user/lib/mem.c — memcpy, memmove, memset, memcmp, memchr.
 *
 * gcc emits calls to the first four itself (struct copies, zeroing), so
 * they must exist.  Word-at-a-time when both sides are aligned.
 * (user.mk builds the library with -fno-tree-loop-distribute-patterns so
 * these loops are not turned back into calls to themselves.)
 */
#include <string.h>
#include <stdint.h>

/* A 64-bit word that may alias anything the caller's bytes hold. */
typedef uint64_t __attribute__((may_alias)) word_t;

static int aligned8(const void *a, const void *b)
{
	return (((uintptr_t)a | (uintptr_t)b) & 7) == 0;
}

void *memcpy(void *dst, const void *src, size_t n)
{
	unsigned char *d = dst;
	const unsigned char *s = src;

	if (aligned8(d, s)) {
		for (; n >= 8; n -= 8, d += 8, s += 8)
			*(word_t *)d = *(const word_t *)s;
	}
	while (n--)
		*d++ = *s++;
	return dst;
}

void *memmove(void *dst, const void *src, size_t n)
{
	unsigned char *d = dst;
	const unsigned char *s = src;

	if (d <= s || d >= s + n)
		return memcpy(dst, src, n);
	while (n--)
		d[n] = s[n];
	return dst;
}

void *memset(void *dst, int c, size_t n)
{
	unsigned char *d = dst;
	uint64_t word = 0x0101010101010101ull * (unsigned char)c;

	for (; n > 0 && ((uintptr_t)d & 7); n--)
		*d++ = (unsigned char)c;
	for (; n >= 8; n -= 8, d += 8)
		*(word_t *)d = word;
	while (n--)
		*d++ = (unsigned char)c;
	return dst;
}

int memcmp(const void *a, const void *b, size_t n)
{
	const unsigned char *x = a, *y = b;

	for (; n > 0; n--, x++, y++) {
		if (*x != *y)
			return *x - *y;
	}
	return 0;
}

void *memchr(const void *s, int c, size_t n)
{
	const unsigned char *p = s;

	for (; n > 0; n--, p++) {
		if (*p == (unsigned char)c)
			return (void *)p;
	}
	return NULL;
}
