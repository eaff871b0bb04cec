/*
 * console.c — kprintf and the console's queue of writes.
 *
 * A writer queues its bytes whole (a descriptor on its own stack pointing
 * at them) under the console lock, so lines from different CPUs never
 * interleave (the harness parses `@@ ` result lines and needs them intact),
 * and then drains the queue to the serial port (and VGA) a few bytes per
 * lock hold until its own write is out.  The port is slow — each byte is a
 * status read and a data write, which a real 16550 or the cost model's
 * priced port I/O makes microseconds — so holding the lock (interrupts off)
 * over a whole line would be the kernel's longest preemption-off section;
 * a short chunk keeps it small.  Bytes leave in the order they were queued:
 * a drainer takes its chunk from the oldest write and sends it while still
 * holding the lock.  Queueing is O(1) and copies nothing, so a write of any
 * length costs the same time with interrupts off; the writer's buffer stays
 * valid because the writer does not return before its write is sent.
 *
 * When the kernel panics, the queue is sent and everything after it goes
 * straight to the port without the lock (other CPUs are stopped or dying).
 */
#include <stdarg.h>
#include <stdbool.h>
#include <console.h>
#include <kprintf.h>
#include <spinlock.h>
#include <arch/arch.h>

#define DRAIN_CHUNK 8                    /* bytes sent per lock hold */

/* One queued write; lives on its writer's stack until done. */
struct console_write {
	const char *s;
	size_t n, sent;
	bool done;                           /* set last, with release: then w is free */
	struct console_write *next;
};

static struct spinlock console_lock = SPINLOCK_INIT("console", LOCK_CONSOLE);
static bool use_vga;
static volatile bool panicking;
/* The queue, oldest first; under console_lock. */
static struct console_write *queue_head, *queue_tail;

void console_init(bool vga)
{
	arch_serial_init();
	use_vga = vga;
	if (vga)
		arch_vga_clear();
}

static void put_raw(char c)
{
	if (c == '\n')
		arch_serial_putc('\r');
	arch_serial_putc(c);
	if (use_vga)
		arch_vga_putc(c);
}

/* Sends up to max bytes from the oldest writes on, popping each one sent
 * whole.  Called with the lock held (or panicking). */
static void send_queued(size_t max)
{
	while (max > 0 && queue_head) {
		struct console_write *w = queue_head;
		while (max > 0 && w->sent < w->n) {
			put_raw(w->s[w->sent++]);
			max--;
		}
		if (w->sent < w->n)
			return;
		queue_head = w->next;
		if (!queue_head)
			queue_tail = NULL;
		__atomic_store_n(&w->done, true, __ATOMIC_RELEASE);   /* its writer may return */
	}
}

void console_panic_mode(void)
{
	panicking = true;
	send_queued((size_t)-1);             /* what was queued before the panic goes first */
}

void console_write(const char *s, size_t n)
{
	if (panicking) {
		send_queued((size_t)-1);
		for (size_t i = 0; i < n; i++)
			put_raw(s[i]);
		return;
	}
	if (n == 0)
		return;
	struct console_write w = { .s = s, .n = n };
	spin_lock(&console_lock);
	if (queue_tail)
		queue_tail->next = &w;
	else
		queue_head = &w;
	queue_tail = &w;
	spin_unlock(&console_lock);

	/* Send until this write is out; whoever drains keeps the order. */
	while (!__atomic_load_n(&w.done, __ATOMIC_ACQUIRE) && !panicking) {
		spin_lock(&console_lock);
		send_queued(DRAIN_CHUNK);
		spin_unlock(&console_lock);
	}
}

int kvprintf(const char *fmt, va_list ap)
{
	char buf[512];
	int n = kvsnprintf(buf, sizeof buf, fmt, ap);
	console_write(buf, n < (int)sizeof buf ? (size_t)n : sizeof buf - 1);
	return n;
}

int kprintf(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int n = kvprintf(fmt, ap);
	va_end(ap);
	return n;
}
