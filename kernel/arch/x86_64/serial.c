/*
 * serial.c — the COM1 console: a 16550 UART at I/O port 0x3f8.
 *
 * QEMU: -serial stdio (the harness) or -serial mon:stdio (./hako shell).
 * Output is polled.  Input arrives by interrupt: the UART raises ISA
 * IRQ 4 for every received byte (FIFO trigger level 1), routed through
 * the I/O APIC to the boot CPU; console_input.c keeps the bytes.
 */
#include <stdbool.h>
#include <stdint.h>
#include <acpi.h>
#include <cpu.h>
#include <errno.h>
#include <intr.h>
#include "x86.h"
#include <arch/arch.h>
#include "ioapic.h"

#define COM1 0x3f8
#define UART_DATA 0        /* receive / transmit buffer (DLAB=0) */
#define UART_IER  1        /* interrupt enable (DLAB=0) */
#define UART_DLL  0        /* divisor low (DLAB=1) */
#define UART_DLM  1        /* divisor high (DLAB=1) */
#define UART_FCR  2        /* FIFO control */
#define UART_LCR  3        /* line control: word length, DLAB */
#define UART_MCR  4        /* modem control: DTR, RTS, OUT2 */
#define UART_LSR  5        /* line status */
#define LSR_DATA_READY 0x01
#define LSR_THR_EMPTY  0x20
#define COM1_IRQ 4

static bool present;

void arch_serial_init(void)
{
	outb(COM1 + UART_IER, 0x00);
	outb(COM1 + UART_LCR, 0x80);       /* DLAB on */
	outb(COM1 + UART_DLL, 1);          /* 115200 baud */
	outb(COM1 + UART_DLM, 0);
	outb(COM1 + UART_LCR, 0x03);       /* 8 bits, no parity, 1 stop */
	outb(COM1 + UART_FCR, 0x07);       /* FIFOs on, cleared, interrupt per byte */
	outb(COM1 + UART_MCR, 0x0B);       /* DTR, RTS, OUT2 (IRQ line) */
	present = inb(COM1 + UART_LSR) != 0xFF;
}

void arch_serial_putc(char c)
{
	if (!present)
		return;
	/* QEMU's UART is always ready; a real one drains in a few µs. */
	for (int spins = 0; spins < 100000 && !(inb(COM1 + UART_LSR) & LSR_THR_EMPTY); spins++)
		;
	outb(COM1 + UART_DATA, (uint8_t)c);
}

/* One byte if one is waiting, else -1. */
int arch_serial_getc(void)
{
	if (!present || !(inb(COM1 + UART_LSR) & LSR_DATA_READY))
		return -1;
	return inb(COM1 + UART_DATA);
}

/* Route IRQ 4 to the boot CPU and ask the UART to raise it per byte. */
int arch_serial_start_rx_irq(intr_handler_t fn)
{
	if (!present)
		return -ENODEV;
	int vector = intr_alloc_vector();
	if (vector < 0)
		return vector;
	intr_register(vector, fn, NULL, "com1");
	bool low, level;
	uint32_t gsi = acpi_isa_gsi(COM1_IRQ, &low, &level);
	int err = ioapic_route(gsi, vector, cpus[0].apic_id, low, level);
	if (err < 0) {
		intr_unregister(vector);
		intr_free_vector(vector);
		return err;
	}
	outb(COM1 + UART_IER, 0x01);       /* received data available */
	return 0;
}
