/*
 * initrd.c — the boot archive of user programs.
 *
 * The loader hands it over as a boot module (QEMU's -initrd for multiboot
 * 1, GRUB's module2 for the ISO).  It stays where the loader put it (the
 * frame allocator never hands those frames out) and is read through the
 * direct map; archive.c checked its layout once, here.
 */
#include <stdint.h>
#include <archive.h>
#include <errno.h>
#include <kprintf.h>
#include <proc.h>

static struct archive programs;
static bool present;

void initrd_init(const void *data, uint64_t size)
{
	if (!data) {
		kprintf("initrd: no boot module: no user programs\n");
		return;
	}
	int err = archive_open(&programs, data, size);
	if (err < 0) {
		kprintf("initrd: the boot module is not a program archive (%d)\n", err);
		return;
	}
	present = true;
	kprintf("initrd: %u programs, %lu bytes\n", programs.count, size);
}

int initrd_find(const char *name, const void **data, uint64_t *size)
{
	return present ? archive_find(&programs, name, data, size) : -ENOENT;
}

int initrd_name(int index, const char **name)
{
	const void *data;
	uint64_t size;
	if (!present || index < 0)
		return -ENOENT;
	return archive_entry(&programs, (uint32_t)index, name, &data, &size);
}
