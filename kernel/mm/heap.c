/*
 * heap.c — slab pages for small objects, frame runs for big ones.
 *
 * Every heap page starts with a struct page_hdr.  kfree() rounds the
 * pointer down to its page and reads the header: a slab page returns the
 * object to its free list (and the page to the frame allocator when it
 * empties); a large block returns all its frames.
 */
#include <stdint.h>
#include <string.h>
#include <heap.h>
#include <list.h>
#include <panic.h>
#include <pmm.h>
#include <spinlock.h>
#include <arch/arch.h>

#define SLAB_MAGIC  0x51ab51ab
#define LARGE_MAGIC 0x1a26e000
#define NCLASSES    7                  /* 32, 64, ..., 2048 bytes */
#define HDR_SIZE    64                 /* keeps objects 64-byte aligned */

struct page_hdr {
	uint32_t magic;
	uint32_t class_or_pages;           /* slab: size class; large: frame count */
	uint32_t nfree;                    /* slab: free objects in this page */
	uint32_t pad;
	void *free_list;                   /* slab: first free object */
	struct list_node link;             /* slab: in its class's partial list */
};

struct size_class {
	uint32_t size;
	struct list_node partial;          /* pages with at least one free object */
};

static struct size_class classes[NCLASSES];
static struct spinlock heap_lock = SPINLOCK_INIT("heap", LOCK_HEAP);
void heap_init(void)
{
	for (int i = 0; i < NCLASSES; i++) {
		classes[i].size = 32u << i;
		list_init(&classes[i].partial);
	}
}

static uint32_t objects_per_page(uint32_t size) { return (PAGE_SIZE - HDR_SIZE) / size; }

static struct page_hdr *new_slab(int cls)
{
	uint64_t pa = pmm_alloc();
	if (!pa)
		return NULL;
	struct page_hdr *h = phys_to_virt(pa);
	uint32_t size = classes[cls].size, n = objects_per_page(size);
	h->magic = SLAB_MAGIC;
	h->class_or_pages = cls;
	h->nfree = n;
	h->free_list = NULL;
	for (uint32_t i = n; i-- > 0;) {
		void **obj = (void **)((char *)h + HDR_SIZE + i * size);
		*obj = h->free_list;
		h->free_list = obj;
	}
	list_push_front(&classes[cls].partial, &h->link);
	return h;
}

static void *slab_alloc(int cls)
{
	struct size_class *sc = &classes[cls];
	struct page_hdr *h;
	if (list_empty(&sc->partial)) {
		h = new_slab(cls);
		if (!h)
			return NULL;
	} else {
		h = list_entry(sc->partial.next, struct page_hdr, link);
	}
	void **obj = h->free_list;
	h->free_list = *obj;
	if (--h->nfree == 0)
		list_remove(&h->link);
	return obj;
}

static void slab_free(struct page_hdr *h, void *p)
{
	*(void **)p = h->free_list;
	h->free_list = p;
	if (h->nfree++ == 0)
		list_push_front(&classes[h->class_or_pages].partial, &h->link);
	if (h->nfree == objects_per_page(classes[h->class_or_pages].size)) {
		list_remove(&h->link);
		h->magic = 0;
		pmm_free(virt_to_phys(h));
	}
}

static void *large_alloc(size_t size)
{
	uint64_t pages = (size + HDR_SIZE + PAGE_SIZE - 1) / PAGE_SIZE;
	uint64_t pa = pmm_alloc_contig(pages, 1);
	if (!pa)
		return NULL;
	struct page_hdr *h = phys_to_virt(pa);
	h->magic = LARGE_MAGIC;
	h->class_or_pages = pages;
	return (char *)h + HDR_SIZE;
}

void *kmalloc(size_t size)
{
	if (size == 0 || size > (1ull << 30))
		return NULL;
	if (size > classes[NCLASSES - 1].size)
		return large_alloc(size);
	int cls = 0;
	while (classes[cls].size < size)
		cls++;
	spin_lock(&heap_lock);
	void *p = slab_alloc(cls);
	spin_unlock(&heap_lock);
	return p;
}

void *kzalloc(size_t size)
{
	void *p = kmalloc(size);
	if (p)
		memset(p, 0, size);
	return p;
}

void kfree(void *p)
{
	if (!p)
		return;
	struct page_hdr *h = (struct page_hdr *)((uint64_t)p & ~(uint64_t)(PAGE_SIZE - 1));
	if (h->magic == LARGE_MAGIC) {
		uint64_t pages = h->class_or_pages;
		h->magic = 0;
		pmm_free_contig(virt_to_phys(h), pages);
		return;
	}
	if (h->magic != SLAB_MAGIC)
		panic("kfree: %p is not a heap pointer", p);
	spin_lock(&heap_lock);
	slab_free(h, p);
	spin_unlock(&heap_lock);
}
