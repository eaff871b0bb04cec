/*
 * bits.h — bit counting without libgcc.
 */
#ifndef HAKO_BITS_H
#define HAKO_BITS_H

#include <stdint.h>

static inline int popcount64(uint64_t v)
{
	int n = 0;
	for (; v; v &= v - 1)
		n++;
	return n;
}

#endif
