/*
 * multiboot1.h — the multiboot 1 information block's layouts (the Multiboot
 * Specification 0.6.96, 3.3): what bootinfo.c reads, and what a port whose
 * loader is not multiboot (SH-4's r2d, kernel/arch/sh4/bootparams.c) builds.
 */
#ifndef HAKO_MULTIBOOT1_H
#define HAKO_MULTIBOOT1_H

#include <stdint.h>

#define MB1_FLAG_MEM     (1u << 0)
#define MB1_FLAG_CMDLINE (1u << 2)
#define MB1_FLAG_MODS    (1u << 3)
#define MB1_FLAG_MMAP    (1u << 6)

struct mb1_info {
	uint32_t flags, mem_lower, mem_upper, boot_device, cmdline;
	uint32_t mods_count, mods_addr;
	uint32_t syms[4];
	uint32_t mmap_length, mmap_addr;
} __attribute__((packed));

struct mb1_mmap_entry {
	uint32_t size;
	uint64_t base, len;
	uint32_t type;
} __attribute__((packed));

struct mb1_module {
	uint32_t start, end, string, reserved;
};

#endif
