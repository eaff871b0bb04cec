/*
 * test_archive.c — kernel/archive.c, the boot-module archive reader.
 *
 * The tests write archives byte by byte into a buffer (an independent
 * statement of the format in archive.h), then open copies at allocations
 * of exactly their size, so AddressSanitizer fails any read past the end.
 * The standard archive holds "init" (40 bytes), "hello" (6) and "empty"
 * (0), deliberately not in name order.
 *
 * Proves: the standard archive opens at any alignment and every entry
 * reads back; an empty archive is valid; every strict prefix and a NULL
 * pointer give -EINVAL; bad magic, reserved != 0, count over 256 (with 256
 * valid), names without NUL, empty, with '/', space, control or non-ASCII
 * bytes, or junk after the NUL, duplicate names, and file ranges that are
 * unaligned, inside the table, past the end or wrapping are -EINVAL; a
 * failed open leaves an empty archive; archive_entry is -ENOENT past the
 * end and takes NULL outputs; archive_find matches whole names only;
 * random corruption never yields an entry reaching outside the data.
 */
#include "check.h"
#include "../../kernel/boot/archive.h"
#include "../../kernel/lib/errno.h"

#define TABLE(n) (16 + 48 * (uint64_t)(n))      /* end of the table of n entries */
#define MAX_BYTES (TABLE(ARCHIVE_MAX_ENTRIES + 1) + 64)

static uint8_t arc[MAX_BYTES];
static uint64_t arc_size;
static struct archive ar;

static void put_le(uint64_t at, uint64_t v, int n)
{
	for (int i = 0; i < n; i++)
		arc[at + i] = (uint8_t)(v >> 8 * i);
}

static void header(uint32_t count)
{
	memset(arc, 0, sizeof arc);
	memcpy(arc, "HAKOARC1", 8);
	put_le(8, count, 4);
}

/* Entry i; name is copied without its NUL (the rest of the field is zeroed). */
static void entry(uint32_t i, const char *name, uint64_t off, uint64_t size)
{
	memset(arc + TABLE(i), 0, 32);
	memcpy(arc + TABLE(i), name, strlen(name));
	put_le(TABLE(i) + 32, off, 8);
	put_le(TABLE(i) + 40, size, 8);
}

/* The standard archive: init at 160 (40 bytes), hello at 208 (6), empty. */
static void standard(void)
{
	header(3);
	entry(0, "init", TABLE(3), 40);
	entry(1, "hello", TABLE(3) + 48, 6);
	entry(2, "empty", TABLE(3) + 48, 0);
	for (int i = 0; i < 40; i++)
		arc[TABLE(3) + i] = (uint8_t)(0xa0 + i);
	memcpy(arc + TABLE(3) + 48, "hello\n", 6);
	arc_size = TABLE(3) + 48 + 6;
}

/* Open a copy of the first n bytes at an exact allocation, + shift; it lives until the case ends. */
static int open_at(uint64_t n, size_t shift)
{
	uint8_t *buf = check_alloc(n + shift);
	memcpy(buf + shift, arc, n);
	return archive_open(&ar, buf + shift, n);
}

static int open_all(void) { return open_at(arc_size, 0); }

/* archive_open on the first n bytes, the copy freed at once (for loops). */
static int open_brief(uint64_t n)
{
	uint8_t *buf = malloc(n ? n : 1);
	memcpy(buf, arc, n);
	int rc = archive_open(&ar, buf, n);
	free(buf);
	return rc;
}

/* From the standard archive, one change makes it -EINVAL. */
#define REJECTS(change) do { standard(); change; CHECK_EQ(open_all(), -EINVAL); } while (0)

TEST(standard_archive)
{
	static const char *names[] = { "init", "hello", "empty" };
	static const uint64_t sizes[] = { 40, 6, 0 };
	standard();
	CHECK_EQ(open_all(), 0);
	CHECK_EQ(ar.count, 3);
	CHECK_EQ(ar.size, arc_size);
	for (uint32_t i = 0; i < 3; i++) {
		const char *name = NULL;
		const void *data = NULL;
		uint64_t size = 99;
		CHECK_EQ(archive_entry(&ar, i, &name, &data, &size), 0);
		CHECK_STR(name, names[i]);
		CHECK_EQ(size, sizes[i]);
		CHECK_PTR(data, ar.base + (i ? TABLE(3) + 48 : TABLE(3)));
	}
	const void *data;
	CHECK_EQ(archive_entry(&ar, 1, NULL, &data, NULL), 0);
	CHECK_MEM(data, "hello\n", 6);
	CHECK_EQ(archive_entry(&ar, 0, NULL, &data, NULL), 0);
	CHECK_EQ(((const uint8_t *)data)[39], 0xa0 + 39);
}

TEST(any_alignment)
{
	standard();
	for (size_t shift = 1; shift < 16; shift++) {
		CHECK_EQ(open_at(arc_size, shift), 0);
		const void *data;
		CHECK_EQ(archive_find(&ar, "hello", &data, NULL), 0);
		CHECK_MEM(data, "hello\n", 6);
	}
}

TEST(empty_archive)
{
	header(0);
	arc_size = 16;
	CHECK_EQ(open_all(), 0);
	CHECK_EQ(ar.count, 0);
	CHECK_EQ(archive_entry(&ar, 0, NULL, NULL, NULL), -ENOENT);
	CHECK_EQ(archive_find(&ar, "init", NULL, NULL), -ENOENT);
	arc_size = 64;                  /* trailing bytes are allowed */
	CHECK_EQ(open_all(), 0);
}

TEST(every_truncation_rejected)
{
	standard();
	for (uint64_t n = 0; n < arc_size; n++)
		if (open_brief(n) != -EINVAL) {
			check_fail(__FILE__, __LINE__, "a prefix of %" PRIu64 " bytes was accepted", n);
			return;
		}
	CHECK_EQ(archive_open(&ar, NULL, 0), -EINVAL);
	CHECK_EQ(archive_open(&ar, NULL, 4096), -EINVAL);
}

TEST(bad_magic_and_reserved)
{
	for (int i = 0; i < 8; i++)
		REJECTS(arc[i] ^= 0x01);
	REJECTS(arc[12] = 1);
	REJECTS(arc[15] = 0x80);
}

TEST(count_limit)
{
	/* 257 valid empty entries after a 257-entry table. */
	uint64_t end = TABLE(ARCHIVE_MAX_ENTRIES + 1);
	header(ARCHIVE_MAX_ENTRIES);
	for (uint32_t i = 0; i <= ARCHIVE_MAX_ENTRIES; i++) {
		char name[16];
		snprintf(name, sizeof name, "f%03u", i);
		entry(i, name, end, 0);
	}
	arc_size = end;
	CHECK_EQ(open_all(), 0);
	CHECK_EQ(ar.count, ARCHIVE_MAX_ENTRIES);
	const void *data;
	CHECK_EQ(archive_find(&ar, "f255", &data, NULL), 0);
	CHECK_PTR(data, ar.base + end);
	put_le(8, ARCHIVE_MAX_ENTRIES + 1, 4);
	CHECK_EQ(open_all(), -EINVAL);
	put_le(8, UINT32_MAX, 4);
	CHECK_EQ(open_all(), -EINVAL);
}

TEST(table_past_end)
{
	REJECTS(put_le(8, 5, 4));       /* 16 + 5 * 48 bytes: more than the archive */
	REJECTS(put_le(8, 4, 4));       /* fits, but entry 3 is init's data: not a name */
}

TEST(bad_names)
{
	static const char *bad[] = { "", "a/b", "/", "a b", "tab\there", "bell\a", "del\x7f", "caf\xc3\xa9" };
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
		REJECTS(entry(1, bad[i], TABLE(3) + 48, 6));
	REJECTS(memset(arc + TABLE(1), 'x', 32));       /* no NUL in 32 bytes */
	REJECTS(arc[TABLE(1) + 31] = 'x');              /* junk after the NUL */
	REJECTS(arc[TABLE(1) + 6] = 'x');
	standard();                                     /* 31 characters: fine */
	entry(1, "abcdefghijklmnopqrstuvwxyz01234", TABLE(3) + 48, 6);
	CHECK_EQ(open_all(), 0);
	CHECK_EQ(archive_find(&ar, "abcdefghijklmnopqrstuvwxyz01234", NULL, NULL), 0);
	entry(1, "!~.-_+=@", TABLE(3) + 48, 6);         /* punctuation is printable */
	CHECK_EQ(open_all(), 0);
}

TEST(duplicate_names)
{
	REJECTS(entry(2, "init", TABLE(3), 0));
	REJECTS(entry(2, "hello", TABLE(3) + 48, 6));
	standard();
	entry(2, "Init", TABLE(3), 0);                  /* names are case sensitive */
	CHECK_EQ(open_all(), 0);
}

TEST(bad_file_ranges)
{
	static const struct { uint64_t off, size; } bad[] = {
		{ TABLE(3) + 8, 6 },            /* unaligned */
		{ TABLE(3) + 1, 0 },
		{ 0, 6 },                       /* over the header */
		{ TABLE(2), 6 },                /* inside the table */
		{ TABLE(3) + 48, 7 },           /* one byte past the end */
		{ TABLE(3) + 64, 0 },           /* starts past the end */
		{ 0xfffffffffffffff0ull, 0x20 },        /* offset + size wraps to 0x10 */
		{ TABLE(3), UINT64_MAX },
		{ (1ull << 32) + TABLE(3) + 48, 6 },    /* fine if only the low half were read */
		{ TABLE(3) + 48, (1ull << 32) + 6 },
	};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
		REJECTS(entry(1, "hello", bad[i].off, bad[i].size));
	standard();
	entry(2, "empty", TABLE(3) + 48, 0);            /* empty, at the very end: fine */
	arc_size = TABLE(3) + 48;
	entry(1, "hello", TABLE(3) + 32, 16);           /* overlapping init's bytes: fine */
	CHECK_EQ(open_all(), 0);
}

TEST(failed_open_leaves_empty_archive)
{
	standard();
	CHECK_EQ(open_all(), 0);
	REJECTS(arc[0] = 'X');
	CHECK_PTR(ar.base, NULL);
	CHECK_EQ(ar.count, 0);
	CHECK_EQ(archive_find(&ar, "init", NULL, NULL), -ENOENT);
	CHECK_EQ(archive_entry(&ar, 0, NULL, NULL, NULL), -ENOENT);
}

TEST(entry_past_the_end)
{
	standard();
	CHECK_EQ(open_all(), 0);
	const char *name = "untouched";
	CHECK_EQ(archive_entry(&ar, 3, &name, NULL, NULL), -ENOENT);
	CHECK_EQ(archive_entry(&ar, UINT32_MAX, &name, NULL, NULL), -ENOENT);
	CHECK_STR(name, "untouched");
	CHECK_EQ(archive_entry(&ar, 2, NULL, NULL, NULL), 0);
}

TEST(find_whole_names)
{
	standard();
	CHECK_EQ(open_all(), 0);
	const void *data = NULL;
	uint64_t size = 0;
	CHECK_EQ(archive_find(&ar, "init", &data, &size), 0);
	CHECK_PTR(data, ar.base + TABLE(3));
	CHECK_EQ(size, 40);
	CHECK_EQ(archive_find(&ar, "empty", &data, &size), 0);
	CHECK_EQ(size, 0);
	static const char *missing[] = { "", "ini", "init2", "INIT", "hello\n", "/init", "emptyy",
					 "a-name-much-longer-than-thirty-two-bytes" };
	for (size_t i = 0; i < sizeof missing / sizeof missing[0]; i++) {
		data = "untouched";
		CHECK_EQ(archive_find(&ar, missing[i], &data, &size), -ENOENT);
		CHECK_STR(data, "untouched");
	}
	CHECK_EQ(archive_find(&ar, NULL, NULL, NULL), -ENOENT);
}

TEST(random_corruption)
{
	uint64_t rng = 99;
	int accepted = 0;
	for (int round = 0; round < 20000; round++) {
		standard();
		for (int k = 0; k <= round % 3; k++) {  /* 1 to 3 bytes of the header and table */
			rng = rng * 6364136223846793005ull + 1442695040888963407ull;
			arc[(rng >> 33) % TABLE(3)] = (uint8_t)(rng >> 20);
		}
		uint8_t *buf = malloc(arc_size);
		memcpy(buf, arc, arc_size);
		if (archive_open(&ar, buf, arc_size) == 0) {
			accepted++;
			for (uint32_t i = 0; i < ar.count; i++) {
				const char *name;
				const void *data;
				uint64_t size;
				archive_entry(&ar, i, &name, &data, &size);
				const uint8_t *d = data;
				if (strlen(name) >= 32 || d < buf + TABLE(ar.count) || d > buf + arc_size ||
				    size > (uint64_t)(buf + arc_size - d)) {
					free(buf);
					check_fail(__FILE__, __LINE__, "round %d: entry %u is unsound", round, i);
					return;
				}
			}
		}
		free(buf);
	}
	CHECK(accepted > 0);
}
