/*
 * portio.c — the in/out instructions behind arch/portio.h.
 */
#include <stdint.h>
#include <arch/portio.h>
#include "x86.h"

uint32_t arch_port_in(uint16_t port, int width)
{
	switch (width) {
	case 1:  return inb(port);
	case 2:  return inw(port);
	default: return inl(port);
	}
}

void arch_port_out(uint16_t port, int width, uint32_t v)
{
	switch (width) {
	case 1:  outb(port, (uint8_t)v); break;
	case 2:  outw(port, (uint16_t)v); break;
	default: outl(port, v); break;
	}
}
