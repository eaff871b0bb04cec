/*
 * console.c — kprintf and the console lock.
 *
 * Every kprintf formats into a buffer first and writes it whole under the
 * console lock, so lines from different CPUs never interleave (the harness
 * parses `@@ ` result lines and needs them intact).
 */
#include <stdarg.h>
#include <stdbool.h>
#include <console.h>
#include <kprintf.h>
#include <spinlock.h>
#include <arch/arch.h>

static struct spinlock console_lock = SPINLOCK_INIT("console", LOCK_CONSOLE);
static bool use_vga;
static volatile bool panicking;

void console_init(bool vga)
{
	arch_serial_init();
	use_vga = vga;
	if (vga)
		arch_vga_clear();
}

void console_panic_mode(void)
{
	panicking = true;
}

static void write_raw(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		if (s[i] == '\n')
			arch_serial_putc('\r');
		arch_serial_putc(s[i]);
		if (use_vga)
			arch_vga_putc(s[i]);
	}
}

void console_write(const char *s, size_t n)
{
	if (panicking) {
		write_raw(s, n);
		return;
	}
	spin_lock(&console_lock);
	write_raw(s, n);
	spin_unlock(&console_lock);
}

/* For a writer that must put out several pieces as one (the write syscall). */
void console_lock_acquire(void)
{
	if (!panicking)
		spin_lock(&console_lock);
}

void console_write_locked(const char *s, size_t n)
{
	write_raw(s, n);
}

void console_lock_release(void)
{
	if (!panicking)
		spin_unlock(&console_lock);
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
