/*
 * elf.h — validating the static executables Hako runs as user programs
 * (ELF64 x86_64, ELF32 SH: the arch's, arch/layout.h).
 *
 * elf_parse is pure: it only reads the bytes it is given and fills a
 * struct elf_image that a loader can follow without further checks.  The
 * on-disk ELF structures are private to elf.c.
 */
#ifndef HAKO_ELF_H
#define HAKO_ELF_H

#include <stdint.h>

#define ELF_MAX_SEGS 8          /* loadable segments per image, at most */
#define ELF_PAGE_SIZE 4096      /* segments are mapped in pages of this size */

/* struct elf_segment.flags (not the ELF file's PF_* bit order). */
#define ELF_SEG_R 1
#define ELF_SEG_W 2
#define ELF_SEG_X 4

/*
 * One loadable segment: map [vaddr, vaddr + memsz), copy file bytes
 * [offset, offset + filesz) to vaddr and zero the rest.
 */
struct elf_segment {
	uint64_t vaddr, memsz, offset, filesz;
	unsigned flags;                 /* ELF_SEG_* */
};

struct elf_image {
	uint64_t entry;
	int nsegs;                      /* 1..ELF_MAX_SEGS, in file order */
	struct elf_segment segs[ELF_MAX_SEGS];
};

/*
 * Validate a static ELF64 x86_64 executable held in data[0..size) whose
 * loadable segments must all lie in [lo, hi); fill *out.  0 or -ENOEXEC
 * (then *out is zeroed).
 *
 * On success: every segment has 0 < memsz, filesz <= memsz, its file bytes
 * inside data, vaddr % ELF_PAGE_SIZE == offset % ELF_PAGE_SIZE, and every
 * page it touches inside [lo, hi) (lo and hi should be page aligned); no
 * two segments share a page; the entry point lies in an executable one.
 * Segments with memsz 0 are dropped.
 */
int elf_parse(const void *data, uint64_t size, uint64_t lo, uint64_t hi, struct elf_image *out);

#endif
