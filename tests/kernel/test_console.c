/*
 * test_console.c — self-test of the VGA text mirror: characters land in
 * the 80x25 cells at 0xb8000 with their attribute, a newline moves to
 * the next row, and the 26th line scrolls the screen up by one.
 */
#include <stdint.h>
#include <ktest.h>
#include <arch/arch.h>
#include <arch/layout.h>

#define COLS 80
#define ROWS 25

static volatile uint16_t *cell(int row, int col)
{
	return (volatile uint16_t *)(DIRECT_MAP_BASE + 0xb8000) + row * COLS + col;
}

static void put_line(char tag, int n)
{
	arch_vga_putc(tag);
	arch_vga_putc((char)('0' + n / 10));
	arch_vga_putc((char)('0' + n % 10));
	arch_vga_putc('\n');
}

TEST(vga_cells_and_scroll)
{
	arch_vga_clear();
	CHECK(*cell(0, 0) == 0x0720 && *cell(ROWS - 1, COLS - 1) == 0x0720, "clear left %x", *cell(0, 0));
	for (int i = 0; i < ROWS - 1; i++)
		put_line('L', i);
	CHECK((*cell(0, 0) & 0xff) == 'L' && (*cell(0, 2) & 0xff) == '0', "row 0 holds %x", *cell(0, 2));
	CHECK((*cell(0, 0) >> 8) == 0x07, "attribute %x", *cell(0, 0) >> 8);
	put_line('L', ROWS - 1);                 /* the newline of the 25th line scrolls */
	CHECK((*cell(0, 2) & 0xff) == '1', "after scrolling row 0 holds %c", *cell(0, 2) & 0xff);
	CHECK((*cell(ROWS - 2, 1) & 0xff) == '2' && (*cell(ROWS - 2, 2) & 0xff) == '4',
		 "row 23 holds %c%c", *cell(ROWS - 2, 1) & 0xff, *cell(ROWS - 2, 2) & 0xff);
	CHECK(*cell(ROWS - 1, 0) == 0x0720, "last row not blank after scroll");
	for (int i = 0; i < COLS + 3; i++)       /* on the last row: wraps, and scrolls */
		arch_vga_putc('w');
	CHECK((*cell(ROWS - 2, 0) & 0xff) == 'w' && (*cell(ROWS - 2, COLS - 1) & 0xff) == 'w',
		 "the full line did not move up");
	CHECK((*cell(ROWS - 1, 2) & 0xff) == 'w' && *cell(ROWS - 1, 3) == 0x0720,
		 "the wrapped part is not on the last row");
	arch_vga_clear();
	return 0;
}
