/*
 * plugin_x86.c — what the plugin knows of x86 beside plugin.c's common
 * part: where code is in physical memory, and how much of a string a
 * rep stos or rep movs element still has to store.
 */
#include <stdint.h>

#include "plugin.h"

/* EFLAGS.DF: string instructions step downwards. */
#define X86_EFLAGS_DF (1u << 10)

/* The physical address of code at va whose host address is haddr (see README). */
uint64_t code_phys(uint64_t va, const void *haddr)
{
	uint64_t h = (uint64_t)(uintptr_t)haddr;
	if (!haddr)
		return va;
	if (!code_delta_known && va >= 0x100000 && va < 0x80000000) {
		code_delta = h - va;         /* before paging, virtual == physical */
		code_delta_known = true;
	}
	if (code_delta_known && h - code_delta < (1ull << 40))
		return h - code_delta;
	return va;                       /* ROM, or before the delta is known: untranslated code */
}

/*
 * A rep stos or movs element about to run with rcx elements left (this
 * one included) of size bytes: the bytes it and the rest will store
 * upwards from its address; 0 for a string that runs downwards, whose
 * later elements do not fill the line above.
 */
uint64_t string_left(uint64_t rcx, uint64_t eflags, uint8_t size)
{
	return eflags & X86_EFLAGS_DF ? 0 : rcx * size;
}
