/*
 * test_console.c — self-tests of the console: the VGA text mirror
 * (characters land in the 80x25 cells at 0xb8000 with their attribute, a
 * newline moves to the next row, the 26th line scrolls the screen up by
 * one), and the output queue's short interrupts-off sections.
 */
#include <stdint.h>
#include <console.h>
#include <cpu.h>
#include <ktest.h>
#include <spinlock.h>
#include <string.h>
#include <thread.h>
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
	if (!ARCH_HAS_VGA_TEXT)
		SKIP("no VGA text screen on this machine");
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

/* The longest interrupts-off section on this CPU while writing n bytes. */
static uint64_t longest_section_writing(const char *s, size_t n)
{
	push_off();
	this_cpu()->irq_off_max = 0;
	pop_off();
	console_write(s, n);
	return this_cpu()->irq_off_max;
}

struct section_run {
	uint64_t short_write, long_write;
};

static void measure_sections(void *arg)
{
	static char line[2048];
	struct section_run *r = arg;
	memset(line, '.', sizeof line);
	memcpy(line, "# console: ", 11);
	line[sizeof line - 1] = '\n';
	r->short_write = r->long_write = UINT64_MAX;
	for (int i = 0; i < 3; i++) {         /* the least of three: host time stretches some */
		uint64_t s = longest_section_writing("# short\n", 8);
		uint64_t l = longest_section_writing(line, sizeof line);
		r->short_write = s < r->short_write ? s : r->short_write;
		r->long_write = l < r->long_write ? l : r->long_write;
	}
}

/*
 * A long write is sent a few bytes per lock hold, so its longest
 * interrupts-off section is about that of a short one, not 256 times it.
 * The interrupts-off trace (irqtrace) is turned on for the test: sections
 * already open on other CPUs when it turns on end with a stale start,
 * which touches only their own figures.  The thread is pinned, so both
 * figures are one CPU's.  Under TCG or KVM the sections are host time,
 * and the host may stop the vCPU inside one for milliseconds: each figure
 * is the least of three writes.
 */
TEST(console_long_write_keeps_interrupts_off_sections_short)
{
	struct section_run r = { 0 };
	bool traced = irq_trace;
	irq_trace = true;
	struct thread *t = thread_create("ktest-console", measure_sections, &r, PRIO_DEFAULT, 1ull << 0);
	if (!t) {
		irq_trace = traced;
		CHECK(0, "thread_create failed");
	}
	thread_start(t);
	thread_join(t);
	irq_trace = traced;
	CHECK(r.short_write > 0, "no section traced");
	CHECK(r.long_write < 32 * r.short_write,
	      "a 2048-byte write held interrupts off for %lu ticks, an 8-byte one %lu",
	      r.long_write, r.short_write);
	return 0;
}
