/*
 * heap.h — kernel memory for objects: kmalloc / kfree.
 *
 * Small objects (<= 2 KiB) come from per-size slab pages; larger ones get
 * whole contiguous frames.  Both return NULL on exhaustion and give every
 * frame back to the frame allocator as soon as it is empty, so the frame
 * counter returns to its baseline after a test.
 */
#ifndef HAKO_HEAP_H
#define HAKO_HEAP_H

#include <stddef.h>

void *kmalloc(size_t size);
void *kzalloc(size_t size);
void kfree(void *p);
void heap_init(void);

#endif
