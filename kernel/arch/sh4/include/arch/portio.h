/*
 * arch/portio.h — I/O ports for generic code.  The SH-4 has no port
 * space: every device is memory-mapped, so a port read returns all ones,
 * a write is dropped, and a port grant opens nothing (portio.c).
 */
#ifndef HAKO_ARCH_PORTIO_H
#define HAKO_ARCH_PORTIO_H

#include <stdbool.h>
#include <stdint.h>

/* width: 1, 2 or 4 bytes. */
uint32_t arch_port_in(uint16_t port, int width);
void arch_port_out(uint16_t port, int width, uint32_t v);

#define ARCH_IO_RANGES 6

struct arch_io_grant {
	int n;                               /* ranges in use */
	uint16_t base[ARCH_IO_RANGES];
	uint16_t size[ARCH_IO_RANGES];       /* ports from base */
	bool ring0;                          /* its threads run in ring 0 (a supervisor-mode
	                                      * driver process): their system calls take
	                                      * the ring-0 entry, every port is theirs */
};

/* Nothing to load: there are no ports. */
void arch_io_bitmap_load(const struct arch_io_grant *g);

#endif
