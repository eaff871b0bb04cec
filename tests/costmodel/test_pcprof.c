/*
 * test_pcprof.c — the per (region, vCPU, block) instruction counters
 * behind the plugin's pcprof=on (pcprof.h): one counter per key, the
 * same counter on a second lookup, and every count kept when the table
 * grows.
 */
#include "check.h"
#include "pcprof.h"

struct sum {
	uint64_t rows, insns;
};

static void add(const struct cm_pcprof_row *row, void *arg)
{
	struct sum *s = arg;
	s->rows++;
	s->insns += row->insns;
}

TEST(one_counter_per_region_vcpu_and_address)
{
	struct cm_pcprof *p = cm_pcprof_new();
	CHECK(p);
	uint64_t *a = cm_pcprof_counter(p, 2048, 3, 0xffffffff80101000ull);
	uint64_t *b = cm_pcprof_counter(p, 2048, 4, 0xffffffff80101000ull);
	uint64_t *c = cm_pcprof_counter(p, 2049, 3, 0xffffffff80101000ull);
	CHECK(a && b && c && a != b && a != c && b != c);
	*a += 5;
	*c += 7;
	CHECK_PTR(cm_pcprof_counter(p, 2048, 3, 0xffffffff80101000ull), a);
	struct sum s = { 0, 0 };
	cm_pcprof_each(p, add, &s);
	CHECK_EQ(s.rows, 2);                         /* b stayed at zero: not listed */
	CHECK_EQ(s.insns, 12);
	cm_pcprof_free(p);
}

TEST(counts_survive_the_table_growing)
{
	struct cm_pcprof *p = cm_pcprof_new();
	CHECK(p);
	for (uint64_t i = 0; i < 20000; i++)
		*cm_pcprof_counter(p, (uint32_t)(i % 3), (uint32_t)(i % 8), 0x400000 + 16 * i) += i + 1;
	struct sum s = { 0, 0 };
	cm_pcprof_each(p, add, &s);
	CHECK_EQ(s.rows, 20000);
	CHECK_EQ(s.insns, 20000ull * 20001 / 2);
	CHECK_EQ(*cm_pcprof_counter(p, 1, 1, 0x400000 + 16 * 12337), 12338);
	cm_pcprof_free(p);
}
