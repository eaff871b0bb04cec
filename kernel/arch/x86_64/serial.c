/*
 * serial.c — the COM1 console: a 16550 UART at I/O port 0x3f8.
 *
 * QEMU: -serial stdio (the harness) or -serial mon:stdio (./hako shell).
 * Polled output; input is read by polling too (the shell in user space
 * asks through a system call and the kernel waits on the receive IRQ 4).
 */
#include <stdbool.h>
#include <stdint.h>
#include "x86.h"
#include "arch.h"

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

static bool present;

void serial_init(void)
{
	outb(COM1 + UART_IER, 0x00);
	outb(COM1 + UART_LCR, 0x80);       /* DLAB on */
	outb(COM1 + UART_DLL, 1);          /* 115200 baud */
	outb(COM1 + UART_DLM, 0);
	outb(COM1 + UART_LCR, 0x03);       /* 8 bits, no parity, 1 stop */
	outb(COM1 + UART_FCR, 0xC7);       /* FIFOs on, cleared, 14-byte trigger */
	outb(COM1 + UART_MCR, 0x0B);       /* DTR, RTS, OUT2 (IRQ line) */
	present = inb(COM1 + UART_LSR) != 0xFF;
}

void serial_putc(char c)
{
	if (!present)
		return;
	/* QEMU's UART is always ready; a real one drains in a few µs. */
	for (int spins = 0; spins < 100000 && !(inb(COM1 + UART_LSR) & LSR_THR_EMPTY); spins++)
		;
	outb(COM1 + UART_DATA, (uint8_t)c);
}

/* One byte if one is waiting, else -1. */
int serial_getc(void)
{
	if (!present || !(inb(COM1 + UART_LSR) & LSR_DATA_READY))
		return -1;
	return inb(COM1 + UART_DATA);
}

/* Ask the UART to raise IRQ 4 when a byte arrives. */
void serial_enable_rx_irq(void)
{
	if (present)
		outb(COM1 + UART_IER, 0x01);
}
