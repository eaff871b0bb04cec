/*
 * acpi.c — finding and reading the ACPI tables (ACPI 6.x spec, ch. 5).
 *
 * RSDP (from the loader, or found by scanning the EBDA and 0xe0000-0xfffff
 * for "RSD PTR ") -> RSDT (32-bit pointers) or XSDT (64-bit) -> the tables
 * we use: APIC (MADT), HPET, MCFG and FACP.  Every table is checksummed
 * before it is believed.
 */
#include <stdint.h>
#include <string.h>
#include <acpi.h>
#include <errno.h>

struct acpi_info acpi;

struct rsdp {
	char sig[8];
	uint8_t checksum;
	char oem[6];
	uint8_t revision;
	uint32_t rsdt;
	uint32_t length;         /* revision >= 2 from here on */
	uint64_t xsdt;
	uint8_t xchecksum;
	uint8_t reserved[3];
} __attribute__((packed));

struct sdt_header {
	char sig[4];
	uint32_t length;
	uint8_t revision, checksum;
	char oem[6], oem_table[8];
	uint32_t oem_rev, creator, creator_rev;
} __attribute__((packed));

static bool checksum_ok(const void *p, uint32_t len)
{
	uint8_t sum = 0;
	for (uint32_t i = 0; i < len; i++)
		sum += ((const uint8_t *)p)[i];
	return sum == 0;
}

static uint64_t scan_rsdp(p2v_fn p2v, uint64_t start, uint64_t len)
{
	for (uint64_t pa = start; pa + 20 <= start + len; pa += 16) {
		const char *p = p2v(pa);
		if (memcmp(p, "RSD PTR ", 8) == 0 && checksum_ok(p, 20))
			return pa;
	}
	return 0;
}

uint64_t acpi_find_rsdp(p2v_fn p2v)
{
	uint64_t ebda = (uint64_t)*(const uint16_t *)p2v(0x40e) << 4;
	uint64_t pa = ebda ? scan_rsdp(p2v, ebda, 1024) : 0;
	return pa ? pa : scan_rsdp(p2v, 0xe0000, 0x20000);
}

static void parse_madt(const uint8_t *t, uint32_t len, struct acpi_info *out)
{
	out->lapic_addr = *(const uint32_t *)(t + 36);
	out->has_8259 = *(const uint32_t *)(t + 40) & 1;
	for (uint32_t off = 44; off + 2 <= len;) {
		uint8_t type = t[off], elen = t[off + 1];
		const uint8_t *e = t + off;
		if (elen < 2 || off + elen > len)
			break;
		if (type == 0 && elen >= 8 && (*(const uint32_t *)(e + 4) & 1) && out->ncpus < ACPI_MAX_CPUS)
			out->cpu_apic_ids[out->ncpus++] = e[3];
		else if (type == 9 && elen >= 16 && (*(const uint32_t *)(e + 8) & 1) && out->ncpus < ACPI_MAX_CPUS)
			out->cpu_apic_ids[out->ncpus++] = *(const uint32_t *)(e + 4);
		else if (type == 1 && elen >= 12 && out->nioapics < ACPI_MAX_IOAPICS)
			out->ioapics[out->nioapics++] = (struct acpi_ioapic){
				e[2], *(const uint32_t *)(e + 4), *(const uint32_t *)(e + 8) };
		else if (type == 2 && elen >= 10 && out->noverrides < ACPI_MAX_OVERRIDES) {
			uint16_t flags = *(const uint16_t *)(e + 8);
			out->overrides[out->noverrides++] = (struct acpi_override){
				.irq = e[3], .gsi = *(const uint32_t *)(e + 4),
				.active_low = (flags & 3) == 3, .level = ((flags >> 2) & 3) == 3,
				.flags = flags };
		}
		off += elen;
	}
}

static void parse_table(const struct sdt_header *h, struct acpi_info *out)
{
	const uint8_t *t = (const uint8_t *)h;
	if (memcmp(h->sig, "APIC", 4) == 0 && h->length >= 44)
		parse_madt(t, h->length, out);
	else if (memcmp(h->sig, "HPET", 4) == 0 && h->length >= 56)
		out->hpet_addr = *(const uint64_t *)(t + 44);
	else if (memcmp(h->sig, "MCFG", 4) == 0 && h->length >= 60) {
		out->ecam_addr = *(const uint64_t *)(t + 44);
		out->ecam_bus_start = t[54];
		out->ecam_bus_end = t[55];
	} else if (memcmp(h->sig, "FACP", 4) == 0 && h->length >= 68)
		out->pm1a_cnt = *(const uint32_t *)(t + 64);
}

int acpi_parse(uint64_t rsdp_pa, p2v_fn p2v, struct acpi_info *out)
{
	memset(out, 0, sizeof *out);
	const struct rsdp *r = p2v(rsdp_pa);
	if (memcmp(r->sig, "RSD PTR ", 8) != 0 || !checksum_ok(r, 20))
		return -EINVAL;
	if (r->revision >= 2 && !checksum_ok(r, sizeof *r))
		return -EINVAL;
	memcpy(out->oem, r->oem, 6);
	out->revision = r->revision;
	bool x = r->revision >= 2 && r->xsdt;
	const struct sdt_header *root = p2v(x ? r->xsdt : r->rsdt);
	if (root->length < sizeof *root || memcmp(root->sig, x ? "XSDT" : "RSDT", 4) != 0 ||
	    !checksum_ok(root, root->length))
		return -EINVAL;
	uint32_t n = (root->length - sizeof *root) / (x ? 8 : 4);
	const uint8_t *entries = (const uint8_t *)root + sizeof *root;
	for (uint32_t i = 0; i < n; i++) {
		uint64_t pa = x ? *(const uint64_t *)(entries + 8 * i) : *(const uint32_t *)(entries + 4 * i);
		const struct sdt_header *h = p2v(pa);
		if (h->length >= sizeof *h && checksum_ok(h, h->length))
			parse_table(h, out);
	}
	return out->ncpus > 0 ? 0 : -ENOENT;
}

static const struct acpi_override *find_override(int irq)
{
	for (int i = 0; i < acpi.noverrides; i++)
		if (acpi.overrides[i].irq == irq)
			return &acpi.overrides[i];
	return NULL;
}

uint32_t acpi_isa_gsi(int irq, bool *active_low, bool *level)
{
	const struct acpi_override *o = find_override(irq);
	*active_low = o && o->active_low;
	*level = o && o->level;
	return o ? o->gsi : (uint32_t)irq;
}

uint32_t acpi_pci_gsi(int irq, bool *active_low, bool *level)
{
	const struct acpi_override *o = find_override(irq);
	uint16_t polarity = o ? o->flags & 3 : 0, trigger = o ? (o->flags >> 2) & 3 : 0;
	*active_low = polarity == 0 || polarity == 3;
	*level = trigger == 0 || trigger == 3;
	return o ? o->gsi : (uint32_t)irq;
}
