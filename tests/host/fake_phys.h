/*
 * fake_phys.h — "physical memory" for host tests of the kernel's parsers:
 * a buffer standing for [mem_base, mem_base + mem_size), and the p2v the
 * parsers read through.  A read outside it, or a parser that keeps reading
 * (more than 100000 calls), fails the case and escapes to p2v_escape.
 * Included by one test file each (the state is static).
 */
#ifndef HAKO_TEST_FAKE_PHYS_H
#define HAKO_TEST_FAKE_PHYS_H

#include "check.h"
#include <setjmp.h>

static uint8_t *mem;
static uint64_t mem_base, mem_size;
static uint64_t p2v_calls;
static jmp_buf p2v_escape;

static const void *p2v(uint64_t pa)
{
	if (++p2v_calls > 100000) {
		check_fail(__FILE__, __LINE__, "more than 100000 p2v calls: the parser is looping");
		longjmp(p2v_escape, 1);
	}
	if (pa < mem_base || pa - mem_base >= mem_size) {
		check_fail(__FILE__, __LINE__, "p2v(0x%" PRIx64 ") outside the test memory [0x%" PRIx64 ", 0x%" PRIx64 ")",
			   pa, mem_base, mem_base + mem_size);
		longjmp(p2v_escape, 1);
	}
	return mem + (pa - mem_base);
}

static void mem_new(uint64_t base, size_t size)
{
	mem = check_alloc(size);
	mem_base = base;
	mem_size = size;
}

#endif
