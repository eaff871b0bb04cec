/*
 * serial.c — the console on the SH7751R's SCIF (serial channel 2, with
 * FIFOs), QEMU's second serial port on the r2d board (-serial null
 * -serial stdio).  Transmit polls the FIFO's empty flag; receive is the
 * SCIF's receive-data interrupt (INTEVT 0x720, priority in IPRC), whose
 * handler calls the console's function.
 */
#include <stdint.h>
#include <errno.h>
#include <arch/arch.h>
#include <arch/trapframe.h>
#include "sh4.h"

#define SCIF        0xffe80000u
#define SCSMR2      (SCIF + 0x00)   /* 16: mode (8N1, clock /1) */
#define SCBRR2      (SCIF + 0x04)   /* 8: bit rate */
#define SCSCR2      (SCIF + 0x08)   /* 16: TE, RE, RIE */
#define SCFTDR2     (SCIF + 0x0c)   /* 8: transmit FIFO */
#define SCFSR2      (SCIF + 0x10)   /* 16: status */
#define SCFRDR2     (SCIF + 0x14)   /* 8: receive FIFO */
#define SCFCR2      (SCIF + 0x18)   /* 16: FIFO control */
#define SCFDR2      (SCIF + 0x1c)   /* 16: FIFO counts, receive in 4:0 */

#define SCSCR_TE    (1u << 5)
#define SCSCR_RE    (1u << 4)
#define SCSCR_RIE   (1u << 6)
#define SCFSR_TEND  (1u << 6)
#define SCFSR_TDFE  (1u << 5)
#define SCFSR_RDF   (1u << 1)
#define SCFSR_DR    (1u << 0)

static void (*rx_fn)(void *);

void arch_serial_init(void)
{
	mmio_write16(SCSCR2, 0);
	mmio_write16(SCFCR2, 0x06);                 /* reset both FIFOs */
	mmio_write16(SCSMR2, 0);
	mmio_write8(SCBRR2, 15);                    /* ~115200 at 60 MHz; QEMU ignores it */
	mmio_write16(SCFCR2, 0);
	mmio_write16(SCSCR2, SCSCR_TE | SCSCR_RE);
}

void arch_serial_putc(char c)
{
	while (!(mmio_read16(SCFSR2) & SCFSR_TDFE))
		;
	mmio_write8(SCFTDR2, (uint8_t)c);
	mmio_write16(SCFSR2, (uint16_t)(mmio_read16(SCFSR2) & ~(SCFSR_TDFE | SCFSR_TEND)));
}

int arch_serial_getc(void)
{
	if (!(mmio_read16(SCFDR2) & 0x1f))
		return -1;
	int c = mmio_read8(SCFRDR2);
	mmio_write16(SCFSR2, (uint16_t)(mmio_read16(SCFSR2) & ~(SCFSR_RDF | SCFSR_DR)));
	return c;
}

int arch_serial_start_rx_irq(void (*fn)(void *arg))
{
	rx_fn = fn;
	mmio_write16(SH4_IPRC, (uint16_t)((mmio_read16(SH4_IPRC) & ~0xf0u) | (4u << 4)));
	mmio_write16(SCSCR2, SCSCR_TE | SCSCR_RE | SCSCR_RIE);
	return 0;
}

/* The receive interrupt: the console moves the bytes (with getc). */
void sh4_serial_irq(void)
{
	if (rx_fn)
		rx_fn(0);
	else
		while (arch_serial_getc() >= 0)
			;
}

/* There is no text screen: its output goes nowhere. */
void arch_vga_clear(void) {}
void arch_vga_putc(char c) {}
