/*
 * test_elf.c — kernel/elf.c, validating static ELF64 executables.
 *
 * An executable is a model (file header and program headers) in
 * the host's <elf.h> types, independent of elf.c's own structs, emitted
 * into an allocation of exactly the file's size so AddressSanitizer fails
 * any read past it.  The valid model is a typical static program: text
 * R+X at 0x401000, data R+W with bss at 0x402000, a PT_GNU_STACK header.
 *
 * Proves: the valid model parses as expected at any alignment, PF_* map
 * to ELF_SEG_*; every strict prefix is -ENOEXEC; each check rejects on its
 * own (ident, version, type, machine, phentsize, PN_XNUM, table outside
 * the file or wrapping, PT_INTERP/PT_DYNAMIC, no loads, filesz > memsz,
 * file range, address wrap, [lo, hi) by whole pages, congruence, shared
 * pages, ELF_MAX_SEGS, entry); memsz 0 is dropped; *out is zeroed on
 * failure; random corruption never passes an unsound image; this test
 * program is refused (PT_INTERP) and parses once that is blanked.
 */
#include "check.h"
#include <elf.h>                        /* the host's, for the model */
#include <stddef.h>
#include "../../kernel/proc/elf.h"
#include "../../kernel/lib/errno.h"

#define LO 0x400000ull                  /* the user range the tests load into */
#define HI 0x800000000000ull
#define KBASE 0xffff800000000000ull
#define TEXT_VA 0x401000ull
#define DATA_VA 0x402000ull
#define MAX_PH 12
#define FSIZE 0x2010ull                 /* the file's size */

static struct {
	Elf64_Ehdr eh;
	Elf64_Phdr ph[MAX_PH];
} m;
static struct elf_image img;

static Elf64_Phdr load(uint32_t flags, uint64_t off, uint64_t va, uint64_t filesz, uint64_t memsz)
{
	return (Elf64_Phdr){ .p_type = PT_LOAD, .p_flags = flags, .p_offset = off, .p_vaddr = va,
			     .p_paddr = va, .p_filesz = filesz, .p_memsz = memsz, .p_align = 0x1000 };
}

/* The valid model; tests change it, then parse it. */
static void valid(void)
{
	memset(&m, 0, sizeof m);
	m.eh = (Elf64_Ehdr){
		.e_ident = { ELFMAG0, ELFMAG1, ELFMAG2, ELFMAG3, ELFCLASS64, ELFDATA2LSB, EV_CURRENT },
		.e_type = ET_EXEC, .e_machine = EM_X86_64, .e_version = EV_CURRENT,
		.e_entry = TEXT_VA + 0x10, .e_phoff = sizeof(Elf64_Ehdr), .e_ehsize = sizeof(Elf64_Ehdr),
		.e_phentsize = sizeof(Elf64_Phdr), .e_phnum = 3,
	};
	m.ph[0] = load(PF_R | PF_X, 0x1000, TEXT_VA, 0x100, 0x100);
	m.ph[1] = load(PF_R | PF_W, 0x2000, DATA_VA, 0x10, 0x2000);
	m.ph[2] = (Elf64_Phdr){ .p_type = PT_GNU_STACK, .p_flags = PF_R | PF_W };
}

/* The model's file: filler, then the headers where they fit (a table
 * offset past the end writes none, so a wrapping one cannot hit eh). */
static void emit(uint8_t *buf)
{
	for (uint64_t i = 0; i < FSIZE; i++)
		buf[i] = (uint8_t)(i * 7 + 3);
	memcpy(buf, &m.eh, sizeof m.eh);
	for (unsigned i = 0; i < m.eh.e_phnum && i < MAX_PH && m.eh.e_phoff <= FSIZE; i++) {
		uint64_t at = m.eh.e_phoff + i * sizeof(Elf64_Phdr);
		if (at <= FSIZE && sizeof(Elf64_Phdr) <= FSIZE - at)
			memcpy(buf + at, &m.ph[i], sizeof(Elf64_Phdr));
	}
}

/* Parse the first n bytes of the model's file, placed at buf + shift. */
static int parse_n(uint64_t n, size_t shift, uint64_t lo, uint64_t hi)
{
	static uint8_t full[FSIZE];
	uint8_t *buf = malloc(n + shift + 1);
	emit(full);
	memcpy(buf + shift, full, n);
	int rc = elf_parse(buf + shift, n, lo, hi, &img);
	free(buf);
	return rc;
}

static int parse_in(uint64_t lo, uint64_t hi) { return parse_n(FSIZE, 0, lo, hi); }
static int parse(void) { return parse_in(LO, HI); }

/* From the valid model, one change makes the file -ENOEXEC for [lo, hi). */
#define REJECTS_IN(lo, hi, change) do { valid(); change; CHECK_EQ(parse_in(lo, hi), -ENOEXEC); } while (0)
#define REJECTS(change) REJECTS_IN(LO, HI, change)

static bool seg_is(int i, uint64_t vaddr, uint64_t memsz, uint64_t offset, uint64_t filesz, unsigned flags)
{
	const struct elf_segment *s = &img.segs[i];
	return s->vaddr == vaddr && s->memsz == memsz && s->offset == offset &&
	       s->filesz == filesz && s->flags == flags;
}

TEST(valid_static_executable)
{
	valid();
	CHECK_EQ(parse(), 0);
	CHECK_EQ(img.entry, TEXT_VA + 0x10);
	CHECK_EQ(img.nsegs, 2);
	CHECK(seg_is(0, TEXT_VA, 0x100, 0x1000, 0x100, ELF_SEG_R | ELF_SEG_X));
	CHECK(seg_is(1, DATA_VA, 0x2000, 0x2000, 0x10, ELF_SEG_R | ELF_SEG_W));
}

TEST(any_alignment_of_data_and_headers)
{
	valid();
	for (size_t shift = 1; shift < 8; shift++)
		CHECK_EQ(parse_n(FSIZE, shift, LO, HI), 0);
	m.eh.e_phoff = 0x201;           /* odd, in the gap before the text */
	CHECK_EQ(parse_n(FSIZE, 3, LO, HI), 0);
	CHECK(seg_is(1, DATA_VA, 0x2000, 0x2000, 0x10, ELF_SEG_R | ELF_SEG_W));
}

TEST(flags_map_to_seg_bits)
{
	static const uint32_t pf[] = { PF_R, PF_W, PF_X, 0, PF_R | PF_W | PF_X };
	static const unsigned seg[] = { ELF_SEG_R, ELF_SEG_W, ELF_SEG_X, 0, ELF_SEG_R | ELF_SEG_W | ELF_SEG_X };
	for (int i = 0; i < 5; i++) {
		valid();
		m.ph[1].p_flags = pf[i];
		CHECK_EQ(parse(), 0);
		CHECK_EQ(img.segs[1].flags, seg[i]);
	}
}

TEST(every_truncation_rejected)
{
	valid();
	for (uint64_t n = 0; n < FSIZE; n++)
		if (parse_n(n, 0, LO, HI) != -ENOEXEC) {
			check_fail(__FILE__, __LINE__, "a prefix of %" PRIu64 " bytes was accepted", n);
			return;
		}
	CHECK_EQ(elf_parse(NULL, 0, LO, HI, &img), -ENOEXEC);
	CHECK_EQ(elf_parse(NULL, 4096, LO, HI, &img), -ENOEXEC);
}

TEST(failure_zeroes_out)
{
	static const struct elf_image zero;
	REJECTS(m.eh.e_entry = DATA_VA);        /* fails after the segments were read */
	CHECK_MEM(&img, &zero, sizeof img);
}

TEST(bad_ident)
{
	for (int i = 0; i < SELFMAG; i++)
		REJECTS(m.eh.e_ident[i] ^= 0x20);
	REJECTS(m.eh.e_ident[EI_CLASS] = ELFCLASS32);
	REJECTS(m.eh.e_ident[EI_CLASS] = ELFCLASSNONE);
	REJECTS(m.eh.e_ident[EI_CLASS] = 3);
	REJECTS(m.eh.e_ident[EI_DATA] = ELFDATA2MSB);
	REJECTS(m.eh.e_ident[EI_DATA] = ELFDATANONE);
	REJECTS(m.eh.e_ident[EI_VERSION] = EV_NONE);
	REJECTS(m.eh.e_ident[EI_VERSION] = 2);
}

TEST(bad_version_type_machine)
{
	static const uint16_t type[] = { ET_NONE, ET_REL, ET_DYN, ET_CORE, 0xfe00 };
	static const uint16_t machine[] = { EM_NONE, EM_386, EM_AARCH64, EM_RISCV, 0x3e00 };
	REJECTS(m.eh.e_version = EV_NONE);
	REJECTS(m.eh.e_version = 2);
	for (size_t i = 0; i < 5; i++) {
		REJECTS(m.eh.e_type = type[i]);
		REJECTS(m.eh.e_machine = machine[i]);
	}
}

TEST(bad_phentsize)
{
	static const uint16_t sizes[] = { 0, 32, 55, 57, 64 };
	for (size_t i = 0; i < 5; i++)
		REJECTS(m.eh.e_phentsize = sizes[i]);
}

/* A table really 0xfffe or 0xffff entries long, PT_NULL after the loads. */
TEST(pn_xnum_rejected)
{
	uint64_t size = sizeof m.eh + PN_XNUM * sizeof(Elf64_Phdr);
	uint8_t *buf = check_alloc(size);
	valid();
	m.eh.e_phnum = PN_XNUM - 1;
	memcpy(buf, &m.eh, sizeof m.eh);
	memcpy(buf + sizeof m.eh, m.ph, 2 * sizeof(Elf64_Phdr));
	CHECK_EQ(elf_parse(buf, size, LO, HI, &img), 0);
	buf[offsetof(Elf64_Ehdr, e_phnum)] = 0xff;      /* 0xffff: extended numbering */
	CHECK_EQ(elf_parse(buf, size, LO, HI, &img), -ENOEXEC);
}

TEST(program_headers_outside_file)
{
	valid();
	m.eh.e_phoff = FSIZE - 3 * sizeof(Elf64_Phdr);         /* exactly at the end: fine */
	CHECK_EQ(parse(), 0);
	static const uint64_t phoff[] = {
		FSIZE - 3 * 56 + 1, FSIZE, FSIZE + 1, UINT64_MAX, (uint64_t)1 << 63,
		UINT64_MAX - 55,                /* + 3 * 56 wraps to 112, inside the file */
	};
	for (size_t i = 0; i < sizeof phoff / sizeof phoff[0]; i++)
		REJECTS(m.eh.e_phoff = phoff[i]);
	REJECTS(m.eh.e_phnum = FSIZE / 56 + 1);        /* more than the file holds */
}

TEST(static_and_loadable_only)
{
	REJECTS(m.ph[2] = ((Elf64_Phdr){ .p_type = PT_INTERP, .p_offset = 0x200, .p_filesz = 0x20 }));
	REJECTS(m.ph[2] = ((Elf64_Phdr){ .p_type = PT_DYNAMIC, .p_offset = 0x200, .p_filesz = 0x20 }));
	REJECTS(m.eh.e_phnum = 0);
	REJECTS(m.ph[0].p_type = m.ph[1].p_type = PT_NOTE);
	REJECTS(m.ph[0].p_memsz = m.ph[0].p_filesz = m.ph[1].p_memsz = m.ph[1].p_filesz = 0);
}

TEST(empty_segments_dropped_filesz_within_memsz)
{
	valid();
	/* Nonsense anywhere else: memsz 0 maps nothing, so nothing is checked. */
	m.ph[2] = load(PF_X, UINT64_MAX, KBASE + 1, 0, 0);
	CHECK_EQ(parse(), 0);
	CHECK_EQ(img.nsegs, 2);
	REJECTS(m.ph[2] = load(PF_R, 0, TEXT_VA, 1, 0));        /* even with memsz 0 */
	REJECTS(m.ph[1].p_memsz = 0xf);
	m.ph[1].p_memsz = 0x10;
	CHECK_EQ(parse(), 0);
}

TEST(file_range_outside_or_wrapping)
{
	REJECTS(m.ph[1].p_filesz = m.ph[1].p_memsz = 0x11);    /* one byte past the end */
	REJECTS(m.ph[1].p_offset = 0x3000);                     /* starts past the end */
	REJECTS(m.ph[1].p_offset = 0xfffffffffffff000ull;       /* + filesz wraps to 0x10 */
		m.ph[1].p_filesz = 0x1010);
}

TEST(address_wrapping)
{
	REJECTS_IN(0, UINT64_MAX, m.ph[1].p_vaddr = 0xfffffffffffff000ull);    /* to 0x1000 */
	REJECTS_IN(0, UINT64_MAX, m.ph[1].p_memsz = UINT64_MAX);
	REJECTS_IN(0, UINT64_MAX, m.ph[1].p_memsz = UINT64_MAX - DATA_VA + 1);  /* to 2^64 */
}

TEST(segments_stay_in_range)
{
	REJECTS(m.ph[1].p_vaddr = KBASE);               /* kernel space */
	CHECK_EQ(parse_in(0, UINT64_MAX), 0);
	REJECTS(m.ph[0].p_vaddr = m.eh.e_entry = LO - 0x1000);         /* below lo */
	m.ph[0].p_vaddr = m.eh.e_entry = LO;            /* at lo */
	CHECK_EQ(parse(), 0);
	REJECTS(m.ph[1].p_vaddr = HI - 0x2000; m.ph[1].p_memsz = 0x2001);      /* past hi */
	m.ph[1].p_memsz = 0x2000;                       /* ends at hi */
	CHECK_EQ(parse(), 0);
	valid();                                        /* whole pages must fit, not just bytes */
	m.ph[1].p_memsz = 0x10;
	CHECK_EQ(parse_in(LO, DATA_VA + 0x1000), 0);
	CHECK_EQ(parse_in(LO, DATA_VA + 0x800), -ENOEXEC);
	m.ph[0].p_vaddr = m.eh.e_entry = TEXT_VA + 0x10;
	m.ph[0].p_offset = 0x1010;
	CHECK_EQ(parse_in(TEXT_VA, HI), 0);
	CHECK_EQ(parse_in(TEXT_VA + 0x8, HI), -ENOEXEC);
	CHECK_EQ(parse_in(HI, LO), -ENOEXEC);
}

TEST(vaddr_and_offset_congruent)
{
	REJECTS(m.ph[0].p_vaddr = TEXT_VA + 0x10);
	m.ph[0].p_offset = 0x1010;                      /* both at 0x10 into a page */
	m.eh.e_entry = TEXT_VA + 0x10;
	CHECK_EQ(parse(), 0);
	CHECK(seg_is(0, TEXT_VA + 0x10, 0x100, 0x1010, 0x100, ELF_SEG_R | ELF_SEG_X));
}

TEST(segments_share_no_page)
{
	valid();
	m.ph[0].p_memsz = 0x1000;                       /* fills its page: fine */
	CHECK_EQ(parse(), 0);
	REJECTS(m.ph[0].p_memsz = 0x1001);              /* one byte into the data's page */
	REJECTS(m.ph[1] = load(PF_R, 0x1800, TEXT_VA + 0x800, 0x10, 0x10));  /* same page */
	REJECTS(m.ph[1] = load(PF_R, 0x1000, TEXT_VA, 0x100, 0x100));        /* the same twice */
	/* The text inside the data's range, the data second. */
	REJECTS(m.ph[0].p_vaddr = DATA_VA + 0x1000; m.eh.e_entry = DATA_VA + 0x1010);
	m.ph[0].p_vaddr = m.eh.e_entry = DATA_VA + 0x2000;     /* just after it */
	CHECK_EQ(parse(), 0);
}

/* n loads one page apart, all showing the text's file bytes. */
static void many_loads(int n)
{
	m.eh.e_phnum = (uint16_t)n;
	for (int i = 0; i < n; i++)
		m.ph[i] = load(PF_R | PF_X, 0x1000, TEXT_VA + 0x1000ull * (uint64_t)i, 0x100, 0x100);
}

TEST(at_most_max_segments)
{
	valid();
	many_loads(ELF_MAX_SEGS);
	CHECK_EQ(parse(), 0);
	CHECK_EQ(img.nsegs, ELF_MAX_SEGS);
	CHECK_EQ(img.segs[ELF_MAX_SEGS - 1].vaddr, TEXT_VA + 0x1000 * (ELF_MAX_SEGS - 1));
	REJECTS(many_loads(ELF_MAX_SEGS + 1));
	m.ph[3].p_memsz = m.ph[3].p_filesz = 0;         /* an empty one does not count */
	CHECK_EQ(parse(), 0);
	CHECK_EQ(img.nsegs, ELF_MAX_SEGS);
}

TEST(entry_in_executable_segment)
{
	static const uint64_t bad[] = {
		TEXT_VA + 0x100, TEXT_VA - 1, DATA_VA, DATA_VA + 0x1fff, 0, KBASE, UINT64_MAX,
	};
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
		REJECTS(m.eh.e_entry = bad[i]);
	m.eh.e_entry = TEXT_VA;                         /* first and last byte of the text */
	CHECK_EQ(parse(), 0);
	m.eh.e_entry = TEXT_VA + 0xff;
	CHECK_EQ(parse(), 0);
	REJECTS(m.ph[0].p_flags = PF_R);                /* no executable segment at all */
	m.ph[0].p_flags = PF_X;                         /* execute-only is enough */
	CHECK_EQ(parse(), 0);
}

/* What elf_parse promised about img, checked against the file it read. */
static bool image_sound(uint64_t size, uint64_t lo, uint64_t hi)
{
	bool entry_ok = false;
	if (img.nsegs < 1 || img.nsegs > ELF_MAX_SEGS)
		return false;
	for (int i = 0; i < img.nsegs; i++) {
		const struct elf_segment *s = &img.segs[i];
		if (!s->memsz || s->filesz > s->memsz || s->offset > size || s->filesz > size - s->offset ||
		    s->vaddr < lo || s->vaddr >= hi || s->memsz > hi - s->vaddr ||
		    s->vaddr % 4096 != s->offset % 4096)
			return false;
		for (int j = 0; j < i; j++)
			if (s->vaddr / 4096 <= (img.segs[j].vaddr + img.segs[j].memsz - 1) / 4096 &&
			    img.segs[j].vaddr / 4096 <= (s->vaddr + s->memsz - 1) / 4096)
				return false;
		entry_ok |= (s->flags & ELF_SEG_X) && img.entry - s->vaddr < s->memsz;
	}
	return entry_ok;
}

TEST(random_corruption)
{
	uint64_t rng = 12345;
	int accepted = 0;
	for (int round = 0; round < 20000; round++) {
		valid();
		for (int k = 0; k <= round % 4; k++) {  /* 1 to 4 bytes of eh and ph[0..2] */
			rng = rng * 6364136223846793005ull + 1442695040888963407ull;
			((uint8_t *)&m)[(rng >> 33) % (sizeof m.eh + 3 * sizeof(Elf64_Phdr))] = (uint8_t)(rng >> 20);
		}
		if (parse() == 0) {
			accepted++;
			if (!image_sound(FSIZE, LO, HI)) {
				check_fail(__FILE__, __LINE__, "round %d: accepted an unsound image", round);
				return;
			}
		}
	}
	CHECK(accepted > 0);            /* some flips land in don't-care bytes */
}

TEST(real_toolchain_file)
{
	FILE *f = fopen("/proc/self/exe", "rb");        /* this program, as linked */
	CHECK(f != NULL);
	fseek(f, 0, SEEK_END);
	uint64_t size = (uint64_t)ftell(f);
	uint8_t *buf = check_alloc(size);
	rewind(f);
	size_t got = fread(buf, 1, size, f);
	fclose(f);
	CHECK_EQ(got, size);
	buf[offsetof(Elf64_Ehdr, e_type)] = ET_EXEC;    /* a PIE is ET_DYN: get past that */
	Elf64_Ehdr eh;
	memcpy(&eh, buf, sizeof eh);
	CHECK_EQ(elf_parse(buf, size, 0, KBASE, &img), -ENOEXEC);      /* PT_INTERP */
	int loads = 0;
	for (unsigned i = 0; i < eh.e_phnum; i++) {
		Elf64_Phdr ph;
		memcpy(&ph, buf + eh.e_phoff + i * sizeof ph, sizeof ph);
		if (ph.p_type == PT_INTERP || ph.p_type == PT_DYNAMIC)
			ph.p_type = PT_NULL;
		loads += ph.p_type == PT_LOAD && ph.p_memsz;
		memcpy(buf + eh.e_phoff + i * sizeof ph, &ph, sizeof ph);
	}
	CHECK_EQ(elf_parse(buf, size, 0, KBASE, &img), 0);
	CHECK_EQ(img.nsegs, loads);
	CHECK(image_sound(size, 0, KBASE));
}
