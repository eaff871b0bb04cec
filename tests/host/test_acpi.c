/*
 * test_acpi.c — kernel/acpi.c, finding and reading the ACPI tables.
 *
 * The tests build synthetic firmware tables, with correct checksums unless
 * a case breaks one, in a 1 MiB host buffer that stands for the first
 * megabyte of physical memory (p2v: physical address = offset).  A p2v
 * call outside it fails the case; a read past it is an AddressSanitizer
 * report.
 *
 * Proves: acpi_parse reads a revision 0 RSDP through the RSDT and a
 * revision 2 RSDP through the XSDT (and through the RSDT when xsdt is 0),
 * reading only the 20 bytes a revision 0 RSDP has; from the MADT it takes
 * the LAPIC address, the PC/AT flag, enabled local APICs and x2APICs in
 * table order (disabled ones skipped, at most ACPI_MAX_CPUS), the I/O APIC
 * and the interrupt source overrides with their polarity and trigger bits;
 * it reads the HPET base, the MCFG ECAM base and bus range, and the FADT
 * PM1a control port, ignoring tables too short for those fields; entries
 * with a bad length end the MADT walk cleanly; a bad RSDP signature or
 * checksum or a bad RSDT/XSDT checksum gives -EINVAL; a table with a bad
 * checksum is skipped; no usable MADT gives -ENOENT.  acpi_isa_gsi applies
 * the overrides (irq 0 -> GSI 2; irq 9 level-triggered, flags 0xd) and is
 * the identity otherwise.  acpi_find_rsdp finds the RSDP in the first KiB
 * of the EBDA (segment at 0x40e) before 0xe0000-0xfffff, only on 16-byte
 * boundaries, only with a good checksum, up to the very last slot.
 */
#include "fake_phys.h"
#include <acpi.h>
#include "../../kernel/lib/errno.h"
#include "acpi_tables.h"

/* ---- acpi_parse ------------------------------------------------------------- */

TEST(rev0_rsdt_parses)
{
	standard_machine();
	CHECK_EQ(parse(RSDP_PA), 0);
	CHECK_STR(info.oem, "HAKOEM");
	CHECK_EQ(info.revision, 0);
	CHECK_EQ(info.lapic_addr, 0xfee00000);
	CHECK(info.has_8259);
}

TEST(madt_enabled_cpus_in_order)
{
	standard_machine();
	CHECK_EQ(parse(RSDP_PA), 0);
	CHECK_EQ(info.ncpus, 4);
	CHECK_EQ(info.cpu_apic_ids[0], 0);
	CHECK_EQ(info.cpu_apic_ids[1], 1);
	CHECK_EQ(info.cpu_apic_ids[2], 3);      /* 2 is disabled */
	CHECK_EQ(info.cpu_apic_ids[3], 0x100);  /* the x2APIC */
}

TEST(madt_ioapic)
{
	standard_machine();
	CHECK_EQ(parse(RSDP_PA), 0);
	CHECK_EQ(info.nioapics, 1);
	CHECK_EQ(info.ioapics[0].id, 4);
	CHECK_EQ(info.ioapics[0].addr, 0xfec00000);
	CHECK_EQ(info.ioapics[0].gsi_base, 0);
}

TEST(madt_overrides)
{
	standard_machine();
	CHECK_EQ(parse(RSDP_PA), 0);
	CHECK_EQ(info.noverrides, 2);
	CHECK_EQ(info.overrides[0].irq, 0);
	CHECK_EQ(info.overrides[0].gsi, 2);
	CHECK(!info.overrides[0].level);
	CHECK(!info.overrides[0].active_low);
	CHECK_EQ(info.overrides[1].irq, 9);
	CHECK_EQ(info.overrides[1].gsi, 9);
	/* 0xd: trigger bits 11 = level, polarity bits 01 = active high. */
	CHECK(info.overrides[1].level);
	CHECK(!info.overrides[1].active_low);
}

TEST(hpet_mcfg_facp)
{
	standard_machine();
	CHECK_EQ(parse(RSDP_PA), 0);
	CHECK_EQ(info.hpet_addr, 0xfed00000);
	CHECK_EQ(info.ecam_addr, 0xb0000000);
	CHECK_EQ(info.ecam_bus_start, 0);
	CHECK_EQ(info.ecam_bus_end, 0xff);
	CHECK_EQ(info.pm1a_cnt, 0x604);
}

TEST(tables_too_short_ignored)
{
	standard_machine();
	hpet_table(52);                         /* < 56 */
	mcfg_table(56);                         /* < 60 */
	facp_table(64);                         /* < 68 */
	CHECK_EQ(parse(RSDP_PA), 0);
	CHECK_EQ(info.hpet_addr, 0);
	CHECK_EQ(info.ecam_addr, 0);
	CHECK_EQ(info.pm1a_cnt, 0);
	CHECK_EQ(info.ncpus, 4);
}

TEST(rev2_prefers_xsdt)
{
	standard_machine();
	const uint32_t small[] = { MADT_PA };
	rsdt(small, 1);                         /* the RSDT lists only the MADT */
	const uint64_t all[] = { MADT_PA, HPET_PA, MCFG_PA, FACP_PA };
	xsdt(all, 4);
	rsdp_v2(RSDP_PA, RSDT_PA, XSDT_PA);
	CHECK_EQ(parse(RSDP_PA), 0);
	CHECK_EQ(info.revision, 2);
	CHECK_EQ(info.ncpus, 4);
	CHECK_EQ(info.hpet_addr, 0xfed00000);   /* only the XSDT has these */
	CHECK_EQ(info.ecam_addr, 0xb0000000);
	CHECK_EQ(info.pm1a_cnt, 0x604);
}

TEST(rev2_without_xsdt_uses_rsdt)
{
	standard_machine();
	rsdp_v2(RSDP_PA, RSDT_PA, 0);
	CHECK_EQ(parse(RSDP_PA), 0);
	CHECK_EQ(info.revision, 2);
	CHECK_EQ(info.hpet_addr, 0xfed00000);
}

TEST(rev0_rsdp_read_is_20_bytes)
{
	standard_machine();
	/* The last 20 bytes of memory: reading more is an ASan report. */
	uint64_t at = MEM_SIZE - 20;
	rsdp_v1(at, RSDT_PA);
	CHECK_EQ(parse(at), 0);
	CHECK_EQ(info.ncpus, 4);
}

TEST(bad_rsdp_signature_or_checksum)
{
	standard_machine();
	mem[RSDP_PA + 8] ^= 1;                  /* checksum */
	CHECK_EQ(parse(RSDP_PA), -EINVAL);
	rsdp_v1(RSDP_PA, RSDT_PA);
	mem[RSDP_PA + 3] = 'X';                 /* "RSX PTR " */
	fix_checksum(RSDP_PA, 20, RSDP_PA + 8);
	CHECK_EQ(parse(RSDP_PA), -EINVAL);
	CHECK_EQ(parse(0x80000), -EINVAL);      /* zeroed memory */
}

TEST(bad_root_checksum)
{
	standard_machine();
	mem[RSDT_PA + 20] ^= 0x40;              /* corrupt the RSDT */
	CHECK_EQ(parse(RSDP_PA), -EINVAL);
	CHECK_EQ(info.ncpus, 0);

	standard_machine();
	const uint64_t all[] = { MADT_PA };
	xsdt(all, 1);
	rsdp_v2(RSDP_PA, RSDT_PA, XSDT_PA);
	put64(XSDT_PA + SDT_HEADER, HPET_PA);   /* entry changed, checksum not */
	CHECK_EQ(parse(RSDP_PA), -EINVAL);
}

TEST(bad_madt_checksum_is_enoent)
{
	standard_machine();
	mem[MADT_PA + 50] ^= 1;
	CHECK_EQ(parse(RSDP_PA), -ENOENT);
	CHECK_EQ(info.ncpus, 0);
	CHECK_EQ(info.nioapics, 0);
	CHECK_EQ(info.hpet_addr, 0xfed00000);   /* the other tables still count */
}

TEST(bad_hpet_checksum_skipped)
{
	standard_machine();
	put64(HPET_PA + 44, 0xfed01000);        /* checksum not fixed */
	CHECK_EQ(parse(RSDP_PA), 0);
	CHECK_EQ(info.hpet_addr, 0);
	CHECK_EQ(info.ecam_addr, 0xb0000000);
}

TEST(no_madt_is_enoent)
{
	standard_machine();
	const uint32_t tables[] = { HPET_PA, FACP_PA };
	rsdt(tables, 2);
	CHECK_EQ(parse(RSDP_PA), -ENOENT);
	CHECK_EQ(info.hpet_addr, 0xfed00000);
	rsdt(NULL, 0);                          /* an empty RSDT */
	CHECK_EQ(parse(RSDP_PA), -ENOENT);
}

TEST(madt_without_pcat_flag)
{
	standard_machine();
	madt_begin(0);
	madt_lapic(0, 5, 1);
	madt_finish();
	CHECK_EQ(parse(RSDP_PA), 0);
	CHECK(!info.has_8259);
	CHECK_EQ(info.ncpus, 1);
	CHECK_EQ(info.cpu_apic_ids[0], 5);
	CHECK_EQ(info.nioapics, 0);
	CHECK_EQ(info.noverrides, 0);
}

TEST(madt_cpus_capped)
{
	standard_machine();
	madt_begin(1);
	for (int i = 0; i < ACPI_MAX_CPUS + 8; i++)
		madt_lapic((uint8_t)i, (uint8_t)i, 1);
	madt_x2apic(0x200, 1);
	madt_ioapic(9, 0xfec00000, 0);          /* still read after the cap */
	madt_finish();
	CHECK_EQ(parse(RSDP_PA), 0);
	CHECK_EQ(info.ncpus, ACPI_MAX_CPUS);
	CHECK_EQ(info.cpu_apic_ids[ACPI_MAX_CPUS - 1], ACPI_MAX_CPUS - 1);
	CHECK_EQ(info.nioapics, 1);
	CHECK_EQ(info.ioapics[0].id, 9);
}

TEST(madt_bad_entry_lengths_stop_cleanly)
{
	standard_machine();
	madt_begin(1);
	madt_lapic(0, 0, 1);
	put8(madt_end, 0);
	put8(madt_end + 1, 0);                  /* length 0: no progress possible */
	madt_end += 8;
	madt_lapic(1, 1, 1);
	madt_finish();
	CHECK_EQ(parse(RSDP_PA), 0);
	CHECK_EQ(info.ncpus, 1);

	madt_begin(1);
	madt_lapic(0, 0, 1);
	madt_lapic(1, 1, 1);
	madt_finish();
	put8(MADT_PA + 44 + 8 + 1, 200);        /* second entry runs past the table */
	fix_checksum(MADT_PA, get32(MADT_PA + 4), MADT_PA + 9);
	CHECK_EQ(parse(RSDP_PA), 0);
	CHECK_EQ(info.ncpus, 1);
}

TEST(madt_short_entries_skipped)
{
	standard_machine();
	madt_begin(1);
	put8(madt_end, 0);                      /* a LAPIC entry of 6 bytes */
	put8(madt_end + 1, 6);
	put8(madt_end + 3, 7);
	madt_end += 6;
	put8(madt_end, 9);                      /* an x2APIC entry of 12 */
	put8(madt_end + 1, 12);
	madt_end += 12;
	put8(madt_end, 2);                      /* an override of 8 */
	put8(madt_end + 1, 8);
	madt_end += 8;
	madt_lapic(1, 1, 1);
	madt_x2apic(0x300, 0);                  /* disabled x2APIC */
	madt_finish();
	CHECK_EQ(parse(RSDP_PA), 0);
	CHECK_EQ(info.ncpus, 1);
	CHECK_EQ(info.cpu_apic_ids[0], 1);
	CHECK_EQ(info.noverrides, 0);
}

/* ---- acpi_isa_gsi -------------------------------------------------------- */

TEST(isa_gsi_applies_overrides)
{
	standard_machine();
	p2v_calls = 0;
	if (setjmp(p2v_escape))
		return;
	CHECK_EQ(acpi_parse(RSDP_PA, p2v, &acpi), 0);
	bool low = true, level = true;
	CHECK_EQ(acpi_isa_gsi(0, &low, &level), 2);
	CHECK(!low);
	CHECK(!level);
	CHECK_EQ(acpi_isa_gsi(9, &low, &level), 9);
	CHECK(level);
	CHECK(!low);
	low = level = true;
	CHECK_EQ(acpi_isa_gsi(4, &low, &level), 4);     /* no override */
	CHECK(!low);
	CHECK(!level);
	CHECK_EQ(acpi_isa_gsi(2, &low, &level), 2);
}

TEST(isa_gsi_polarity_and_trigger_bits)
{
	new_memory();
	madt_begin(1);
	madt_lapic(0, 0, 1);
	madt_override(10, 20, 0xf);             /* level, active low */
	madt_override(11, 21, 0x3);             /* edge (default), active low */
	madt_override(12, 22, 0x5);             /* edge, active high */
	madt_override(13, 23, 0x2);             /* reserved polarity 10 */
	madt_finish();
	const uint32_t tables[] = { MADT_PA };
	rsdt(tables, 1);
	rsdp_v1(RSDP_PA, RSDT_PA);
	p2v_calls = 0;
	if (setjmp(p2v_escape))
		return;
	CHECK_EQ(acpi_parse(RSDP_PA, p2v, &acpi), 0);
	bool low, level;
	CHECK_EQ(acpi_isa_gsi(10, &low, &level), 20);
	CHECK(low && level);
	CHECK_EQ(acpi_isa_gsi(11, &low, &level), 21);
	CHECK(low && !level);
	CHECK_EQ(acpi_isa_gsi(12, &low, &level), 22);
	CHECK(!low && !level);
	CHECK_EQ(acpi_isa_gsi(13, &low, &level), 23);
	CHECK(!low && !level);
}

TEST(isa_gsi_identity_without_acpi)
{
	memset(&acpi, 0, sizeof acpi);
	bool low = true, level = true;
	for (int irq = 0; irq < 16; irq++) {
		CHECK_EQ(acpi_isa_gsi(irq, &low, &level), irq);
		CHECK(!low && !level);
	}
}

TEST(pci_gsi_defaults_to_level_active_low)
{
	new_memory();
	madt_begin(1);
	madt_lapic(0, 0, 1);
	madt_override(10, 10, 0xd);             /* QEMU's PCI lines: level, active high */
	madt_override(11, 11, 0x0);             /* conforms to the bus: PCI rules */
	madt_override(5, 5, 0x5);               /* explicitly edge, active high */
	madt_finish();
	const uint32_t tables[] = { MADT_PA };
	rsdt(tables, 1);
	rsdp_v1(RSDP_PA, RSDT_PA);
	p2v_calls = 0;
	if (setjmp(p2v_escape))
		return;
	CHECK_EQ(acpi_parse(RSDP_PA, p2v, &acpi), 0);
	bool low, level;
	CHECK_EQ(acpi_pci_gsi(10, &low, &level), 10);
	CHECK(!low && level);
	CHECK_EQ(acpi_pci_gsi(11, &low, &level), 11);
	CHECK(low && level);
	CHECK_EQ(acpi_pci_gsi(5, &low, &level), 5);
	CHECK(!low && !level);
	CHECK_EQ(acpi_pci_gsi(9, &low, &level), 9);     /* no override at all */
	CHECK(low && level);
}

/* ---- acpi_find_rsdp ------------------------------------------------------- */

#define EBDA_SEG 0x9fc0u
#define EBDA_PA (EBDA_SEG * 16u)

TEST(find_rsdp_in_ebda_first)
{
	new_memory();
	put16(0x40e, EBDA_SEG);
	rsdp_v1(EBDA_PA + 0x30, RSDT_PA);
	rsdp_v1(0xf0000, RSDT_PA);
	CHECK_EQ(find(), EBDA_PA + 0x30);
}

TEST(find_rsdp_in_bios_area)
{
	new_memory();
	put16(0x40e, EBDA_SEG);                 /* EBDA without an RSDP */
	rsdp_v1(RSDP_PA, RSDT_PA);
	CHECK_EQ(find(), RSDP_PA);
	put16(0x40e, 0);                        /* no EBDA at all */
	CHECK_EQ(find(), RSDP_PA);
}

TEST(find_rsdp_none)
{
	new_memory();
	put16(0x40e, EBDA_SEG);
	CHECK_EQ(find(), 0);
	/* A good RSDP below the EBDA and BIOS areas is not looked at. */
	rsdp_v1(0x100, RSDT_PA);
	put16(0x40e, 0);
	CHECK_EQ(find(), 0);
}

TEST(find_rsdp_needs_checksum_and_alignment)
{
	new_memory();
	rsdp_v1(0xe0000, RSDT_PA);
	mem[0xe0000 + 8] ^= 0xff;               /* bad checksum */
	rsdp_v1(0xe0108, RSDT_PA);              /* good, but 8 off a 16-byte boundary */
	rsdp_v1(0xf0000, RSDT_PA);
	CHECK_EQ(find(), 0xf0000);
}

TEST(find_rsdp_area_edges)
{
	new_memory();
	rsdp_v1(0xfffe0, RSDT_PA);              /* last slot with room for 20 bytes */
	CHECK_EQ(find(), 0xfffe0);

	new_memory();
	put16(0x40e, EBDA_SEG);
	rsdp_v1(EBDA_PA + 992, RSDT_PA);        /* last EBDA slot inside 1 KiB */
	CHECK_EQ(find(), EBDA_PA + 992);

	new_memory();
	put16(0x40e, EBDA_SEG);
	rsdp_v1(EBDA_PA + 1024, RSDT_PA);       /* past the first KiB */
	CHECK_EQ(find(), 0);

	new_memory();
	rsdp_v1(0xdfff0, RSDT_PA);              /* just below 0xe0000 */
	CHECK_EQ(find(), 0);

	/* A good RSDP whose 20 bytes would cross the end of the EBDA KiB. */
	new_memory();
	put16(0x40e, EBDA_SEG);
	rsdp_v1(EBDA_PA + 1008, RSDT_PA);
	CHECK_EQ(find(), 0);

	/* A signature in the last 16 bytes below 1 MiB is not read as an
	 * RSDP: its 20 bytes would run past the end (an ASan report here). */
	new_memory();
	put(0xffff0, "RSD PTR ", 8);
	CHECK_EQ(find(), 0);
}

TEST(find_then_parse)
{
	standard_machine();
	put16(0x40e, EBDA_SEG);
	uint64_t pa = find();
	CHECK_EQ(pa, RSDP_PA);
	CHECK_EQ(parse(pa), 0);
	CHECK_EQ(info.ncpus, 4);
}

/* ---- known bugs -------------------------------------------------------------- */

/*
 * acpi_parse trusts root->length: with a length under 36 (say the RSDT
 * pointer leads to zeroed memory) the checksum over 0 bytes passes and
 * (length - 36) / 4 underflows to about 4 billion entries.
 */
TEST(root_table_shorter_than_header_rejected)
{
	new_memory();
	rsdp_v1(RSDP_PA, 0x20000);              /* nothing at 0x20000 */
	CHECK_EQ(parse(RSDP_PA), -EINVAL);
}

/*
 * For revision >= 2 only the first 20 bytes are checksummed; the extended
 * checksum, which covers the XSDT pointer, is never checked.
 */
TEST(rsdp_extended_checksum_checked)
{
	standard_machine();
	const uint64_t all[] = { MADT_PA };
	xsdt(all, 1);
	rsdp_v2(RSDP_PA, RSDT_PA, XSDT_PA);
	mem[RSDP_PA + 32] ^= 0x55;              /* break the extended checksum */
	CHECK_EQ(parse(RSDP_PA), -EINVAL);
}
