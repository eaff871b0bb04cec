/*
 * user/lib/malloc.c — malloc, free, calloc, realloc on sys_brk, and
 * strdup (the one string function that allocates).
 *
 * The heap is one run of blocks from the initial break up.  Every block
 * starts with a 16-byte header (its size, header included, a multiple of
 * 16); the caller's memory follows it, so it is 16-byte aligned.  Free
 * blocks sit on a list sorted by address: malloc takes the first that is
 * big enough (splitting off the rest), free puts a block back and merges
 * it with free neighbours.  When nothing fits the break moves up by at
 * least HEAP_GROW.  One spinlock guards it all.
 */
#include <stdlib.h>
#include <string.h>
#include <stdint.h>
#include <errno.h>
#include <hako/sys.h>
#include <hako/thread.h>

#define ALIGN 16
#define HEAP_GROW (64u << 10)
#define IN_USE ((struct block *)0xa110ca7edb10c000ull)	/* next of a used block */

struct block {
	size_t size;		/* bytes, this header included */
	struct block *next;	/* next free block by address; IN_USE if used */
} __attribute__((aligned(ALIGN)));	/* 16 bytes where pointers have 4 too */

#define HDR sizeof(struct block)
#define MIN_BLOCK (2 * HDR)

static struct spin heap_lock = SPIN_INIT;
static struct block *free_list;
static uintptr_t heap_end;	/* current break; 0 before the first use */

static size_t round_up(size_t n, size_t to)
{
	return (n + to - 1) & ~(to - 1);
}

/* Put B on the free list in address order, merged with its neighbours. */
static void insert_free(struct block *b)
{
	struct block *prev = NULL, *cur = free_list;

	while (cur != NULL && cur < b) {
		prev = cur;
		cur = cur->next;
	}
	b->next = cur;
	if (cur != NULL && (char *)b + b->size == (char *)cur) {
		b->size += cur->size;
		b->next = cur->next;
	}
	if (prev == NULL) {
		free_list = b;
	} else if ((char *)prev + prev->size == (char *)b) {
		prev->size += b->size;
		prev->next = b->next;
	} else {
		prev->next = b;
	}
}

/* Move the break up by at least NEED bytes; the new space goes on the
 * free list.  Returns 0 or -ENOMEM. */
static int grow(size_t need)
{
	size_t len = round_up(need > HEAP_GROW ? need : HEAP_GROW, 4096);
	long r;
	struct block *b;

	if (heap_end == 0) {
		r = sys_brk(NULL);
		if (r < 0)
			return -ENOMEM;
		heap_end = round_up((uintptr_t)r, ALIGN);
	}
	if (len > HAKO_HEAP_MAX)
		return -ENOMEM;
	r = sys_brk((void *)(heap_end + len));
	if (r < 0 || (uintptr_t)r < heap_end + len)
		return -ENOMEM;
	b = (struct block *)heap_end;
	b->size = len;
	heap_end += len;
	insert_free(b);
	return 0;
}

/* Take a block of SIZE bytes (header included) off the free list. */
static struct block *take(size_t size)
{
	struct block **link = &free_list, *b;

	for (b = free_list; b != NULL; link = &b->next, b = b->next) {
		if (b->size < size)
			continue;
		if (b->size - size >= MIN_BLOCK) {
			struct block *rest = (struct block *)((char *)b + size);
			rest->size = b->size - size;
			rest->next = b->next;
			*link = rest;
			b->size = size;
		} else {
			*link = b->next;
		}
		b->next = IN_USE;
		return b;
	}
	return NULL;
}

/* Block size for a request of N bytes; 0 if N is absurd. */
static size_t block_size(size_t n)
{
	if (n > HAKO_HEAP_MAX)
		return 0;
	n = round_up(n + HDR, ALIGN);
	return n < MIN_BLOCK ? MIN_BLOCK : n;
}

void *malloc(size_t n)
{
	size_t size = block_size(n);
	struct block *b = NULL;

	if (size == 0) {
		errno = ENOMEM;
		return NULL;
	}
	spin_lock(&heap_lock);
	b = take(size);
	if (b == NULL && grow(size) == 0)
		b = take(size);
	spin_unlock(&heap_lock);
	if (b == NULL) {
		errno = ENOMEM;
		return NULL;
	}
	return b + 1;
}

static struct block *header_of(void *p)
{
	struct block *b = (struct block *)p - 1;

	if (((uintptr_t)p & (ALIGN - 1)) != 0 || b->next != IN_USE) {
		sys_write("free: bad pointer or double free\n", 33);
		abort();
	}
	return b;
}

void free(void *p)
{
	struct block *b;

	if (p == NULL)
		return;
	b = header_of(p);
	spin_lock(&heap_lock);
	insert_free(b);
	spin_unlock(&heap_lock);
}

void *calloc(size_t n, size_t size)
{
	void *p;

	if (size != 0 && n > HAKO_HEAP_MAX / size) {
		errno = ENOMEM;
		return NULL;
	}
	p = malloc(n * size);
	if (p != NULL)
		memset(p, 0, n * size);
	return p;
}

void *realloc(void *p, size_t n)
{
	struct block *b;
	size_t have;
	void *q;

	if (p == NULL)
		return malloc(n);
	if (n == 0) {
		free(p);
		return NULL;
	}
	b = header_of(p);
	have = b->size - HDR;
	if (n <= have)
		return p;
	q = malloc(n);
	if (q != NULL) {
		memcpy(q, p, have);
		free(p);
	}
	return q;
}

char *strdup(const char *s)
{
	size_t n = strlen(s) + 1;
	char *p = malloc(n);

	if (p != NULL)
		memcpy(p, s, n);
	return p;
}
