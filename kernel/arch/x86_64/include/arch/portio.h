/*
 * arch/portio.h — I/O port access for generic code (the driver
 * environment's port grants, kernel/drivers/drvenv_kernel.c).  x86_64 has a separate
 * 64 KiB port space reached by in/out instructions (portio.c).
 */
#ifndef HAKO_ARCH_PORTIO_H
#define HAKO_ARCH_PORTIO_H

#include <stdbool.h>
#include <stdint.h>

/* width: 1, 2 or 4 bytes. */
uint32_t arch_port_in(uint16_t port, int width);
void arch_port_out(uint16_t port, int width, uint32_t v);

/*
 * Ports for ring 3 (a driver process, paper 003): the CPU's I/O
 * permission bitmap (in the TSS) lets a user thread reach exactly the
 * ranges of its grant; any other port raises #GP, which kills the
 * process.  A thread carries its grant (struct thread .io); switching it
 * in loads the grant on that CPU (arch_io_bitmap_load), and switching to
 * a thread without one closes every port again.  Outside a switch, call
 * arch_io_bitmap_load for the running thread after changing its grant.
 * A grant marked ring0 is a supervisor-mode driver process's (super_arch.c):
 * loading it puts the ring-0 system-call entry in LSTAR (and the switch to
 * any other thread puts the ring-3 one back); ring 0 needs no bitmap.
 */
#define ARCH_IO_RANGES 6

struct arch_io_grant {
	int n;                               /* ranges in use */
	uint16_t base[ARCH_IO_RANGES];
	uint16_t size[ARCH_IO_RANGES];       /* ports from base */
	bool ring0;                          /* its threads run in ring 0 (a supervisor-mode
	                                      * driver process): their system calls take
	                                      * the ring-0 entry, every port is theirs */
};

/* This CPU: open g's ranges to ring 3 and close what was open before; NULL: close all.
 * Interrupts off (the thread switch), or the caller is the thread that owns g. */
void arch_io_bitmap_load(const struct arch_io_grant *g);

#endif
