/*
 * format.c — the printf formatter behind the kernel's kprintf and
 * ksnprintf and the user library's printf and snprintf (the formats are
 * listed in lib/format.h).
 *
 * Pure code: no hardware, no locks, no globals, so the kernel, libhako.a
 * and the host tests compile it as is.  Output goes into a bounded buffer
 * that counts what it could not hold, so the return value is the full
 * length, as in C99 snprintf.
 */
#include <stdbool.h>
#include <stdint.h>
#include <lib/format.h>
#include <lib/string.h>

struct out {
	char *buf;
	size_t size;                 /* bytes buf holds, the NUL included */
	size_t len;                  /* bytes produced, even those that did not fit */
};

enum size { SZ_CHAR, SZ_SHORT, SZ_INT, SZ_LONG, SZ_LLONG, SZ_SIZE };

/* The 'l' size: 64 bits in the kernel, which prints uint64_t with %lu on
 * every arch (its build defines HAKO_FORMAT_L64); C's `long` in user
 * space and the host tests.  The two differ only where long has 32 bits. */
#ifdef HAKO_FORMAT_L64
typedef uint64_t fmt_ulong;
typedef int64_t fmt_long;
#else
typedef unsigned long fmt_ulong;
typedef long fmt_long;
#endif

struct spec {
	bool left, zero, plus, space;
	int width;
	int prec;                    /* -1: none given */
	enum size size;
	char conv;
};

static void put(struct out *o, char c)
{
	if (o->len + 1 < o->size)
		o->buf[o->len] = c;
	o->len++;
}

static void put_repeat(struct out *o, char c, int n)
{
	while (n-- > 0)
		put(o, c);
}

static void put_mem(struct out *o, const char *s, size_t n)
{
	while (n--)
		put(o, *s++);
}

static const char *parse_flags(const char *f, struct spec *sp)
{
	for (;; f++) {
		if (*f == '-')
			sp->left = true;
		else if (*f == '0')
			sp->zero = true;
		else if (*f == '+')
			sp->plus = true;
		else if (*f == ' ')
			sp->space = true;
		else
			return f;
	}
}

/* A width or precision: digits or '*' (an int argument). */
static const char *parse_number(const char *f, int *out, va_list *ap)
{
	int n = 0;
	if (*f == '*') {
		*out = va_arg(*ap, int);
		return f + 1;
	}
	while (*f >= '0' && *f <= '9')
		n = n * 10 + (*f++ - '0');
	*out = n;
	return f;
}

static const char *parse_size(const char *f, struct spec *sp)
{
	sp->size = SZ_INT;
	if (f[0] == 'h' && f[1] == 'h') {
		sp->size = SZ_CHAR;
		return f + 2;
	}
	if (f[0] == 'l' && f[1] == 'l') {
		sp->size = SZ_LLONG;
		return f + 2;
	}
	if (*f == 'h')
		sp->size = SZ_SHORT;
	else if (*f == 'l')
		sp->size = SZ_LONG;
	else if (*f == 'z' || *f == 'j' || *f == 't')
		sp->size = SZ_SIZE;
	else
		return f;
	return f + 1;
}

/* Parse one conversion after its '%'; returns what follows it. */
static const char *parse_spec(const char *f, struct spec *sp, va_list *ap)
{
	*sp = (struct spec){ .prec = -1 };
	f = parse_flags(f, sp);
	f = parse_number(f, &sp->width, ap);
	if (sp->width < 0) {                /* a negative '*' width means '-' */
		sp->left = true;
		sp->width = -sp->width;
	}
	if (*f == '.') {
		f = parse_number(f + 1, &sp->prec, ap);
		if (sp->prec < 0)
			sp->prec = -1;
	}
	f = parse_size(f, sp);
	sp->conv = *f;
	return *f ? f + 1 : f;
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
		return va_arg(*ap, fmt_ulong);
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
		return va_arg(*ap, fmt_long);
	case SZ_LLONG:
		return va_arg(*ap, long long);
	case SZ_SIZE:
		break;
	}
	return va_arg(*ap, long);
}

/* Pad to the width around body (len bytes), honouring '-'. */
static void put_padded(struct out *o, const struct spec *sp, const char *body, size_t len)
{
	int pad = sp->width > (int)len ? sp->width - (int)len : 0;
	if (!sp->left)
		put_repeat(o, ' ', pad);
	put_mem(o, body, len);
	if (sp->left)
		put_repeat(o, ' ', pad);
}

/* A number: sign (0: none) or prefix, zeros for the precision or the '0' flag, digits. */
static void put_number(struct out *o, const struct spec *sp, unsigned long long v,
		       char sign, unsigned base, const char *prefix)
{
	const char *set = sp->conv == 'X' ? "0123456789ABCDEF" : "0123456789abcdef";
	char digits[24];
	int n = 0;
	if (v != 0 || sp->prec != 0) {
		do {
			digits[n++] = set[v % base];
			v /= base;
		} while (v != 0);
	}
	int zeros = sp->prec > n ? sp->prec - n : 0;
	int len = n + zeros + (sign ? 1 : 0) + (int)strlen(prefix);
	int pad = sp->width > len ? sp->width - len : 0;
	if (sp->zero && !sp->left && sp->prec < 0) {
		zeros += pad;
		pad = 0;
	}
	if (!sp->left)
		put_repeat(o, ' ', pad);
	if (sign)
		put(o, sign);
	put_mem(o, prefix, strlen(prefix));
	put_repeat(o, '0', zeros);
	while (n > 0)
		put(o, digits[--n]);
	if (sp->left)
		put_repeat(o, ' ', pad);
}

/* '+' and ' ' apply to signed conversions only. */
static void put_signed(struct out *o, const struct spec *sp, long long v)
{
	unsigned long long mag = v < 0 ? -(unsigned long long)v : (unsigned long long)v;
	char sign = v < 0 ? '-' : sp->plus ? '+' : sp->space ? ' ' : 0;
	put_number(o, sp, mag, sign, 10, "");
}

static void put_string(struct out *o, const struct spec *sp, const char *s)
{
	if (!s)
		s = "(null)";
	put_padded(o, sp, s, sp->prec >= 0 ? strnlen(s, (size_t)sp->prec) : strlen(s));
}

static void put_conv(struct out *o, const struct spec *sp, va_list *ap)
{
	char c;
	switch (sp->conv) {
	case 'd':
	case 'i':
		put_signed(o, sp, arg_signed(sp->size, ap));
		break;
	case 'u':
		put_number(o, sp, arg_unsigned(sp->size, ap), 0, 10, "");
		break;
	case 'x':
	case 'X':
		put_number(o, sp, arg_unsigned(sp->size, ap), 0, 16, "");
		break;
	case 'o':
		put_number(o, sp, arg_unsigned(sp->size, ap), 0, 8, "");
		break;
	case 'p':
		put_number(o, sp, (uintptr_t)va_arg(*ap, void *), 0, 16, "0x");
		break;
	case 's':
		put_string(o, sp, va_arg(*ap, const char *));
		break;
	case 'c':
		c = (char)va_arg(*ap, int);
		put_padded(o, sp, &c, 1);
		break;
	case '%':
		put(o, '%');
		break;
	case 0:                             /* a '%' that ends the format */
		break;
	default:                            /* unknown: shown as written */
		put(o, '%');
		put(o, sp->conv);
		break;
	}
}

int vsnprintf(char *buf, size_t size, const char *fmt, va_list ap)
{
	struct out o = { buf, size, 0 };
	struct spec sp;
	va_list aq;
	va_copy(aq, ap);
	while (*fmt) {
		if (*fmt != '%') {
			put(&o, *fmt++);
			continue;
		}
		fmt = parse_spec(fmt + 1, &sp, &aq);
		put_conv(&o, &sp, &aq);
	}
	va_end(aq);
	if (size)
		buf[o.len < size ? o.len : size - 1] = 0;
	return (int)o.len;
}

int snprintf(char *buf, size_t size, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(buf, size, fmt, ap);
	va_end(ap);
	return n;
}
