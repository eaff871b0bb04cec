/*
 * bootparams.c — r2d's boot parameters as a multiboot 1 information block.
 *
 * QEMU's r2d board leaves Linux's "zero page" at SDRAM + 0x10000: the
 * initrd's offset from the start of SDRAM and its size (-initrd, loaded at
 * SDRAM + 0x1800000) and, at +0x100, the command line (-append, 256 bytes,
 * not always NUL-terminated).  The boot entry (boot.S) calls
 * sh4_build_bootinfo before kmain: it writes the same facts as a
 * multiboot 1 block (memory map: the 64 MiB of SDRAM but the file window
 * below; the command line; the initrd as the first module), so the
 * generic bootinfo_parse reads them as it reads QEMU's x86 multiboot
 * loader's.
 *
 * r2d has no fw_cfg, and its command line holds 256 bytes.  The harness
 * loads longer text (QEMU's generic loader, -device loader,file=F,addr=A)
 * into the file window, 64 KiB under the kernel: a header ("HAKOFILE", the
 * name in 56 bytes, the length) and the bytes.  arch_fw_read_file reads
 * it there as x86 reads a fw_cfg file.
 */
#include <stdint.h>
#include <string.h>
#include <multiboot1.h>
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
#define FILE_WINDOW    (KERNEL_PHYS_BASE - 0x10000u)        /* 64 KiB */
#define FILE_MAGIC     "HAKOFILE"


static struct {
	struct mb1_info info;
	struct mb1_mmap_entry mmap[2];
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
		.base = SDRAM_BASE, .len = FILE_WINDOW - SDRAM_BASE, .type = 1 };
	block.mmap[1] = (struct mb1_mmap_entry){ .size = sizeof block.mmap[1] - 4,
		.base = KERNEL_PHYS_BASE, .len = SDRAM_BASE + SDRAM_SIZE - KERNEL_PHYS_BASE, .type = 1 };
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

/* The file the harness loaded into the window, if its name is name. */
int arch_fw_read_file(const char *name, char *buf, uint32_t size)
{
	const struct { char magic[8]; char name[56]; uint32_t len; } *h = (const void *)(0x80000000u + FILE_WINDOW);
	if (memcmp(h->magic, FILE_MAGIC, 8) != 0 || strncmp(h->name, name, sizeof h->name) != 0 ||
	    h->len > 0x10000u - sizeof *h || size == 0)
		return -1;
	uint32_t len = h->len < size ? h->len : size - 1;
	memcpy(buf, (const char *)(h + 1), len);
	buf[len] = 0;
	return (int)h->len;
}
