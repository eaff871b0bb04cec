/*
 * user/sh/line.c — reading a command line from the raw serial console.
 *
 * Nothing edits the line for us: echo what is typed, erase with backspace
 * (0x7f or 8) as "\b \b", Ctrl-U erases the line, Ctrl-C drops it.  A line
 * ends at '\r' or '\n' ("\r\n" counts once).  Escape sequences (arrow
 * keys) are swallowed.  Bytes read past the end of a line are kept for the
 * next one; echo is collected and written once before each blocking read.
 */
#include <string.h>
#include <hako/sys.h>
#include "sh.h"

#define CTRL(c) ((c) & 0x1f)

enum esc_state { ESC_NONE, ESC_START, ESC_CSI };

static char input[128];
static size_t in_len, in_pos;
static char echo[256];
static size_t echo_len;
static enum esc_state esc;
static int after_cr;

static void echo_flush(void)
{
	size_t off = 0;

	while (off < echo_len) {
		long n = sys_write(echo + off, echo_len - off);
		if (n <= 0)
			break;
		off += (size_t)n;
	}
	echo_len = 0;
}

static void echo_str(const char *s)
{
	size_t n = strlen(s);

	if (echo_len + n > sizeof(echo))
		echo_flush();
	memcpy(echo + echo_len, s, n);
	echo_len += n;
}

static void echo_char(char c)
{
	char s[2] = { c, '\0' };

	echo_str(s);
}

/* The next input byte, blocking; -1 if the console failed. */
static int next_byte(void)
{
	if (in_pos == in_len) {
		long n;

		echo_flush();
		do
			n = sys_read(input, sizeof(input), 0);
		while (n == 0);
		if (n < 0)
			return -1;
		in_len = (size_t)n;
		in_pos = 0;
	}
	return (unsigned char)input[in_pos++];
}

/* Swallow escape sequences: ESC [ params final, ESC O x, ESC x. */
static int in_escape(int c)
{
	switch (esc) {
	case ESC_NONE:
		if (c != 0x1b)
			return 0;
		esc = ESC_START;
		return 1;
	case ESC_START:
		esc = (c == '[' || c == 'O') ? ESC_CSI : ESC_NONE;
		return 1;
	case ESC_CSI:
		if (c >= 0x40 && c <= 0x7e)
			esc = ESC_NONE;
		return 1;
	}
	return 0;
}

static void erase(size_t *len, size_t n)
{
	for (; n > 0 && *len > 0; n--, (*len)--)
		echo_str("\b \b");
}

int sh_read_line(char *buf, size_t size)
{
	size_t len = 0;
	int c;

	for (;;) {
		c = next_byte();
		if (c < 0)
			return -1;
		if (in_escape(c))
			continue;
		if (c == '\n' && after_cr) {
			after_cr = 0;
			continue;
		}
		after_cr = c == '\r';
		if (c == '\r' || c == '\n' || c == CTRL('C')) {
			if (c == CTRL('C')) {
				echo_str("^C");
				len = 0;
			}
			echo_str("\n");
			echo_flush();
			buf[len] = '\0';
			return (int)len;
		}
		if (c == 0x7f || c == '\b')
			erase(&len, 1);
		else if (c == CTRL('U'))
			erase(&len, len);
		else if (c == '\t' || (c >= 0x20 && c < 0x7f)) {
			if (len + 1 < size) {
				buf[len++] = c == '\t' ? ' ' : (char)c;
				echo_char(buf[len - 1]);
			}
		}
	}
}
