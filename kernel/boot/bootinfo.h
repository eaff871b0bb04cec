/*
 * bootinfo.h — what the boot loader told us, in one loader-neutral form.
 *
 * bootinfo_parse() reads a multiboot 1 or multiboot 2 information block.
 * It is pure code (memory in, struct out), unit-tested on the host.
 */
#ifndef HAKO_BOOTINFO_H
#define HAKO_BOOTINFO_H

#include <stdbool.h>
#include <stdint.h>

#define MB1_BOOT_MAGIC 0x2BADB002
#define MB2_BOOT_MAGIC 0x36d76289

#define MEM_USABLE   1
#define MEM_RESERVED 2
#define MEM_ACPI     3   /* ACPI reclaimable */
#define MEM_NVS      4
#define MEM_BAD      5

#define BOOT_MAX_REGIONS 64
#define BOOT_MAX_MODULES 16
#define BOOT_CMDLINE_MAX 1024        /* the harness's line with its test names (tests/harness/test_testall.py) */

struct mem_region {
	uint64_t base, len;
	uint32_t type;
};

struct boot_module {
	uint64_t start, end;         /* physical, end exclusive */
	char name[64];
};

struct bootinfo {
	const char *loader;          /* "multiboot1" or "multiboot2" */
	char cmdline[BOOT_CMDLINE_MAX];
	bool cmdline_cut;            /* the loader's line was longer: options_check refuses it */
	int nregions;
	struct mem_region regions[BOOT_MAX_REGIONS];
	int nmods;
	struct boot_module mods[BOOT_MAX_MODULES];
	uint64_t rsdp_phys;          /* 0: not given, scan for it */
	uint64_t info_phys, info_size;
};

/* p2v maps a physical address the loader gave to a pointer we may read. */
typedef const void *(*p2v_fn)(uint64_t phys);

int bootinfo_parse(uint32_t magic, uint64_t info_phys, p2v_fn p2v, struct bootinfo *bi);

#endif
