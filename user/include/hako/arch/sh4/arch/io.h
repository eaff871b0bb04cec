/*
 * arch/io.h — I/O ports for a driver process, on SH-4: there is no port
 * space (every device is memory-mapped), so a read gives all ones and a
 * write goes nowhere, as the kernel's arch_port_in/out do.  Also the
 * compiler barrier a driver puts between memory and register accesses.
 */
#ifndef _HAKO_ARCH_IO_H
#define _HAKO_ARCH_IO_H

#include <stdint.h>

static inline uint8_t io_in8(uint16_t port) { (void)port; return 0xff; }
static inline uint16_t io_in16(uint16_t port) { (void)port; return 0xffff; }
static inline uint32_t io_in32(uint16_t port) { (void)port; return 0xffffffffu; }
static inline void io_out8(uint16_t port, uint8_t v) { (void)port; (void)v; }
static inline void io_out16(uint16_t port, uint16_t v) { (void)port; (void)v; }
static inline void io_out32(uint16_t port, uint32_t v) { (void)port; (void)v; }

/* No instruction: the compiler keeps memory accesses on their side of it. */
static inline void io_barrier(void) { __asm__ volatile("" : : : "memory"); }

#endif
