/*
 * test_string.c — lib/string.c, the byte and string routines of the kernel
 * and the user library.
 *
 * Proves, against byte-by-byte reference results: memset and memcpy
 * handle every length 0..40 at every misalignment 0..7 of each pointer
 * (so their 8-byte paths, heads and tails) without touching neighbouring
 * bytes; memset stores the low byte of c, also in its 8-byte pattern;
 * memmove handles overlap in both directions; memcmp, strcmp and strncmp
 * compare as unsigned char and stop where they should; strlen/strnlen;
 * strchr, including '\0' and bytes above 0x7f; strlcpy truncates, always
 * terminates, returns strlen(src), and writes nothing when size is 0;
 * memchr looks at exactly n bytes; strrchr, strstr, strspn and strcspn
 * find what C says; strcpy and strcat terminate, strncpy pads and does
 * not; strlcat truncates and counts like strlcpy; strtok_r splits at runs
 * of delimiters and stays at the end.
 *
 * The routines are built as k_memcpy etc. (kernel_names.h), so these tests
 * reach the library's code, not the C library's.
 */
#include "check.h"
#include "kernel_names.h"
#include <lib/string.h>

/* After the library's header: from here on memcpy means k_memcpy. */

#define GUARD 0xa5

TEST(memset_every_length_and_alignment)
{
	/* 8-byte aligned storage, so offsets 0..7 give every misalignment. */
	static uint64_t store[8];
	unsigned char *buf = (unsigned char *)store;
	for (size_t d = 0; d < 8; d++)
		for (size_t n = 0; n <= 40; n++) {
			for (size_t i = 0; i < sizeof store; i++)
				buf[i] = GUARD;
			void *r = memset(buf + d, 0x3c, n);
			CHECK_PTR(r, buf + d);
			for (size_t i = 0; i < sizeof store; i++) {
				unsigned char want = i >= d && i < d + n ? 0x3c : GUARD;
				if (buf[i] != want) {
					check_fail(__FILE__, __LINE__,
						   "memset(buf+%zu, 0x3c, %zu): byte %zu is 0x%02x, expected 0x%02x",
						   d, n, i, buf[i], want);
					return;
				}
			}
		}
}

TEST(memset_uses_low_byte_of_c)
{
	static uint64_t store[3];
	unsigned char *buf = (unsigned char *)store;
	memset(buf, 0x1ff, 20);                 /* through the 8-byte pattern */
	for (int i = 0; i < 20; i++)
		CHECK_EQ(buf[i], 0xff);
	CHECK_EQ(buf[20], 0);
	memset(buf + 3, -2, 17);
	CHECK_EQ(buf[2], 0xff);
	for (int i = 3; i < 20; i++)
		CHECK_EQ(buf[i], 0xfe);
	CHECK_EQ(buf[20], 0);
}

TEST(memcpy_every_length_and_alignment)
{
	/* 8-byte aligned storage, so offsets 0..7 give every misalignment. */
	static uint64_t src_store[8], dst_store[8];
	unsigned char *src = (unsigned char *)src_store, *dst = (unsigned char *)dst_store;
	for (size_t i = 0; i < sizeof src_store; i++)
		src[i] = (unsigned char)(i * 7 + 1);
	for (size_t so = 0; so < 8; so++)
		for (size_t d = 0; d < 8; d++)
			for (size_t n = 0; n <= 40; n++) {
				for (size_t i = 0; i < sizeof dst_store; i++)
					dst[i] = GUARD;
				void *r = memcpy(dst + d, src + so, n);
				CHECK_PTR(r, dst + d);
				for (size_t i = 0; i < sizeof dst_store; i++) {
					unsigned char want = i >= d && i < d + n ? src[so + i - d] : GUARD;
					if (dst[i] != want) {
						check_fail(__FILE__, __LINE__,
							   "memcpy(dst+%zu, src+%zu, %zu): byte %zu is 0x%02x, expected 0x%02x",
							   d, so, n, i, dst[i], want);
						return;
					}
				}
			}
}

TEST(memmove_overlap_forward)
{
	char buf[16] = "abcdefghij";
	void *r = memmove(buf + 2, buf, 8);     /* dst above src: copy backwards */
	CHECK_PTR(r, buf + 2);
	CHECK_MEM(buf, "ababcdefgh", 10);
}

TEST(memmove_overlap_backward)
{
	char buf[16] = "abcdefghij";
	memmove(buf, buf + 3, 7);
	CHECK_MEM(buf, "defghijhij", 10);
	/* Long enough for the 8-byte path, both pointers aligned. */
	static uint64_t store[4];
	unsigned char *b = (unsigned char *)store;
	for (int i = 0; i < 32; i++)
		b[i] = (unsigned char)i;
	memmove(b, b + 8, 24);
	for (int i = 0; i < 24; i++)
		CHECK_EQ(b[i], i + 8);
}

TEST(memmove_same_and_zero)
{
	char buf[8] = "xyz";
	CHECK_PTR(memmove(buf, buf, 3), buf);
	CHECK_PTR(memmove(buf + 1, buf, 0), buf + 1);
	CHECK_STR(buf, "xyz");
}

TEST(memcmp_unsigned_and_bounded)
{
	CHECK_EQ(memcmp("abc", "abd", 2), 0);
	CHECK(memcmp("abc", "abd", 3) < 0);
	CHECK(memcmp("abd", "abc", 3) > 0);
	CHECK(memcmp("\x80", "\x7f", 1) > 0);   /* unsigned bytes */
	CHECK_EQ(memcmp("a\0x", "a\0y", 2), 0);  /* does not stop at NUL */
	CHECK(memcmp("a\0x", "a\0y", 3) < 0);
	CHECK_EQ(memcmp(NULL, NULL, 0), 0);
}

TEST(strlen_and_strnlen)
{
	CHECK_EQ(strlen(""), 0);
	CHECK_EQ(strlen("hako"), 4);
	CHECK_EQ(strnlen("hako", 10), 4);
	CHECK_EQ(strnlen("hako", 4), 4);
	CHECK_EQ(strnlen("hako", 2), 2);
	CHECK_EQ(strnlen("", 3), 0);
	/* strnlen must not read past max: no terminator here. */
	char raw[3] = { 'a', 'b', 'c' };
	CHECK_EQ(strnlen(raw, sizeof raw), 3);
	CHECK_EQ(strnlen(raw, 0), 0);
}

TEST(strcmp_order)
{
	CHECK_EQ(strcmp("", ""), 0);
	CHECK_EQ(strcmp("tick", "tick"), 0);
	CHECK(strcmp("tick", "ticks") < 0);
	CHECK(strcmp("ticks", "tick") > 0);
	CHECK(strcmp("a", "b") < 0);
	CHECK(strcmp("\xe9", "e") > 0);          /* unsigned char compare */
}

TEST(strncmp_stops_at_n_and_nul)
{
	CHECK_EQ(strncmp("tick=5", "tick=9", 5), 0);
	CHECK(strncmp("tick=5", "tick=9", 6) < 0);
	CHECK_EQ(strncmp("ab", "ab", 10), 0);           /* stops at NUL */
	CHECK(strncmp("ab", "abc", 10) < 0);
	CHECK_EQ(strncmp("x", "y", 0), 0);
	CHECK(strncmp("\x90", "\x10", 1) > 0);
}

TEST(strchr_finds_first_and_nul)
{
	const char *s = "a=b=c";
	CHECK_PTR(strchr(s, '='), s + 1);
	CHECK_PTR(strchr(s, 'c'), s + 4);
	CHECK_PTR(strchr(s, 'z'), NULL);
	CHECK_PTR(strchr(s, 0), s + 5);
	CHECK_PTR(strchr("", 'a'), NULL);
	const char *hi = "caf\xe9";
	CHECK_PTR(strchr(hi, 0xe9), hi + 3);    /* int c converted to char */
	CHECK_PTR(strchr(hi, 'a' + 256), hi + 1);
}

TEST(strlcpy_fits_and_truncates)
{
	char buf[8];
	memset(buf, 'X', sizeof buf);
	CHECK_EQ(strlcpy(buf, "abc", sizeof buf), 3);
	CHECK_STR(buf, "abc");
	CHECK_EQ(buf[4], 'X');                  /* nothing past the terminator */
	CHECK_EQ(strlcpy(buf, "abcdefghijk", sizeof buf), 11);
	CHECK_STR(buf, "abcdefg");
	CHECK_EQ(strlcpy(buf, "abcdefg", sizeof buf), 7);       /* exactly fits */
	CHECK_STR(buf, "abcdefg");
	CHECK_EQ(strlcpy(buf, "", sizeof buf), 0);
	CHECK_STR(buf, "");
}

TEST(strlcpy_size_0_and_1)
{
	char buf[4] = { 'X', 'X', 'X', 'X' };
	CHECK_EQ(strlcpy(buf, "hello", 0), 5);
	CHECK_EQ(buf[0], 'X');                  /* size 0: untouched */
	CHECK_EQ(strlcpy(buf, "hello", 1), 5);
	CHECK_EQ(buf[0], 0);
	CHECK_EQ(buf[1], 'X');
}

TEST(strchr_of_nul_through_a_wider_int)
{
	const char *s = "ab";
	CHECK_PTR(strchr(s, 256), s + 2);       /* (char)256 is '\0' */
}

TEST(memchr_bounded_and_unsigned)
{
	const char buf[] = "ab\0c\xe9";
	CHECK_PTR(memchr(buf, 'c', sizeof buf), buf + 3);          /* past a NUL */
	CHECK_PTR(memchr(buf, 'c', 3), NULL);                      /* not past n */
	CHECK_PTR(memchr(buf, 0xe9, sizeof buf), buf + 4);
	CHECK_PTR(memchr(buf, 0x1e9, sizeof buf), buf + 4);        /* c as unsigned char */
	CHECK_PTR(memchr(buf, 'a', 0), NULL);
}

TEST(strrchr_finds_last_and_nul)
{
	const char *s = "a/b/c";
	CHECK_PTR(strrchr(s, '/'), s + 3);
	CHECK_PTR(strrchr(s, 'a'), s);
	CHECK_PTR(strrchr(s, 'z'), NULL);
	CHECK_PTR(strrchr(s, 0), s + 5);
	CHECK_PTR(strrchr("", 'a'), NULL);
}

TEST(strstr_first_match_and_empty_needle)
{
	const char *s = "abcabd";
	CHECK_PTR(strstr(s, "ab"), s);
	CHECK_PTR(strstr(s, "abd"), s + 3);
	CHECK_PTR(strstr(s, "abdx"), NULL);     /* longer than what is left */
	CHECK_PTR(strstr(s, ""), s);
	const char *empty = "";
	CHECK_PTR(strstr(empty, ""), empty);
	CHECK_PTR(strstr(empty, "a"), NULL);
}

TEST(strspn_and_strcspn)
{
	CHECK_EQ(strspn("  \tx y", " \t"), 3);
	CHECK_EQ(strspn("xyz", " "), 0);
	CHECK_EQ(strspn("", "abc"), 0);
	CHECK_EQ(strcspn("key=value", "=:"), 3);
	CHECK_EQ(strcspn("novalue", "=:"), 7);
	CHECK_EQ(strcspn("abc", ""), 3);
}

TEST(strcpy_and_strcat)
{
	char buf[16];
	memset(buf, 'X', sizeof buf);
	CHECK_PTR(strcpy(buf, "abc"), buf);
	CHECK_STR(buf, "abc");
	CHECK_EQ(buf[4], 'X');
	CHECK_PTR(strcat(buf, "de"), buf);
	CHECK_STR(buf, "abcde");
	CHECK_EQ(buf[6], 'X');
	strcat(buf, "");
	CHECK_STR(buf, "abcde");
}

TEST(strncpy_pads_and_does_not_terminate)
{
	char buf[8];
	memset(buf, 'X', sizeof buf);
	CHECK_PTR(strncpy(buf, "ab", 5), buf);
	CHECK_MEM(buf, "ab\0\0\0XXX", 8);      /* padded with NULs to n */
	memset(buf, 'X', sizeof buf);
	strncpy(buf, "abcdef", 4);
	CHECK_MEM(buf, "abcdXXXX", 8);          /* too long: not terminated */
}

TEST(strlcat_appends_truncates_and_counts)
{
	char buf[8] = "ab";
	CHECK_EQ(strlcat(buf, "cd", sizeof buf), 4);
	CHECK_STR(buf, "abcd");
	CHECK_EQ(strlcat(buf, "efghij", sizeof buf), 10);
	CHECK_STR(buf, "abcdefg");
	/* No terminator within size: nothing written, size + strlen(src) returned. */
	char full[4] = { 'w', 'x', 'y', 'z' };
	CHECK_EQ(strlcat(full, "ab", sizeof full), 6);
	CHECK_MEM(full, "wxyz", 4);
}

TEST(strtok_r_splits_and_resumes)
{
	char text[] = "  ls -l\t/bin  ";
	char *save = NULL;
	CHECK_STR(strtok_r(text, " \t", &save), "ls");
	CHECK_STR(strtok_r(NULL, " \t", &save), "-l");
	CHECK_STR(strtok_r(NULL, " \t", &save), "/bin");
	CHECK_PTR(strtok_r(NULL, " \t", &save), NULL);
	CHECK_PTR(strtok_r(NULL, " \t", &save), NULL);   /* stays at the end */
	char blank[] = " \t ";
	CHECK_PTR(strtok_r(blank, " \t", &save), NULL);
	char one[] = "word";
	CHECK_STR(strtok_r(one, " ", &save), "word");
	CHECK_PTR(save, NULL);
}
