/*
 * archive.c — reading the boot-module archive (pure; host-tested).
 *
 * The format is described in archive.h.  archive_open checks the whole
 * entry table once, reading integers byte by byte (the module may sit at
 * any alignment) and every range with arithmetic that cannot wrap; after
 * that archive_entry and archive_find index the table without checks.
 */
#include <stdint.h>
#include <string.h>
#include <errno.h>
#include <archive.h>

/* Byte offsets inside an entry. */
#define ENTRY_NAME 0
#define ENTRY_OFFSET 32
#define ENTRY_SIZE 40

static uint32_t get_le32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static uint64_t get_le64(const uint8_t *p)
{
	return (uint64_t)get_le32(p) | (uint64_t)get_le32(p + 4) << 32;
}

static const uint8_t *entry_at(const struct archive *a, uint32_t index)
{
	return a->base + ARCHIVE_HEADER_SIZE + (uint64_t)index * ARCHIVE_ENTRY_SIZE;
}

/* 1..31 visible ASCII characters but '/', then NULs to the end of name[]. */
static int name_ok(const uint8_t *name)
{
	size_t len = strnlen((const char *)name, ARCHIVE_NAME_MAX);
	if (len == 0 || len == ARCHIVE_NAME_MAX)
		return 0;
	for (size_t i = 0; i < len; i++)
		if (name[i] < 0x21 || name[i] > 0x7e || name[i] == '/')
			return 0;
	for (size_t i = len; i < ARCHIVE_NAME_MAX; i++)
		if (name[i])
			return 0;
	return 1;
}

/* The file's data is aligned, after the entry table and inside the archive. */
static int range_ok(const uint8_t *e, uint64_t table_end, uint64_t size)
{
	uint64_t off = get_le64(e + ENTRY_OFFSET);
	uint64_t len = get_le64(e + ENTRY_SIZE);
	return off % ARCHIVE_ALIGN == 0 && off >= table_end && off <= size && len <= size - off;
}

/* Entry index's name differs from every earlier one (names are NUL padded). */
static int name_unique(const struct archive *a, uint32_t index)
{
	const uint8_t *name = entry_at(a, index) + ENTRY_NAME;
	for (uint32_t i = 0; i < index; i++)
		if (memcmp(entry_at(a, i) + ENTRY_NAME, name, ARCHIVE_NAME_MAX) == 0)
			return 0;
	return 1;
}

static int entries_ok(const struct archive *a, uint64_t table_end)
{
	for (uint32_t i = 0; i < a->count; i++) {
		const uint8_t *e = entry_at(a, i);
		if (!name_ok(e + ENTRY_NAME) || !range_ok(e, table_end, a->size) ||
		    !name_unique(a, i))
			return 0;
	}
	return 1;
}

int archive_open(struct archive *a, const void *data, uint64_t size)
{
	const uint8_t *p = data;
	memset(a, 0, sizeof *a);
	if (!p || size < ARCHIVE_HEADER_SIZE)
		return -EINVAL;
	if (memcmp(p, ARCHIVE_MAGIC, sizeof ARCHIVE_MAGIC - 1) != 0 || get_le32(p + 12) != 0)
		return -EINVAL;
	uint32_t count = get_le32(p + 8);
	if (count > ARCHIVE_MAX_ENTRIES)
		return -EINVAL;
	/* count <= 256, so this cannot wrap. */
	uint64_t table_end = ARCHIVE_HEADER_SIZE + (uint64_t)count * ARCHIVE_ENTRY_SIZE;
	if (table_end > size)
		return -EINVAL;
	struct archive checked = { .base = p, .size = size, .count = count };
	if (!entries_ok(&checked, table_end))
		return -EINVAL;
	*a = checked;
	return 0;
}

int archive_entry(const struct archive *a, uint32_t index, const char **name,
		  const void **data, uint64_t *size)
{
	if (index >= a->count)
		return -ENOENT;
	const uint8_t *e = entry_at(a, index);
	if (name)
		*name = (const char *)(e + ENTRY_NAME);
	if (data)
		*data = a->base + get_le64(e + ENTRY_OFFSET);
	if (size)
		*size = get_le64(e + ENTRY_SIZE);
	return 0;
}

int archive_find(const struct archive *a, const char *name, const void **data, uint64_t *size)
{
	if (!name)
		return -ENOENT;
	for (uint32_t i = 0; i < a->count; i++)
		if (strcmp((const char *)(entry_at(a, i) + ENTRY_NAME), name) == 0)
			return archive_entry(a, i, NULL, data, size);
	return -ENOENT;
}
