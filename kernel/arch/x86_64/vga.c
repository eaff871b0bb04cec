/*
 * vga.c — optional mirror of the console on the VGA text screen (80x25 at
 * physical 0xb8000), for real PCs and QEMU windows.  Off unless the kernel
 * command line says console=vga.
 */
#include <stdint.h>
#include <string.h>
#include <arch/layout.h>
#include <arch/arch.h>

#define VGA_COLS 80
#define VGA_ROWS 25
#define VGA_ATTR 0x0700           /* light grey on black */

static volatile uint16_t *const screen = (volatile uint16_t *)(DIRECT_MAP_BASE + 0xb8000);
static int row, col;

static void scroll(void)
{
	for (int i = 0; i < (VGA_ROWS - 1) * VGA_COLS; i++)
		screen[i] = screen[i + VGA_COLS];
	for (int i = 0; i < VGA_COLS; i++)
		screen[(VGA_ROWS - 1) * VGA_COLS + i] = VGA_ATTR | ' ';
	row = VGA_ROWS - 1;
}

void arch_vga_clear(void)
{
	for (int i = 0; i < VGA_ROWS * VGA_COLS; i++)
		screen[i] = VGA_ATTR | ' ';
	row = col = 0;
}

void arch_vga_putc(char c)
{
	if (c == '\n') {
		col = 0;
		if (++row == VGA_ROWS)
			scroll();
		return;
	}
	if (c == '\r')
		return;
	screen[row * VGA_COLS + col] = VGA_ATTR | (uint8_t)c;
	if (++col == VGA_COLS) {
		col = 0;
		if (++row == VGA_ROWS)
			scroll();
	}
}
