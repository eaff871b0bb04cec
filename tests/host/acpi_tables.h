/*
 * acpi_tables.h — synthetic ACPI firmware for test_acpi.c: a 1 MiB host
 * buffer standing for the first megabyte of physical memory, and builders
 * for the RSDP, RSDT/XSDT, MADT (with its entries), HPET, MCFG and FADT,
 * each with a correct checksum unless a case breaks it.
 *
 * Only test_acpi.c includes it (after fake_phys.h and <acpi.h>); the
 * functions are static so the test binary stays one translation unit.
 */
#ifndef HAKO_TEST_ACPI_TABLES_H
#define HAKO_TEST_ACPI_TABLES_H
/* ---- "physical memory": the first MiB ------------------------------------ */

#define MEM_SIZE 0x100000u


static void put(uint64_t pa, const void *p, size_t n) { memcpy(mem + pa, p, n); }
static void put8(uint64_t pa, uint8_t v) { mem[pa] = v; }
static void put16(uint64_t pa, uint16_t v) { put(pa, &v, 2); }
static void put32(uint64_t pa, uint32_t v) { put(pa, &v, 4); }
static void put64(uint64_t pa, uint64_t v) { put(pa, &v, 8); }
static uint32_t get32(uint64_t pa) { uint32_t v; memcpy(&v, mem + pa, 4); return v; }

/* Set mem[at] so that the n bytes from start sum to 0 (mod 256). */
static void fix_checksum(uint64_t start, uint32_t n, uint64_t at)
{
	uint8_t sum = 0;
	mem[at] = 0;
	for (uint32_t i = 0; i < n; i++)
		sum = (uint8_t)(sum + mem[start + i]);
	mem[at] = (uint8_t)-sum;
}

static struct acpi_info info;

static int parse(uint64_t rsdp)
{
	p2v_calls = 0;
	if (setjmp(p2v_escape))
		return -9999;
	return acpi_parse(rsdp, p2v, &info);
}

static uint64_t find(void)
{
	p2v_calls = 0;
	if (setjmp(p2v_escape))
		return 0xdead;
	return acpi_find_rsdp(p2v);
}

/* ---- table builders --------------------------------------------------------- */

#define RSDP_PA 0xf5a60u
#define RSDT_PA 0x10000u
#define XSDT_PA 0x10800u
#define MADT_PA 0x11000u
#define HPET_PA 0x12000u
#define MCFG_PA 0x13000u
#define FACP_PA 0x14000u
#define SDT_HEADER 36

/* An SDT header; finish_table() sets the length and checksum. */
static void table_begin(uint64_t pa, const char *sig, uint8_t revision)
{
	put(pa, sig, 4);
	put8(pa + 8, revision);
	put(pa + 10, "HAKOEM", 6);
	put(pa + 16, "HAKOTBL ", 8);
	put32(pa + 24, 1);
	put32(pa + 28, 0x4f4b4148);     /* creator "HAKO" */
	put32(pa + 32, 1);
}

static void finish_table(uint64_t pa, uint32_t length)
{
	put32(pa + 4, length);
	fix_checksum(pa, length, pa + 9);
}

static void rsdp_v1(uint64_t pa, uint32_t rsdt)
{
	put(pa, "RSD PTR ", 8);
	put(pa + 9, "HAKOEM", 6);
	put8(pa + 15, 0);
	put32(pa + 16, rsdt);
	fix_checksum(pa, 20, pa + 8);
}

static void rsdp_v2(uint64_t pa, uint32_t rsdt, uint64_t xsdt)
{
	put(pa, "RSD PTR ", 8);
	put(pa + 9, "HAKOEM", 6);
	put8(pa + 15, 2);
	put32(pa + 16, rsdt);
	put32(pa + 20, 36);
	put64(pa + 24, xsdt);
	fix_checksum(pa, 20, pa + 8);
	fix_checksum(pa, 36, pa + 32);
}

static void rsdt(const uint32_t *tables, int n)
{
	table_begin(RSDT_PA, "RSDT", 1);
	for (int i = 0; i < n; i++)
		put32(RSDT_PA + SDT_HEADER + 4 * (uint64_t)i, tables[i]);
	finish_table(RSDT_PA, SDT_HEADER + 4 * (uint32_t)n);
}

static void xsdt(const uint64_t *tables, int n)
{
	table_begin(XSDT_PA, "XSDT", 1);
	for (int i = 0; i < n; i++)
		put64(XSDT_PA + SDT_HEADER + 8 * (uint64_t)i, tables[i]);
	finish_table(XSDT_PA, SDT_HEADER + 8 * (uint32_t)n);
}

/* MADT entries are appended at madt_end. */
static uint64_t madt_end;

static void madt_begin(uint32_t flags)
{
	table_begin(MADT_PA, "APIC", 3);
	put32(MADT_PA + 36, 0xfee00000);
	put32(MADT_PA + 40, flags);
	madt_end = MADT_PA + 44;
}

static void madt_lapic(uint8_t uid, uint8_t apic_id, uint32_t flags)
{
	put8(madt_end, 0);
	put8(madt_end + 1, 8);
	put8(madt_end + 2, uid);
	put8(madt_end + 3, apic_id);
	put32(madt_end + 4, flags);
	madt_end += 8;
}

static void madt_x2apic(uint32_t id, uint32_t flags)
{
	put8(madt_end, 9);
	put8(madt_end + 1, 16);
	put16(madt_end + 2, 0);
	put32(madt_end + 4, id);
	put32(madt_end + 8, flags);
	put32(madt_end + 12, id);
	madt_end += 16;
}

static void madt_ioapic(uint8_t id, uint32_t addr, uint32_t gsi_base)
{
	put8(madt_end, 1);
	put8(madt_end + 1, 12);
	put8(madt_end + 2, id);
	put8(madt_end + 3, 0);
	put32(madt_end + 4, addr);
	put32(madt_end + 8, gsi_base);
	madt_end += 12;
}

static void madt_override(uint8_t irq, uint32_t gsi, uint16_t flags)
{
	put8(madt_end, 2);
	put8(madt_end + 1, 10);
	put8(madt_end + 2, 0);          /* bus: ISA */
	put8(madt_end + 3, irq);
	put32(madt_end + 4, gsi);
	put16(madt_end + 8, flags);
	madt_end += 10;
}

static void madt_lapic_nmi(void)        /* type 4: not used by Hako */
{
	put8(madt_end, 4);
	put8(madt_end + 1, 6);
	put8(madt_end + 2, 0xff);
	put16(madt_end + 3, 0x5);
	put8(madt_end + 5, 1);
	madt_end += 6;
}

static void madt_finish(void)
{
	finish_table(MADT_PA, (uint32_t)(madt_end - MADT_PA));
}

/* The machine in the brief: 4 LAPICs (one disabled), an x2APIC, one I/O
 * APIC, overrides irq 0 -> GSI 2 and irq 9 level (flags 0xd). */
static void standard_madt(void)
{
	madt_begin(1);
	madt_lapic(0, 0, 1);
	madt_lapic(1, 1, 1);
	madt_lapic(2, 2, 0);                    /* disabled */
	madt_lapic(3, 3, 1);
	madt_x2apic(0x100, 1);
	madt_ioapic(4, 0xfec00000, 0);
	madt_override(0, 2, 0);
	madt_override(9, 9, 0xd);
	madt_lapic_nmi();
	madt_finish();
}

static void hpet_table(uint32_t length)
{
	table_begin(HPET_PA, "HPET", 1);
	put32(HPET_PA + 36, 0x8086a201);        /* event timer block id */
	put8(HPET_PA + 40, 0);                  /* GAS: system memory */
	put8(HPET_PA + 41, 64);
	put64(HPET_PA + 44, 0xfed00000);
	put8(HPET_PA + 52, 0);
	put16(HPET_PA + 53, 0x80);
	finish_table(HPET_PA, length);
}

static void mcfg_table(uint32_t length)
{
	table_begin(MCFG_PA, "MCFG", 1);
	put64(MCFG_PA + 44, 0xb0000000);
	put16(MCFG_PA + 52, 0);
	put8(MCFG_PA + 54, 0);
	put8(MCFG_PA + 55, 0xff);
	finish_table(MCFG_PA, length);
}

static void facp_table(uint32_t length)
{
	table_begin(FACP_PA, "FACP", 1);
	put32(FACP_PA + 56, 0x600);             /* PM1a_EVT_BLK */
	put32(FACP_PA + 64, 0x604);             /* PM1a_CNT_BLK */
	finish_table(FACP_PA, length);
}

static void new_memory(void)
{
	mem_new(0, MEM_SIZE);
}

/* Everything, reached from a revision 0 RSDP at RSDP_PA. */
static void standard_machine(void)
{
	new_memory();
	standard_madt();
	hpet_table(56);
	mcfg_table(60);
	facp_table(116);
	const uint32_t tables[] = { FACP_PA, MADT_PA, HPET_PA, MCFG_PA };
	rsdt(tables, 4);
	rsdp_v1(RSDP_PA, RSDT_PA);
}

#endif
