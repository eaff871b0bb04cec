/*
 * test_format.c — lib/format.c, the printf formatter (snprintf,
 * vsnprintf) behind every line the kernel and the user programs print.
 *
 * Proves: each conversion the header promises (%d %i %u %x %X %o %c %s %p
 * %%) with the hh, h, l, ll, z, j and t sizes, including 64-bit extremes,
 * 32-bit arguments that must not be sign-extended and narrow ones cut to
 * their type; flags '-', '0', '+' and ' ' and their combinations (%-08d
 * pads with spaces on the right, '+' beats ' '); width from the format or
 * from '*'; precision for %s (also from '*') that never reads past the
 * precision, and for integers (zeros; the 0 flag then ignored; %.0d of 0
 * prints nothing); %s of NULL; output cut to the buffer with the C99
 * return value (the full length) for sizes 0, 1, exact fit and one short,
 * with no byte written past the buffer; unknown conversions and a trailing
 * '%'.  Tables of integer formats must agree byte for byte with the host
 * C library.
 */
#include "check.h"
#include <limits.h>
#include <stddef.h>

/* The host C library's snprintf, the reference: after kernel_names.h,
 * snprintf means the library's (k_snprintf). */
static int (*const libc_snprintf)(char *, size_t, const char *, ...) = snprintf;

#include "kernel_names.h"
#include <lib/format.h>
#include <lib/string.h>

/*
 * Through vsnprintf and without printf format checking: some cases use
 * formats gcc rightly warns about (%-08d, %q, a NULL %s).
 */
static int fmt(char *buf, size_t size, const char *f, ...)
{
	va_list ap;
	va_start(ap, f);
	int n = vsnprintf(buf, size, f, ap);
	va_end(ap);
	return n;
}

TEST(plain_text_and_percent)
{
	char buf[32];
	CHECK_EQ(snprintf(buf, sizeof buf, "hako"), 4);
	CHECK_STR(buf, "hako");
	CHECK_EQ(snprintf(buf, sizeof buf, "100%% a%%b"), 8);
	CHECK_STR(buf, "100% a%b");
	CHECK_EQ(snprintf(buf, sizeof buf, "%s", ""), 0);
	CHECK_STR(buf, "");
}

TEST(signed_decimal)
{
	char buf[64];
	snprintf(buf, sizeof buf, "%d|%i|%d|%d", 0, -1, 42, -42);
	CHECK_STR(buf, "0|-1|42|-42");
	snprintf(buf, sizeof buf, "%d %d", INT_MAX, INT_MIN);
	CHECK_STR(buf, "2147483647 -2147483648");
}

TEST(unsigned_hex_octal)
{
	char buf[64];
	snprintf(buf, sizeof buf, "%u %x %X %o %o", UINT_MAX, 0xdeadbeefu, 0xdeadbeefu, 8u, 0u);
	CHECK_STR(buf, "4294967295 deadbeef DEADBEEF 10 0");
}

TEST(int_argument_not_sign_extended)
{
	char buf[64];
	snprintf(buf, sizeof buf, "%x %u", -1, -2);
	CHECK_STR(buf, "ffffffff 4294967294");
}

TEST(lx_64bit_values)
{
	char buf[64];
	snprintf(buf, sizeof buf, "%lx", 0x123456789abcdef0ul);
	CHECK_STR(buf, "123456789abcdef0");
	snprintf(buf, sizeof buf, "%lX %llx", 0xffffffff80100000ul, ~0ull);
	CHECK_STR(buf, "FFFFFFFF80100000 ffffffffffffffff");
	snprintf(buf, sizeof buf, "%016lx", 0xfee00000ul);
	CHECK_STR(buf, "00000000fee00000");
	snprintf(buf, sizeof buf, "%lo", ~0ul);    /* 22 digits: the longest */
	CHECK_STR(buf, "1777777777777777777777");
}

TEST(long_decimal_extremes)
{
	char buf[64];
	snprintf(buf, sizeof buf, "%ld %ld", (long)INT64_MIN, (long)INT64_MAX);
	CHECK_STR(buf, "-9223372036854775808 9223372036854775807");
	snprintf(buf, sizeof buf, "%lu %llu %lld", ~0ul, 10000000000ull, -10000000000ll);
	CHECK_STR(buf, "18446744073709551615 10000000000 -10000000000");
}

TEST(size_t_modifier)
{
	char buf[64];
	snprintf(buf, sizeof buf, "%zu %zx", SIZE_MAX, (size_t)0x1000);
	CHECK_STR(buf, "18446744073709551615 1000");
	snprintf(buf, sizeof buf, "%zd|%5zu|", (ssize_t)-5, sizeof(uint64_t));
	CHECK_STR(buf, "-5|    8|");
}

TEST(width_right_aligned)
{
	char buf[64];
	snprintf(buf, sizeof buf, "[%5d][%5s][%3x]", 42, "ab", 0xfu);
	CHECK_STR(buf, "[   42][   ab][  f]");
	snprintf(buf, sizeof buf, "[%5d]", -42);
	CHECK_STR(buf, "[  -42]");
}

TEST(width_left_aligned)
{
	char buf[64];
	snprintf(buf, sizeof buf, "[%-5d][%-6s][%-4x][%-5d]", 42, "abc", 0xabu, -3);
	CHECK_STR(buf, "[42   ][abc   ][ab  ][-3   ]");
}

TEST(zero_padding_and_sign)
{
	char buf[64];
	snprintf(buf, sizeof buf, "[%05d][%05d][%08x][%03u]", 42, -42, 0xbeefu, 7u);
	CHECK_STR(buf, "[00042][-0042][0000beef][007]");
	snprintf(buf, sizeof buf, "[%02d][%01d]", -5, 0);
	CHECK_STR(buf, "[-5][0]");
}

TEST(minus_flag_beats_zero_flag)
{
	char buf[64];
	CHECK_EQ(fmt(buf, sizeof buf, "[%-08d]", 42), 10);
	CHECK_STR(buf, "[42      ]");
	fmt(buf, sizeof buf, "[%-08d][%0-6x]", -42, 0xabu);
	CHECK_STR(buf, "[-42     ][ab    ]");
}

TEST(plus_and_space_flags)
{
	char buf[64];
	snprintf(buf, sizeof buf, "[%+d][%+d][% d][% d][%+i]", 5, -5, 5, -5, 0);
	CHECK_STR(buf, "[+5][-5][ 5][-5][+0]");
	/* '+' beats ' '; the sign goes before zero padding, after space padding. */
	fmt(buf, sizeof buf, "[%+ d][%+05d][% 5d][%-+5d]", 5, 42, 42, 42);
	CHECK_STR(buf, "[+5][+0042][   42][+42  ]");
	/* Unsigned conversions have no sign. */
	fmt(buf, sizeof buf, "[%+u][% x]", 5u, 0xau);
	CHECK_STR(buf, "[5][a]");
}

TEST(integer_precision)
{
	char buf[96];
	snprintf(buf, sizeof buf, "[%.3d][%.3d][%8.3d][%-8.3d][%.5x][%.2u]", 7, -7, 42, 42, 0xabu, 123u);
	CHECK_STR(buf, "[007][-007][     042][042     ][000ab][123]");
	/* With a precision the 0 flag is ignored. */
	fmt(buf, sizeof buf, "[%08.3d][%08.3x]", -42, 0xfu);
	CHECK_STR(buf, "[    -042][     00f]");
	/* Precision 0 prints nothing for 0, but the width and a sign stay. */
	snprintf(buf, sizeof buf, "[%.0d][%.0x][%3.0u][%+.0d][%.0d]", 0, 0u, 0u, 0, 1);
	CHECK_STR(buf, "[][][   ][+][1]");
	snprintf(buf, sizeof buf, "[%.*d]", 4, 9);
	CHECK_STR(buf, "[0009]");
}

TEST(narrow_sizes_cut_to_their_type)
{
	char buf[64];
	fmt(buf, sizeof buf, "%hhd %hhu %hhx", 0x1ff, 0x1ff, 0x1234);
	CHECK_STR(buf, "-1 255 34");
	fmt(buf, sizeof buf, "%hd %hu %hx", 0x18000, 0x18000, 0x12345);
	CHECK_STR(buf, "-32768 32768 2345");
}

TEST(intmax_and_ptrdiff_sizes)
{
	char buf[96];
	snprintf(buf, sizeof buf, "%jd %ju %jx", (intmax_t)INT64_MIN, (uintmax_t)UINT64_MAX,
		 (uintmax_t)0xfee00000u);
	CHECK_STR(buf, "-9223372036854775808 18446744073709551615 fee00000");
	snprintf(buf, sizeof buf, "%td %tx", (ptrdiff_t)-3, (ptrdiff_t)0x1000);
	CHECK_STR(buf, "-3 1000");
}

TEST(width_smaller_than_value)
{
	char buf[64];
	snprintf(buf, sizeof buf, "[%2d][%1s][%3lx]", 12345, "hako", 0x12345ul);
	CHECK_STR(buf, "[12345][hako][12345]");
}

TEST(star_width_and_precision)
{
	char buf[64];
	snprintf(buf, sizeof buf, "[%*d][%-*s][%.*s]", 6, 42, 4, "a", 2, "hello");
	CHECK_STR(buf, "[    42][a   ][he]");
	snprintf(buf, sizeof buf, "[%*.*s]", 5, 3, "abcdef");
	CHECK_STR(buf, "[  abc]");
	/* A negative precision counts as none (C99 7.19.6.1). */
	snprintf(buf, sizeof buf, "[%.*s]", -1, "whole");
	CHECK_STR(buf, "[whole]");
}

TEST(string_null)
{
	char buf[64];
	const char *none = NULL;
	CHECK_EQ(fmt(buf, sizeof buf, "%s", none), 6);
	CHECK_STR(buf, "(null)");
	fmt(buf, sizeof buf, "[%.3s][%8s]", none, none);
	CHECK_STR(buf, "[(nu][  (null)]");
}

TEST(string_precision)
{
	char buf[64];
	CHECK_EQ(snprintf(buf, sizeof buf, "%.3s", "abcdef"), 3);
	CHECK_STR(buf, "abc");
	snprintf(buf, sizeof buf, "[%.0s][%.10s][%6.2s][%-6.2s]", "abc", "abc", "abc", "abc");
	CHECK_STR(buf, "[][abc][    ab][ab    ]");
}

TEST(string_precision_stays_inside_buffer)
{
	/* Exactly 4 bytes, no terminator: AddressSanitizer fails any overread. */
	char *raw = check_alloc(4);
	memcpy(raw, "abcd", 4);
	char buf[16];
	CHECK_EQ(snprintf(buf, sizeof buf, "%.4s|%.2s", raw, raw), 7);
	CHECK_STR(buf, "abcd|ab");
}

TEST(pointer)
{
	char buf[64];
	snprintf(buf, sizeof buf, "%p", (void *)0x1234);
	CHECK_STR(buf, "0x1234");
	snprintf(buf, sizeof buf, "%p", (void *)0);
	CHECK_STR(buf, "0x0");
	snprintf(buf, sizeof buf, "%p", (void *)0xffffffff80100000ul);
	CHECK_STR(buf, "0xffffffff80100000");
	/* With the 0 flag the width counts "0x" and pads the digits. */
	fmt(buf, sizeof buf, "%010p", (void *)0xbeef);
	CHECK_STR(buf, "0x0000beef");
	fmt(buf, sizeof buf, "%018p", (void *)0xffff);
	CHECK_STR(buf, "0x000000000000ffff");
	/* Without it the width pads the whole, on either side. */
	snprintf(buf, sizeof buf, "[%10p]", (void *)0xbeef);
	CHECK_STR(buf, "[    0xbeef]");
	snprintf(buf, sizeof buf, "[%-10p]", (void *)0xbeef);
	CHECK_STR(buf, "[0xbeef    ]");
	snprintf(buf, sizeof buf, "[%3p]", (void *)0xbeef);
	CHECK_STR(buf, "[0xbeef]");
}

TEST(char_conversion)
{
	char buf[16];
	CHECK_EQ(snprintf(buf, sizeof buf, "%c%c%c%c", 'h', 'a', 'k', 'o'), 4);
	CHECK_STR(buf, "hako");
	/* A NUL character counts in the length like any other. */
	CHECK_EQ(snprintf(buf, sizeof buf, "a%cb", 0), 3);
	CHECK_MEM(buf, "a\0b", 4);
	/* An int argument is cut to its low byte. */
	snprintf(buf, sizeof buf, "%c", 0x141);
	CHECK_STR(buf, "A");
	/* The width pads a character like a one-byte string. */
	snprintf(buf, sizeof buf, "[%3c][%-3c]", 'x', 'y');
	CHECK_STR(buf, "[  x][y  ]");
}

TEST(mixed_arguments_consumed_in_order)
{
	char buf[128];
	int n = snprintf(buf, sizeof buf, "cpu%d: apic %u base %lx %s%c %zu %d",
			  3, 7u, 0xfee00000ul, "up", '!', (size_t)12, -1);
	CHECK_STR(buf, "cpu3: apic 7 base fee00000 up! 12 -1");
	CHECK_EQ(n, 36);
}

TEST(truncation_returns_full_length)
{
	char buf[16];
	memset(buf, 'X', sizeof buf);
	CHECK_EQ(snprintf(buf, 5, "hello world"), 11);
	CHECK_STR(buf, "hell");
	for (size_t i = 5; i < sizeof buf; i++)
		CHECK_EQ(buf[i], 'X');          /* nothing past size */
	CHECK_EQ(snprintf(buf, 6, "%d-%s", 123456, "abc"), 10);
	CHECK_STR(buf, "12345");
}

TEST(truncation_exact_fit_and_one_short)
{
	char buf[8];
	memset(buf, 'X', sizeof buf);
	CHECK_EQ(snprintf(buf, 6, "%s", "hello"), 5);     /* 5 chars + NUL fit */
	CHECK_STR(buf, "hello");
	CHECK_EQ(buf[6], 'X');
	CHECK_EQ(snprintf(buf, 5, "%s", "hello"), 5);     /* one short */
	CHECK_STR(buf, "hell");
}

TEST(size_one_writes_only_nul)
{
	char buf[4] = { 'X', 'X', 'X', 'X' };
	CHECK_EQ(snprintf(buf, 1, "%d", 12345), 5);
	CHECK_EQ(buf[0], 0);
	CHECK_EQ(buf[1], 'X');
}

TEST(size_zero_writes_nothing)
{
	CHECK_EQ(snprintf(NULL, 0, "%d %s", 12345, "abc"), 9);
	char buf[2] = { 'X', 'X' };
	CHECK_EQ(snprintf(buf, 0, "abc"), 3);
	CHECK_EQ(buf[0], 'X');
	CHECK_EQ(buf[1], 'X');
}

TEST(truncation_inside_padding)
{
	char buf[8];
	CHECK_EQ(snprintf(buf, 4, "%08x", 0xabcu), 8);
	CHECK_STR(buf, "000");
	CHECK_EQ(snprintf(buf, 4, "%-8d|", 5), 9);
	CHECK_STR(buf, "5  ");
}

TEST(huge_width_counted_not_written)
{
	char *buf = check_alloc(8);     /* exact size: overruns are caught */
	CHECK_EQ(snprintf(buf, 8, "%300d", 1), 300);
	CHECK_STR(buf, "       ");
	CHECK_EQ(snprintf(buf, 8, "%-300s|", "x"), 301);
	CHECK_STR(buf, "x      ");
}

TEST(unknown_conversion_and_trailing_percent)
{
	char buf[32];
	CHECK_EQ(fmt(buf, sizeof buf, "a%qb"), 4);
	CHECK_STR(buf, "a%qb");
	/* Flags, width and length are consumed; the letter is echoed. */
	fmt(buf, sizeof buf, "[%-5lq]");
	CHECK_STR(buf, "[%q]");
	CHECK_EQ(fmt(buf, sizeof buf, "abc%"), 3);
	CHECK_STR(buf, "abc");
}

TEST(vsnprintf_matches_snprintf)
{
	char a[32], b[32];
	CHECK_EQ(fmt(a, sizeof a, "%d:%s", 9, "x"), 3);
	CHECK_EQ(snprintf(b, sizeof b, "%d:%s", 9, "x"), 3);
	CHECK_STR(a, b);
}

TEST(int_formats_agree_with_libc)
{
	static const char *formats[] = {
		"%d", "%i", "%5d", "%-5d|", "%05d", "%012d", "%1d", "%u", "%x",
		"%X", "%o", "%8x", "%-8o|", "%010u", "[%*d]",
		"%+d", "% d", "%+5d", "% 05d", "%-+6d|", "%.3d", "%8.3d", "%-8.3d|",
		"%08.3d", "%.0d", "%+.0d", "%.5x", "%.0o", "%hd", "%hu", "%hhd", "%hhu", "%hx",
	};
	static const int values[] = { 0, 1, -1, 9, 10, 42, -42, 255, 4096, 1000000,
				      INT_MAX, INT_MIN, INT_MIN + 1 };
	for (size_t f = 0; f < sizeof formats / sizeof formats[0]; f++)
		for (size_t v = 0; v < sizeof values / sizeof values[0]; v++) {
			char want[64], got[64];
			int wn, gn;
			if (formats[f][2] == '*') {
				wn = libc_snprintf(want, sizeof want, formats[f], 7, values[v]);
				gn = fmt(got, sizeof got, formats[f], 7, values[v]);
			} else {
				wn = libc_snprintf(want, sizeof want, formats[f], values[v]);
				gn = fmt(got, sizeof got, formats[f], values[v]);
			}
			if (wn != gn || strcmp(want, got) != 0) {
				check_fail(__FILE__, __LINE__, "format \"%s\" of %d gives \"%s\" (%d), libc \"%s\" (%d)",
					   formats[f], values[v], got, gn, want, wn);
				return;
			}
		}
}

TEST(long_formats_agree_with_libc)
{
	static const char *formats[] = {
		"%ld", "%lu", "%lx", "%lX", "%lo", "%20ld", "%-20lx|", "%020lu",
		"%lld", "%llx", "%zu", "%zx", "%022lo",
		"%+ld", "% ld", "%.20ld", "%-+22lld|", "%jd", "%ju", "%td", "%.0lx",
	};
	static const long values[] = { 0, 1, -1, 0x7fffffffl, 0x80000000l, -0x80000001l,
				       0x123456789abcdef0l, INT64_MAX, INT64_MIN };
	for (size_t f = 0; f < sizeof formats / sizeof formats[0]; f++)
		for (size_t v = 0; v < sizeof values / sizeof values[0]; v++) {
			char want[64], got[64];
			int wn = libc_snprintf(want, sizeof want, formats[f], values[v]);
			int gn = fmt(got, sizeof got, formats[f], values[v]);
			if (wn != gn || strcmp(want, got) != 0) {
				check_fail(__FILE__, __LINE__, "format \"%s\" of %ld gives \"%s\" (%d), libc \"%s\" (%d)",
					   formats[f], values[v], got, gn, want, wn);
				return;
			}
		}
}

TEST(truncation_agrees_with_libc)
{
	const char *f = "irq %d -> gsi %u (%s) at %lx";
	for (size_t size = 0; size <= 40; size++) {
		char want[48], got[48];
		memset(want, 'X', sizeof want);
		memset(got, 'X', sizeof got);
		int wn = libc_snprintf(want, size, f, 9, 9u, "level", 0xfec00000ul);
		int gn = fmt(got, size, f, 9, 9u, "level", 0xfec00000ul);
		CHECK_EQ(gn, wn);
		CHECK_MEM(got, want, sizeof want);
	}
}

/*
 * C99 7.19.6.1: a negative width taken from '*' means the '-' flag and a
 * positive width.  parse_spec() keeps the negative width and pads nothing.
 */
TEST(negative_star_width_left_justifies)
{
	char buf[32];
	CHECK_EQ(snprintf(buf, sizeof buf, "[%*d]", -5, 42), 7);
	CHECK_STR(buf, "[42   ]");
}
