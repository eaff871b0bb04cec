/*
 * format.c — the printf engine behind kprintf and ksnprintf.
 *
 * Pure code (no hardware, no locks), so the host unit tests compile it as
 * is.  Output that does not fit is cut off; the return value is the length
 * the whole output would have had, as in C99 snprintf.
 */
#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#include <kprintf.h>

struct out {
	char *buf;
	size_t size, len;
};

static void put(struct out *o, char c)
{
	if (o->len + 1 < o->size)
		o->buf[o->len] = c;
	o->len++;
}

static void put_padding(struct out *o, int n, char c)
{
	while (n-- > 0)
		put(o, c);
}

struct spec {
	bool left, zero;
	int width, prec;
	int lng;          /* 0 int, 1 long, 2 long long */
	bool size_t_arg;
};

static void put_number(struct out *o, const struct spec *sp, uint64_t v, bool neg, unsigned base, bool upper)
{
	const char *digits = upper ? "0123456789ABCDEF" : "0123456789abcdef";
	char tmp[24];
	int n = 0;
	do {
		tmp[n++] = digits[v % base];
		v /= base;
	} while (v);
	int len = n + (neg ? 1 : 0);
	int pad = sp->width > len ? sp->width - len : 0;
	if (!sp->left && !sp->zero)
		put_padding(o, pad, ' ');
	if (neg)
		put(o, '-');
	if (!sp->left && sp->zero)
		put_padding(o, pad, '0');
	while (n)
		put(o, tmp[--n]);
	if (sp->left)
		put_padding(o, pad, ' ');
}

static void put_string(struct out *o, const struct spec *sp, const char *s)
{
	if (!s)
		s = "(null)";
	size_t len = sp->prec >= 0 ? strnlen(s, (size_t)sp->prec) : strlen(s);
	int pad = sp->width > (int)len ? sp->width - (int)len : 0;
	if (!sp->left)
		put_padding(o, pad, ' ');
	for (size_t i = 0; i < len; i++)
		put(o, s[i]);
	if (sp->left)
		put_padding(o, pad, ' ');
}

static void put_char(struct out *o, const struct spec *sp, char c)
{
	int pad = sp->width > 1 ? sp->width - 1 : 0;
	if (!sp->left)
		put_padding(o, pad, ' ');
	put(o, c);
	if (sp->left)
		put_padding(o, pad, ' ');
}

/*
 * %p is 0x and the hex digits.  A width with the 0 flag pads the digits
 * (%018p shows all 16 of a 64-bit address); otherwise it pads the whole.
 */
static void put_pointer(struct out *o, const struct spec *sp, const void *p)
{
	if (sp->zero && !sp->left) {
		struct spec digits = *sp;
		digits.width = sp->width > 2 ? sp->width - 2 : 0;
		put(o, '0');
		put(o, 'x');
		put_number(o, &digits, (uint64_t)(uintptr_t)p, false, 16, false);
		return;
	}
	char text[24];
	struct out t = { text, sizeof text, 0 };
	struct spec plain = { .prec = -1 };
	put(&t, '0');
	put(&t, 'x');
	put_number(&t, &plain, (uint64_t)(uintptr_t)p, false, 16, false);
	text[t.len] = 0;
	struct spec whole = *sp;
	whole.prec = -1;
	put_string(o, &whole, text);
}

static const char *parse_spec(const char *f, struct spec *sp, va_list *ap)
{
	*sp = (struct spec){ .prec = -1 };
	for (;; f++) {
		if (*f == '-')
			sp->left = true;
		else if (*f == '0')
			sp->zero = true;
		else
			break;
	}
	if (*f == '*') {
		sp->width = va_arg(*ap, int);
		if (sp->width < 0) {
			sp->left = true;
			sp->width = -sp->width;
		}
		f++;
	}
	while (*f >= '0' && *f <= '9')
		sp->width = sp->width * 10 + (*f++ - '0');
	if (*f == '.') {
		sp->prec = 0;
		f++;
		if (*f == '*') {
			sp->prec = va_arg(*ap, int);
			f++;
		}
		while (*f >= '0' && *f <= '9')
			sp->prec = sp->prec * 10 + (*f++ - '0');
	}
	for (; *f == 'l'; f++)
		sp->lng++;
	if (*f == 'z') {
		sp->size_t_arg = true;
		f++;
	}
	return f;
}

static uint64_t get_unsigned(const struct spec *sp, va_list *ap)
{
	if (sp->size_t_arg || sp->lng)
		return va_arg(*ap, uint64_t);
	return va_arg(*ap, unsigned int);
}

static int64_t get_signed(const struct spec *sp, va_list *ap)
{
	if (sp->size_t_arg || sp->lng)
		return va_arg(*ap, int64_t);
	return va_arg(*ap, int);
}

int kvsnprintf(char *buf, size_t size, const char *fmt, va_list ap_in)
{
	struct out o = { buf, size, 0 };
	struct spec sp;
	va_list ap;
	va_copy(ap, ap_in);
	for (const char *f = fmt; *f; f++) {
		if (*f != '%') {
			put(&o, *f);
			continue;
		}
		f = parse_spec(f + 1, &sp, &ap);
		switch (*f) {
		case 'd':
		case 'i': {
			int64_t v = get_signed(&sp, &ap);
			put_number(&o, &sp, v < 0 ? -(uint64_t)v : (uint64_t)v, v < 0, 10, false);
			break;
		}
		case 'u': put_number(&o, &sp, get_unsigned(&sp, &ap), false, 10, false); break;
		case 'x': put_number(&o, &sp, get_unsigned(&sp, &ap), false, 16, false); break;
		case 'X': put_number(&o, &sp, get_unsigned(&sp, &ap), false, 16, true); break;
		case 'o': put_number(&o, &sp, get_unsigned(&sp, &ap), false, 8, false); break;
		case 'p': put_pointer(&o, &sp, va_arg(ap, void *)); break;
		case 'c': put_char(&o, &sp, (char)va_arg(ap, int)); break;
		case 's': put_string(&o, &sp, va_arg(ap, const char *)); break;
		case '%': put(&o, '%'); break;
		case 0: f--; break;
		default:
			put(&o, '%');
			put(&o, *f);
		}
	}
	va_end(ap);
	if (size)
		buf[o.len < size ? o.len : size - 1] = 0;
	return (int)o.len;
}

int ksnprintf(char *buf, size_t size, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int n = kvsnprintf(buf, size, fmt, ap);
	va_end(ap);
	return n;
}
