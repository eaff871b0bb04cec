/*
 * fwcfg.c — reading a named file from QEMU's fw_cfg device (I/O ports
 * 0x510 selector, 0x511 data; see QEMU docs/specs/fw_cfg.rst).
 *
 * The harness passes the kernel command line as opt/hako/cmdline when it
 * boots the GRUB ISO, whose own command line is fixed.
 */
#include <stdint.h>
#include <string.h>
#include "x86.h"
#include <arch/arch.h>

#define FW_CFG_SEL  0x510
#define FW_CFG_DATA 0x511
#define FW_CFG_SIGNATURE 0x0000
#define FW_CFG_FILE_DIR  0x0019

static uint32_t be32(uint32_t v) { return __builtin_bswap32(v); }
static uint16_t be16(uint16_t v) { return __builtin_bswap16(v); }

static void read_bytes(void *buf, uint32_t n)
{
	for (uint32_t i = 0; i < n; i++)
		((uint8_t *)buf)[i] = inb(FW_CFG_DATA);
}

/* Copy the named file into buf (NUL-terminated); -1 if absent. */
int arch_fw_read_file(const char *name, char *buf, uint32_t size)
{
	char sig[4];
	outw(FW_CFG_SEL, FW_CFG_SIGNATURE);
	read_bytes(sig, 4);
	if (memcmp(sig, "QEMU", 4) != 0)
		return -1;
	uint32_t count;
	outw(FW_CFG_SEL, FW_CFG_FILE_DIR);
	read_bytes(&count, 4);
	count = be32(count);
	for (uint32_t i = 0; i < count; i++) {
		struct { uint32_t size; uint16_t select, reserved; char name[56]; } f;
		read_bytes(&f, sizeof f);
		if (strncmp(f.name, name, sizeof f.name) != 0)
			continue;
		uint32_t full = be32(f.size), len = full < size ? full : size - 1;
		outw(FW_CFG_SEL, be16(f.select));
		read_bytes(buf, len);
		buf[len] = 0;
		return (int)full;
	}
	return -1;
}
