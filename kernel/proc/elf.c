/*
 * elf.c — the ELF executable parser (pure; host-tested).
 *
 * Hako runs static executables of its arch only: ELF64 x86_64, or ELF32
 * SH (arch/layout.h: ARCH_ELF_CLASS, ARCH_ELF_MACHINE).  An ELF32 file's
 * headers are widened into the ELF64 structures and checked the same way.  Every header is copied out of
 * the image with memcpy, since the image may sit at any alignment, and
 * every offset and length taken from the file is checked with arithmetic
 * that cannot wrap: whatever the bytes, elf_parse reads nothing outside
 * data[0..size) and answers 0 or -ENOEXEC.
 */
#include <stdint.h>
#include <string.h>
#include <errno.h>
#include <elf.h>
#include <arch/layout.h>

/* ---- the file format (System V gABI, ELF-64) ---------------------------- */

#define EI_NIDENT 16
#define EI_CLASS 4
#define EI_DATA 5
#define EI_VERSION 6
#define ELFCLASS32 1
#define ELFCLASS64 2
#define ELFDATA2LSB 1
#define EV_CURRENT 1
#define ET_EXEC 2
#define PN_XNUM 0xffff          /* extended numbering: not supported */

#define PT_LOAD 1
#define PT_DYNAMIC 2
#define PT_INTERP 3

#define PF_X 1
#define PF_W 2
#define PF_R 4

typedef struct {
	uint8_t e_ident[EI_NIDENT];
	uint16_t e_type;
	uint16_t e_machine;
	uint32_t e_version;
	uint64_t e_entry;
	uint64_t e_phoff;
	uint64_t e_shoff;
	uint32_t e_flags;
	uint16_t e_ehsize;
	uint16_t e_phentsize;
	uint16_t e_phnum;
	uint16_t e_shentsize;
	uint16_t e_shnum;
	uint16_t e_shstrndx;
} Elf64_Ehdr;

typedef struct {
	uint32_t p_type;
	uint32_t p_flags;
	uint64_t p_offset;
	uint64_t p_vaddr;
	uint64_t p_paddr;
	uint64_t p_filesz;
	uint64_t p_memsz;
	uint64_t p_align;
} Elf64_Phdr;

typedef struct {
	uint8_t e_ident[EI_NIDENT];
	uint16_t e_type;
	uint16_t e_machine;
	uint32_t e_version;
	uint32_t e_entry;
	uint32_t e_phoff;
	uint32_t e_shoff;
	uint32_t e_flags;
	uint16_t e_ehsize;
	uint16_t e_phentsize;
	uint16_t e_phnum;
	uint16_t e_shentsize;
	uint16_t e_shnum;
	uint16_t e_shstrndx;
} Elf32_Ehdr;

typedef struct {
	uint32_t p_type;
	uint32_t p_offset;
	uint32_t p_vaddr;
	uint32_t p_paddr;
	uint32_t p_filesz;
	uint32_t p_memsz;
	uint32_t p_flags;
	uint32_t p_align;
} Elf32_Phdr;

_Static_assert(sizeof(Elf64_Ehdr) == 64, "ELF64 file header is 64 bytes");
_Static_assert(sizeof(Elf64_Phdr) == 56, "ELF64 program header is 56 bytes");
_Static_assert(sizeof(Elf32_Ehdr) == 52, "ELF32 file header is 52 bytes");
_Static_assert(sizeof(Elf32_Phdr) == 32, "ELF32 program header is 32 bytes");

/* The arch's file class: its headers' sizes. */
#define EHDR_SIZE (ARCH_ELF_CLASS == ELFCLASS64 ? sizeof(Elf64_Ehdr) : sizeof(Elf32_Ehdr))
#define PHDR_SIZE (ARCH_ELF_CLASS == ELFCLASS64 ? sizeof(Elf64_Phdr) : sizeof(Elf32_Phdr))

#define PAGE_SHIFT 12
_Static_assert(ELF_PAGE_SIZE == 1 << PAGE_SHIFT, "page size and shift agree");

/* ---- checks --------------------------------------------------------------- */

/* [off, off + len) lies inside a file of size bytes, without wrapping. */
static int in_file(uint64_t off, uint64_t len, uint64_t size)
{
	return off <= size && len <= size - off;
}

static int ident_ok(const Elf64_Ehdr *h)
{
	return h->e_ident[0] == 0x7f && h->e_ident[1] == 'E' &&
	       h->e_ident[2] == 'L' && h->e_ident[3] == 'F' &&
	       h->e_ident[EI_CLASS] == ARCH_ELF_CLASS &&
	       h->e_ident[EI_DATA] == ELFDATA2LSB &&
	       h->e_ident[EI_VERSION] == EV_CURRENT;
}

/* The file header describes an executable of this arch whose program headers fit. */
static int header_ok(const Elf64_Ehdr *h, uint64_t size)
{
	if (!ident_ok(h) || h->e_version != EV_CURRENT)
		return 0;
	if (h->e_type != ET_EXEC || h->e_machine != ARCH_ELF_MACHINE)
		return 0;
	if (h->e_phentsize != PHDR_SIZE || h->e_phnum == PN_XNUM)
		return 0;
	/* e_phnum < 2^16, so the product cannot wrap. */
	return in_file(h->e_phoff, (uint64_t)h->e_phnum * PHDR_SIZE, size);
}

/* The file header at data (size >= EHDR_SIZE), widened to ELF64's form. */
static void read_ehdr(const uint8_t *data, Elf64_Ehdr *h)
{
	if (ARCH_ELF_CLASS == ELFCLASS64) {
		memcpy(h, data, sizeof *h);
		return;
	}
	Elf32_Ehdr e;
	memcpy(&e, data, sizeof e);
	*h = (Elf64_Ehdr){ .e_type = e.e_type, .e_machine = e.e_machine, .e_version = e.e_version,
		.e_entry = e.e_entry, .e_phoff = e.e_phoff, .e_shoff = e.e_shoff, .e_flags = e.e_flags,
		.e_ehsize = e.e_ehsize, .e_phentsize = e.e_phentsize, .e_phnum = e.e_phnum,
		.e_shentsize = e.e_shentsize, .e_shnum = e.e_shnum, .e_shstrndx = e.e_shstrndx };
	memcpy(h->e_ident, e.e_ident, EI_NIDENT);
}

/* The program header at p, widened to ELF64's form. */
static void read_phdr(const uint8_t *p, Elf64_Phdr *out)
{
	if (ARCH_ELF_CLASS == ELFCLASS64) {
		memcpy(out, p, sizeof *out);
		return;
	}
	Elf32_Phdr q;
	memcpy(&q, p, sizeof q);
	*out = (Elf64_Phdr){ .p_type = q.p_type, .p_flags = q.p_flags, .p_offset = q.p_offset,
		.p_vaddr = q.p_vaddr, .p_paddr = q.p_paddr, .p_filesz = q.p_filesz,
		.p_memsz = q.p_memsz, .p_align = q.p_align };
}

static unsigned seg_flags(uint32_t p_flags)
{
	unsigned f = 0;
	if (p_flags & PF_R)
		f |= ELF_SEG_R;
	if (p_flags & PF_W)
		f |= ELF_SEG_W;
	if (p_flags & PF_X)
		f |= ELF_SEG_X;
	return f;
}

/* Page numbers of the first and last byte of s (memsz > 0, no wrap). */
static uint64_t first_page(const struct elf_segment *s)
{
	return s->vaddr >> PAGE_SHIFT;
}

static uint64_t last_page(const struct elf_segment *s)
{
	return (s->vaddr + s->memsz - 1) >> PAGE_SHIFT;
}

/*
 * A segment with memsz > 0 is sound: its file bytes are in the file, it
 * does not wrap, it can be mapped page by page (vaddr and offset agree
 * modulo the page size), every page it touches is inside [lo, hi), and it
 * shares no page with the n segments already in img.
 */
static int seg_ok(const struct elf_segment *s, uint64_t size, uint64_t lo, uint64_t hi,
		  const struct elf_image *img, int n)
{
	if (!in_file(s->offset, s->filesz, size))
		return 0;
	if (s->memsz > UINT64_MAX - s->vaddr)
		return 0;
	if ((s->vaddr & (ELF_PAGE_SIZE - 1)) != (s->offset & (ELF_PAGE_SIZE - 1)))
		return 0;
	/* The first page starts at or above lo, the last ends at or below hi. */
	if ((first_page(s) << PAGE_SHIFT) < lo || last_page(s) >= (hi >> PAGE_SHIFT))
		return 0;
	for (int i = 0; i < n; i++) {
		const struct elf_segment *t = &img->segs[i];
		if (first_page(s) <= last_page(t) && first_page(t) <= last_page(s))
			return 0;
	}
	return 1;
}

/* Add the segment a PT_LOAD header describes to img; 0 or -ENOEXEC. */
static int add_load(struct elf_image *img, const Elf64_Phdr *p, uint64_t size,
		    uint64_t lo, uint64_t hi)
{
	if (p->p_filesz > p->p_memsz)
		return -ENOEXEC;
	if (p->p_memsz == 0)
		return 0;               /* maps nothing: dropped */
	struct elf_segment s = {
		.vaddr = p->p_vaddr, .memsz = p->p_memsz,
		.offset = p->p_offset, .filesz = p->p_filesz,
		.flags = seg_flags(p->p_flags),
	};
	if (img->nsegs == ELF_MAX_SEGS || !seg_ok(&s, size, lo, hi, img, img->nsegs))
		return -ENOEXEC;
	img->segs[img->nsegs++] = s;
	return 0;
}

/* The entry point lies inside an executable segment. */
static int entry_ok(const struct elf_image *img)
{
	for (int i = 0; i < img->nsegs; i++) {
		const struct elf_segment *s = &img->segs[i];
		if ((s->flags & ELF_SEG_X) && img->entry >= s->vaddr &&
		    img->entry - s->vaddr < s->memsz)
			return 1;
	}
	return 0;
}

/* Walk the program headers into img; 0 or -ENOEXEC. */
static int read_phdrs(const uint8_t *data, uint64_t size, const Elf64_Ehdr *h,
		      uint64_t lo, uint64_t hi, struct elf_image *img)
{
	for (unsigned i = 0; i < h->e_phnum; i++) {
		Elf64_Phdr p;
		read_phdr(data + h->e_phoff + (uint64_t)i * PHDR_SIZE, &p);
		if (p.p_type == PT_INTERP || p.p_type == PT_DYNAMIC)
			return -ENOEXEC;        /* needs a dynamic linker */
		if (p.p_type != PT_LOAD)
			continue;
		int err = add_load(img, &p, size, lo, hi);
		if (err)
			return err;
	}
	return 0;
}

static int parse(const uint8_t *data, uint64_t size, uint64_t lo, uint64_t hi,
		 struct elf_image *img)
{
	Elf64_Ehdr h;
	if (!data || size < EHDR_SIZE)
		return -ENOEXEC;
	read_ehdr(data, &h);
	if (!header_ok(&h, size))
		return -ENOEXEC;
	int err = read_phdrs(data, size, &h, lo, hi, img);
	if (err)
		return err;
	img->entry = h.e_entry;
	/* An entry point needs a segment: this also demands at least one. */
	return entry_ok(img) ? 0 : -ENOEXEC;
}

int elf_parse(const void *data, uint64_t size, uint64_t lo, uint64_t hi, struct elf_image *out)
{
	memset(out, 0, sizeof *out);
	int err = parse(data, size, lo, hi, out);
	if (err)
		memset(out, 0, sizeof *out);
	return err;
}
