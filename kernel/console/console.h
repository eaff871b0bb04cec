/*
 * console.h — the kernel console: COM1, mirrored to VGA text if asked.
 */
#ifndef HAKO_CONSOLE_H
#define HAKO_CONSOLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The most one write system call puts out (whole: writes never interleave). */
#define CONSOLE_WRITE_MAX 4096

void console_init(bool vga);
/* Queues s whole and returns once it is sent (console.c: short lock holds). */
void console_write(const char *s, size_t n);
void console_panic_mode(void);       /* send the queue, then write without the lock */

/* Input (console_input.c): bytes typed on COM1, received by interrupt. */
void console_input_init(void);     /* after the I/O APIC and the scheduler */
/* Up to n bytes; with block, sleeps until there is at least one. */
size_t console_read(char *buf, size_t n, bool block);
uint64_t console_input_dropped(void);

#endif
