/*
 * console.h — the kernel console: COM1, mirrored to VGA text if asked.
 */
#ifndef HAKO_CONSOLE_H
#define HAKO_CONSOLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

void console_init(bool vga);
void console_write(const char *s, size_t n);
void console_panic_mode(void);
void console_lock_acquire(void);   /* then console_write_locked pieces, then release */
void console_write_locked(const char *s, size_t n);
void console_lock_release(void);     /* stop taking the lock: we are dying */

/* Input (console_input.c): bytes typed on COM1, received by interrupt. */
void console_input_init(void);     /* after the I/O APIC and the scheduler */
/* Up to n bytes; with block, sleeps until there is at least one. */
size_t console_read(char *buf, size_t n, bool block);
uint64_t console_input_dropped(void);

#endif
