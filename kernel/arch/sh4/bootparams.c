/*
 * bootparams.c — r2d's boot parameters as a multiboot 1 information block.
 *
 * QEMU's r2d board leaves Linux's "zero page" at SDRAM + 0x10000: the
 * initrd's offset from the start of SDRAM and its size (-initrd, loaded at
 * SDRAM + 0x1800000) and, at +0x100, the command line (-append, 256 bytes,
 * not always NUL-terminated).  The boot entry (boot.S) calls
 * sh4_build_bootinfo before kmain: it writes the same facts as a
 * multiboot 1 block (memory map: the 64 MiB of SDRAM; the command line;
 * the initrd as the first module), so the generic bootinfo_parse reads
 * them as it reads QEMU's x86 multiboot loader's.
 */
#include <stdint.h>
#include <string.h>
#include <arch/layout.h>
#include <arch/trapframe.h>
#include "sh4.h"

#define SDRAM_BASE   0x0c000000u
#define SDRAM_SIZE   0x04000000u
#define PARAMS       (0x80000000u + SDRAM_BASE + 0x10000u)   /* through P1 */
#define P_INITRD_START 0x10
#define P_INITRD_SIZE  0x14
#define P_CMDLINE      0x100
#define CMDLINE_BYTES  256

#define MB1_FLAG_MEM     (1u << 0)
#define MB1_FLAG_CMDLINE (1u << 2)
#define MB1_FLAG_MODS    (1u << 3)
#define MB1_FLAG_MMAP    (1u << 6)

/* The multiboot 1 layouts (the Multiboot Specification 0.6.96, 3.3). */
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

static struct {
	struct mb1_info info;
	struct mb1_mmap_entry mmap[1];
	struct mb1_module mod;
	char cmdline[CMDLINE_BYTES + 1];
	char mod_name[8];
} block;

static uint32_t phys(const void *p) { return (uint32_t)p - 0x80000000u; }

uint32_t sh4_build_bootinfo(void)
{
	const uint8_t *params = (const uint8_t *)PARAMS;
	uint32_t initrd_off = *(const uint32_t *)(params + P_INITRD_START);
	uint32_t initrd_size = *(const uint32_t *)(params + P_INITRD_SIZE);

	memcpy(block.cmdline, params + P_CMDLINE, CMDLINE_BYTES);
	block.cmdline[CMDLINE_BYTES] = 0;
	block.mmap[0] = (struct mb1_mmap_entry){ .size = sizeof block.mmap[0] - 4,
		.base = SDRAM_BASE, .len = SDRAM_SIZE, .type = 1 };
	block.info.flags = MB1_FLAG_MEM | MB1_FLAG_CMDLINE | MB1_FLAG_MMAP;
	block.info.mem_upper = SDRAM_SIZE / 1024;
	block.info.cmdline = phys(block.cmdline);
	block.info.mmap_addr = phys(block.mmap);
	block.info.mmap_length = sizeof block.mmap;
	if (initrd_size && initrd_off < SDRAM_SIZE && initrd_size <= SDRAM_SIZE - initrd_off) {
		strcpy(block.mod_name, "initrd");
		block.mod = (struct mb1_module){ .start = SDRAM_BASE + initrd_off,
			.end = SDRAM_BASE + initrd_off + initrd_size, .string = phys(block.mod_name) };
		block.info.flags |= MB1_FLAG_MODS;
		block.info.mods_count = 1;
		block.info.mods_addr = phys(&block.mod);
	}
	return phys(&block.info);
}
