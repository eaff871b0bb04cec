/*
 * arch/io.h — x86_64 I/O port instructions for a driver process (paper
 * 003); programs include <arch/io.h> and user/user.mk picks the arch's
 * folder with -I.  Ring 3 reaches a port only if the kernel opened it in the
 * CPU's I/O permission bitmap for this process (its manifest grants the
 * port range); any other port raises #GP and the kernel kills the process.
 * Also the compiler barrier a driver puts between memory and register
 * accesses.
 */
#ifndef _HAKO_ARCH_IO_H
#define _HAKO_ARCH_IO_H

#include <stdint.h>

static inline uint8_t io_in8(uint16_t port)
{
	uint8_t v;
	__asm__ volatile("inb %1, %0" : "=a"(v) : "Nd"(port) : "memory");
	return v;
}

static inline uint16_t io_in16(uint16_t port)
{
	uint16_t v;
	__asm__ volatile("inw %1, %0" : "=a"(v) : "Nd"(port) : "memory");
	return v;
}

static inline uint32_t io_in32(uint16_t port)
{
	uint32_t v;
	__asm__ volatile("inl %1, %0" : "=a"(v) : "Nd"(port) : "memory");
	return v;
}

static inline void io_out8(uint16_t port, uint8_t v) { __asm__ volatile("outb %0, %1" : : "a"(v), "Nd"(port) : "memory"); }
static inline void io_out16(uint16_t port, uint16_t v) { __asm__ volatile("outw %0, %1" : : "a"(v), "Nd"(port) : "memory"); }
static inline void io_out32(uint16_t port, uint32_t v) { __asm__ volatile("outl %0, %1" : : "a"(v), "Nd"(port) : "memory"); }

/* No instruction: the compiler keeps memory accesses on their side of it. */
static inline void io_barrier(void) { __asm__ volatile("" : : : "memory"); }

#endif
