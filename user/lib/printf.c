/*
 * user/lib/printf.c — the printf formatter: vsnprintf and snprintf.
 *
 * Output goes into a bounded buffer that counts what it could not hold,
 * so vsnprintf returns the full length like C's.  Supported: %d %i %u %x
 * %X %o %s %c %p %%, sizes hh h l ll z j t, flags - 0 + space, width and
 * precision (numbers or '*').
 */
#include <stdio.h>
#include <stdint.h>
#include <string.h>

struct out {
	char *buf;
	size_t cap;		/* bytes buf holds, the NUL included */
	size_t len;		/* bytes produced, even those that did not fit */
};

enum size { SZ_CHAR = -2, SZ_SHORT, SZ_INT, SZ_LONG, SZ_LLONG, SZ_SIZE };

struct spec {
	int left, zero, plus, space;
	int width;
	int prec;		/* -1: none given */
	enum size size;
	char conv;
};

static void put_char(struct out *o, char c)
{
	if (o->len + 1 < o->cap)
		o->buf[o->len] = c;
	o->len++;
}

static void put_repeat(struct out *o, char c, int n)
{
	while (n-- > 0)
		put_char(o, c);
}

static void put_mem(struct out *o, const char *s, size_t n)
{
	while (n--)
		put_char(o, *s++);
}

static const char *parse_flags(const char *p, struct spec *s)
{
	for (;; p++) {
		if (*p == '-')
			s->left = 1;
		else if (*p == '0')
			s->zero = 1;
		else if (*p == '+')
			s->plus = 1;
		else if (*p == ' ')
			s->space = 1;
		else
			return p;
	}
}

/* A width or precision: digits or '*' (an int argument). */
static const char *parse_number(const char *p, int *out, va_list *ap)
{
	int n = 0;

	if (*p == '*') {
		*out = va_arg(*ap, int);
		return p + 1;
	}
	while (*p >= '0' && *p <= '9')
		n = n * 10 + (*p++ - '0');
	*out = n;
	return p;
}

static const char *parse_size(const char *p, struct spec *s)
{
	s->size = SZ_INT;
	if (p[0] == 'h' && p[1] == 'h') {
		s->size = SZ_CHAR;
		return p + 2;
	}
	if (p[0] == 'l' && p[1] == 'l') {
		s->size = SZ_LLONG;
		return p + 2;
	}
	if (*p == 'h')
		s->size = SZ_SHORT;
	else if (*p == 'l')
		s->size = SZ_LONG;
	else if (*p == 'z' || *p == 'j' || *p == 't')
		s->size = SZ_SIZE;
	else
		return p;
	return p + 1;
}

/* Parse one conversion after its '%'; returns what follows it. */
static const char *parse_spec(const char *p, struct spec *s, va_list *ap)
{
	memset(s, 0, sizeof(*s));
	s->prec = -1;
	p = parse_flags(p, s);
	p = parse_number(p, &s->width, ap);
	if (s->width < 0) {		/* a negative '*' width means '-' */
		s->left = 1;
		s->width = -s->width;
	}
	if (*p == '.') {
		p = parse_number(p + 1, &s->prec, ap);
		if (s->prec < 0)
			s->prec = -1;
	}
	p = parse_size(p, s);
	s->conv = *p;
	return *p ? p + 1 : p;
}

static unsigned long long arg_unsigned(enum size size, va_list *ap)
{
	switch (size) {
	case SZ_CHAR:
		return (unsigned char)va_arg(*ap, unsigned int);
	case SZ_SHORT:
		return (unsigned short)va_arg(*ap, unsigned int);
	case SZ_INT:
		return va_arg(*ap, unsigned int);
	case SZ_LONG:
		return va_arg(*ap, unsigned long);
	case SZ_LLONG:
		return va_arg(*ap, unsigned long long);
	case SZ_SIZE:
		break;
	}
	return va_arg(*ap, size_t);
}

static long long arg_signed(enum size size, va_list *ap)
{
	switch (size) {
	case SZ_CHAR:
		return (signed char)va_arg(*ap, int);
	case SZ_SHORT:
		return (short)va_arg(*ap, int);
	case SZ_INT:
		return va_arg(*ap, int);
	case SZ_LONG:
		return va_arg(*ap, long);
	case SZ_LLONG:
		return va_arg(*ap, long long);
	case SZ_SIZE:
		break;
	}
	return va_arg(*ap, long);
}

/* Pad to the width around BODY (LEN bytes), honouring '-'. */
static void put_padded(struct out *o, const struct spec *s, const char *body, size_t len)
{
	int pad = s->width > (int)len ? s->width - (int)len : 0;

	if (!s->left)
		put_repeat(o, ' ', pad);
	put_mem(o, body, len);
	if (s->left)
		put_repeat(o, ' ', pad);
}

/* A number: sign or prefix, zeros for the precision or '0', digits. */
static void put_number(struct out *o, const struct spec *s, unsigned long long v,
		       int neg, unsigned base, const char *prefix)
{
	const char *set = s->conv == 'X' ? "0123456789ABCDEF" : "0123456789abcdef";
	char digits[24];
	int n = 0, zeros, pad, len;
	char sign = neg ? '-' : s->plus ? '+' : s->space ? ' ' : 0;

	if (v != 0 || s->prec != 0) {
		do {
			digits[n++] = set[v % base];
			v /= base;
		} while (v != 0);
	}
	zeros = s->prec > n ? s->prec - n : 0;
	len = n + zeros + (sign ? 1 : 0) + (int)strlen(prefix);
	pad = s->width > len ? s->width - len : 0;
	if (s->zero && !s->left && s->prec < 0) {
		zeros += pad;
		pad = 0;
	}
	if (!s->left)
		put_repeat(o, ' ', pad);
	if (sign)
		put_char(o, sign);
	put_mem(o, prefix, strlen(prefix));
	put_repeat(o, '0', zeros);
	while (n > 0)
		put_char(o, digits[--n]);
	if (s->left)
		put_repeat(o, ' ', pad);
}

static void put_signed(struct out *o, const struct spec *s, long long v)
{
	unsigned long long mag = v < 0 ? -(unsigned long long)v : (unsigned long long)v;

	put_number(o, s, mag, v < 0, 10, "");
}

static void put_string(struct out *o, const struct spec *s, const char *str)
{
	if (str == NULL)
		str = "(null)";
	put_padded(o, s, str, s->prec >= 0 ? strnlen(str, (size_t)s->prec) : strlen(str));
}

static void put_conv(struct out *o, const struct spec *s, va_list *ap)
{
	char c;

	switch (s->conv) {
	case 'd':
	case 'i':
		put_signed(o, s, arg_signed(s->size, ap));
		break;
	case 'u':
		put_number(o, s, arg_unsigned(s->size, ap), 0, 10, "");
		break;
	case 'x':
	case 'X':
		put_number(o, s, arg_unsigned(s->size, ap), 0, 16, "");
		break;
	case 'o':
		put_number(o, s, arg_unsigned(s->size, ap), 0, 8, "");
		break;
	case 'p':
		put_number(o, s, (uintptr_t)va_arg(*ap, void *), 0, 16, "0x");
		break;
	case 's':
		put_string(o, s, va_arg(*ap, const char *));
		break;
	case 'c':
		c = (char)va_arg(*ap, int);
		put_padded(o, s, &c, 1);
		break;
	case '%':
		put_char(o, '%');
		break;
	case '\0':
		put_char(o, '%');
		break;
	default:			/* unknown: show it as written */
		put_char(o, '%');
		put_char(o, s->conv);
		break;
	}
}

int vsnprintf(char *buf, size_t size, const char *fmt, va_list ap)
{
	struct out o = { buf, size, 0 };
	struct spec s;
	va_list aq;

	va_copy(aq, ap);
	while (*fmt) {
		if (*fmt != '%') {
			put_char(&o, *fmt++);
			continue;
		}
		fmt = parse_spec(fmt + 1, &s, &aq);
		put_conv(&o, &s, &aq);
	}
	va_end(aq);
	if (size > 0)
		buf[o.len < size ? o.len : size - 1] = '\0';
	return (int)o.len;
}

int snprintf(char *buf, size_t size, const char *fmt, ...)
{
	va_list ap;
	int n;

	va_start(ap, fmt);
	n = vsnprintf(buf, size, fmt, ap);
	va_end(ap);
	return n;
}
