/*
 * console.h — the kernel console: COM1, mirrored to VGA text if asked.
 */
#ifndef HAKO_CONSOLE_H
#define HAKO_CONSOLE_H

#include <stdbool.h>
#include <stddef.h>

void console_init(bool vga);
void console_write(const char *s, size_t n);
void console_panic_mode(void);     /* stop taking the lock: we are dying */

#endif
