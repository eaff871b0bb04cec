/*
 * arch/portio.h — I/O port access for generic code (the driver
 * environment's port grants, dev/drvenv_kernel.c).  x86_64 has a separate
 * 64 KiB port space reached by in/out instructions (portio.c).
 */
#ifndef HAKO_ARCH_PORTIO_H
#define HAKO_ARCH_PORTIO_H

#include <stdint.h>

/* width: 1, 2 or 4 bytes. */
uint32_t arch_port_in(uint16_t port, int width);
void arch_port_out(uint16_t port, int width, uint32_t v);

#endif
