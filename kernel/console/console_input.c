/*
 * console_input.c — bytes typed on the console, kept until read.
 *
 * The UART's receive interrupt moves every waiting byte into a ring and
 * wakes the readers; console_read() takes bytes out, sleeping while the
 * ring is empty.  Bytes that arrive when the ring is full are counted
 * and dropped (nobody is reading, and the sender cannot be slowed).
 * Ctrl-\\ is not kept: it prints the thread dump (thread_dump.c).
 */
#include <stdbool.h>
#include <stddef.h>
#include <console.h>
#include <thread.h>
#include <kprintf.h>
#include <sched.h>
#include <arch/arch.h>

#define RX_SIZE 1024                    /* a power of two */
#define DUMP_KEY 0x1c                   /* Ctrl-\\: print the thread dump */

static struct waitq rx_wait;            /* its lock also guards the ring */
static char ring[RX_SIZE];
static unsigned head, tail;             /* free-running; head - tail bytes held */
static uint64_t dropped;
static bool by_interrupt;

static void rx_interrupt(void *arg)
{
	bool dump = false;
	spin_lock(&rx_wait.lock);
	for (int c; (c = arch_serial_getc()) >= 0;) {
		if (c == DUMP_KEY)
			dump = true;
		else if (head - tail < RX_SIZE)
			ring[head++ % RX_SIZE] = (char)c;
		else
			dropped++;
	}
	waitq_wake_all(&rx_wait);
	spin_unlock(&rx_wait.lock);
	if (dump)
		thread_dump_all();
}

void console_input_init(void)
{
	waitq_init(&rx_wait, "console-in", LOCK_WAITQ);
	int err = arch_serial_start_rx_irq(rx_interrupt);
	by_interrupt = err == 0;
	if (err < 0)
		kprintf("console: no receive interrupt (%d); input is polled\n", err);
}

/* Polling fallback: what is in the UART now, without sleeping. */
static size_t poll_uart(char *buf, size_t n)
{
	size_t got = 0;
	for (int c; got < n && (c = arch_serial_getc()) >= 0;)
		buf[got++] = (char)c;
	return got;
}

size_t console_read(char *buf, size_t n, bool block)
{
	if (n == 0)
		return 0;
	if (!by_interrupt) {
		size_t got;
		while ((got = poll_uart(buf, n)) == 0 && block)
			sched_yield();
		return got;
	}
	spin_lock(&rx_wait.lock);
	while (head == tail && block && !thread_current()->killed)
		waitq_wait_killable(&rx_wait);     /* a killed reader returns with nothing */
	size_t got = 0;
	while (got < n && tail != head)
		buf[got++] = ring[tail++ % RX_SIZE];
	spin_unlock(&rx_wait.lock);
	return got;
}

uint64_t console_input_dropped(void)
{
	return dropped;
}
