/*
 * archive.h — Hako's boot-module archive: the bundle of user programs the
 * boot loader hands the kernel as one module (built by tools/build/mkinitrd.py).
 *
 * Format, all integers little endian, offsets from the archive's start:
 *
 *     0   char magic[8]       "HAKOARC1" (no NUL)
 *     8   u32  count          entries, at most ARCHIVE_MAX_ENTRIES
 *     12  u32  reserved       0
 *     16  count entries of 48 bytes:
 *           0   char name[32]   NUL-terminated, the bytes after the NUL 0
 *           32  u64  offset     of the file's data, a multiple of 16
 *           40  u64  size       of the file's data in bytes
 *     then the file data.
 *
 * A name is 1..31 visible ASCII characters (0x21..0x7e) other than '/'
 * and no two entries share one.  Every file lies after the entry table
 * and inside the archive; files may be empty.  tools/build/mkinitrd.py writes
 * entries sorted by name and files in entry order, but readers rely on
 * neither.
 *
 * archive_open checks all of that once; the lookups then trust it.
 */
#ifndef HAKO_ARCHIVE_H
#define HAKO_ARCHIVE_H

#include <stdint.h>

#define ARCHIVE_MAGIC "HAKOARC1"
#define ARCHIVE_HEADER_SIZE 16
#define ARCHIVE_ENTRY_SIZE 48
#define ARCHIVE_NAME_MAX 32             /* bytes in name[], the NUL included */
#define ARCHIVE_ALIGN 16                /* file data offsets are multiples of this */
#define ARCHIVE_MAX_ENTRIES 256

struct archive {
	const uint8_t *base;
	uint64_t size;
	uint32_t count;
};

/*
 * Check the archive in data[0..size) and describe it in *a.  0, or
 * -EINVAL for anything malformed (then *a is an empty archive).  The data
 * must stay in place while *a is used.
 */
int archive_open(struct archive *a, const void *data, uint64_t size);

/*
 * Entry index (0..count-1): its name (NUL-terminated, inside the archive),
 * data and size.  0 or -ENOENT past the end.  Any of the out pointers may
 * be NULL.
 */
int archive_entry(const struct archive *a, uint32_t index, const char **name,
		  const void **data, uint64_t *size);

/* The file called name: 0 or -ENOENT.  data and size may be NULL. */
int archive_find(const struct archive *a, const char *name, const void **data, uint64_t *size);

#endif
