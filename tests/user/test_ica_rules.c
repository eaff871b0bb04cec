/*
 * tests/user/test_ica_rules.c — the rules of ICAs (paper 002) beyond
 * test_ica.c: what ica_stat reports, sizes and ids refused, ICAs zeroed
 * when reused, contents and counters across peel and paste, first-touch
 * faults by mode, ids that are not the caller's, and exhaustion of the
 * region and of the table with everything usable again afterwards.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <hako/sys.h>
#include <hako/ispc.h>
#include "test.h"
#include "fleet.h"

#define PAGE 4096

static int stat_now(struct hako_ica_stat *st)
{
	return (int)sys_ica_stat(st);
}

TEST(ica_stat_describes_region)
{
	struct hako_ica_stat st;
	CHECK_EQ(stat_now(&st), 0);
	CHECK(st.region_pages >= 512 && st.region_pages % 512 == 0, "region of %lu pages", (unsigned long)st.region_pages);
	CHECK(st.free_pages <= st.region_pages, "free %lu", (unsigned long)st.free_pages);
	CHECK(st.icas >= 0 && st.icas <= st.icas_max && st.icas_max > 0, "icas %d of %d", st.icas, st.icas_max);
	CHECK(st.mode == HAKO_ISPC_BASELINE || st.mode == HAKO_ISPC_FAST, "mode %d", st.mode);
	CHECK_EQ(sys_ica_stat(NULL), -EFAULT);
	CHECK_EQ(sys_ica_stat((void *)0xffff800000000000ull), -EFAULT);
	return 0;
}

TEST(ica_alloc_bad_arguments)
{
	uint64_t va = 0, before = ica_free_pages();
	CHECK_EQ(sys_ica_alloc(0, &va), -EINVAL);
	CHECK_EQ(sys_ica_alloc(HAKO_ICA_MAX_PAGES + 1, &va), -EINVAL);
	CHECK_EQ(sys_ica_alloc((size_t)(0x100ull << HAKO_USER_SHIFT), &va), -EINVAL);
	CHECK_EQ(sys_ica_alloc((size_t)-1, &va), -EINVAL);
	CHECK_EQ(sys_ica_alloc(1, (uint64_t *)0x10), -EFAULT);
	CHECK_EQ(sys_ica_alloc(1, (uint64_t *)0xffff800000000000ull), -EFAULT);
	CHECK_EQ(ica_free_pages(), before);
	return 0;
}

TEST(ica_alloc_zeroed_in_the_area)
{
	struct hako_ica_stat st0, st1;
	uint64_t va = 0;
	CHECK_EQ(stat_now(&st0), 0);
	long id = sys_ica_alloc(3, &va);
	CHECK(id >= 0, "alloc %ld", id);
	CHECK(va >= HAKO_ICA_AREA && va + 3 * PAGE <= HAKO_ICA_AREA + st0.region_pages * PAGE && va % PAGE == 0,
	      "va %lx", (unsigned long)va);
	CHECK_EQ(stat_now(&st1), 0);
	CHECK_EQ(st1.free_pages, st0.free_pages - 3);
	CHECK_EQ(st1.icas, st0.icas + 1);
	uint64_t *w = (uint64_t *)va;
	for (int i = 0; i < 3 * PAGE / 8; i++)
		CHECK(w[i] == 0, "word %d is %lx", i, (unsigned long)w[i]);
	memset(w, 0xa5, 3 * PAGE);
	CHECK_EQ(sys_ica_free((int)id), 0);
	id = sys_ica_alloc(3, &va);         /* first fit: most likely the same pages */
	CHECK(id >= 0, "alloc %ld", id);
	w = (uint64_t *)va;
	for (int i = 0; i < 3 * PAGE / 8; i++)
		CHECK(w[i] == 0, "reused word %d is %lx", i, (unsigned long)w[i]);
	CHECK_EQ(sys_ica_free((int)id), 0);
	CHECK_EQ(ica_free_pages(), st0.free_pages);
	return 0;
}

TEST(ica_bad_and_stale_ids)
{
	struct hako_ica_stat st;
	CHECK_EQ(stat_now(&st), 0);
	int bad[] = { -1, -1000, st.icas_max, st.icas_max + 1, 1 << 20, 0x7fffffff };
	for (unsigned i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		CHECK_EQ(sys_ica_free(bad[i]), -EINVAL);
		CHECK_EQ(sys_ica_paste(bad[i]), -EINVAL);
		CHECK_EQ(sys_ica_peel(bad[i]), -EINVAL);
	}
	uint64_t va;
	long id = sys_ica_alloc(1, &va);
	CHECK(id >= 0, "alloc %ld", id);
	CHECK_EQ(sys_ica_peel((int)id), 0);
	CHECK_EQ(sys_ica_peel((int)id), -EPERM);        /* not pasted in us any more */
	CHECK_EQ(sys_ica_free((int)id), 0);             /* the owner may free it peeled */
	CHECK_EQ(sys_ica_free((int)id), -EINVAL);       /* double free */
	CHECK_EQ(sys_ica_paste((int)id), -EINVAL);
	CHECK_EQ(sys_ica_peel((int)id), -EINVAL);
	CHECK_EQ(ica_free_pages(), st.free_pages);
	return 0;
}

TEST(ica_peel_paste_keeps_contents)
{
	struct hako_ica_stat st0, st1;
	uint64_t va;
	CHECK_EQ(stat_now(&st0), 0);
	long id = sys_ica_alloc(2, &va);
	CHECK(id >= 0, "alloc %ld", id);
	for (int i = 0; i < 2 * PAGE / 8; i++)
		((uint64_t *)va)[i] = i * 0x1234567ull;
	for (int round = 0; round < 10; round++) {
		CHECK_EQ(sys_ica_peel((int)id), 0);
		CHECK_EQ(sys_ica_paste((int)id), (long)va);   /* always the same place */
	}
	for (int i = 0; i < 2 * PAGE / 8; i++)
		CHECK(((uint64_t *)va)[i] == i * 0x1234567ull, "word %d changed", i);
	CHECK_EQ(stat_now(&st1), 0);
	CHECK(st1.peels >= st0.peels + 10, "peels %lu -> %lu", (unsigned long)st0.peels, (unsigned long)st1.peels);
	CHECK_EQ(sys_ica_free((int)id), 0);
	return 0;
}

/* First touches fault in baseline mode; in fast mode paste mapped the pages. */
TEST(ica_first_touch_faults_only_in_baseline)
{
	struct hako_ica_stat st0, st1;
	uint64_t va;
	long id = sys_ica_alloc(4, &va);
	CHECK(id >= 0, "alloc %ld", id);
	CHECK_EQ(sys_ica_peel((int)id), 0);
	CHECK_EQ(sys_ica_paste((int)id), (long)va);
	CHECK_EQ(stat_now(&st0), 0);
	for (int p = 0; p < 4; p++)
		((volatile char *)va)[p * PAGE] = 1;
	CHECK_EQ(stat_now(&st1), 0);
	uint64_t faults = st1.faults - st0.faults;
	if (st0.mode == HAKO_ISPC_BASELINE)
		CHECK(faults >= 4, "baseline: %lu faults for 4 first touches", (unsigned long)faults);
	else
		CHECK(faults == 0, "fast: %lu faults after paste", (unsigned long)faults);
	CHECK_EQ(sys_ica_free((int)id), 0);
	return 0;
}

/* Another process knows our ICA's id: it may not free, paste or peel it. */
UROLE(ica_foreign_ops)
{
	int id = atoi(argv[0]), bad = 0;
	long r;
	if ((r = sys_ica_free(id)) != -EINVAL && r != -EPERM)
		bad |= 1;
	if ((r = sys_ica_paste(id)) != -EINVAL && r != -EPERM)
		bad |= 2;
	if ((r = sys_ica_peel(id)) != -EINVAL && r != -EPERM)
		bad |= 4;
	return bad;
}

TEST(ica_not_owner_cannot_use_id)
{
	uint64_t va;
	long id = sys_ica_alloc(1, &va);
	CHECK(id >= 0, "alloc %ld", id);
	*(volatile uint64_t *)va = 0xfeedull;
	char arg[16];
	snprintf(arg, sizeof arg, "%ld", id);
	CHECK_EQ(run_role("ica_foreign_ops", arg, NULL), 0);
	CHECK_EQ(sys_ica_peel((int)id), 0);
	CHECK_EQ(run_role("ica_foreign_ops", arg, NULL), 0);   /* peeled: still not theirs */
	CHECK_EQ(sys_ica_paste((int)id), (long)va);
	CHECK(*(volatile uint64_t *)va == 0xfeedull, "contents changed");
	CHECK_EQ(sys_ica_free((int)id), 0);
	return 0;
}

/* Allocate PAGES-page ICAs into IDS (room for MAX) until refused: how many. */
static int alloc_until_refused(int *ids, int max, size_t pages, long *err)
{
	uint64_t va;
	int n = 0;
	*err = 0;
	while (n < max && (*err = sys_ica_alloc(pages, &va)) >= 0)
		ids[n++] = (int)*err;
	return n;
}

static int free_all(const int *ids, int n)
{
	int bad = 0;
	for (int i = 0; i < n; i++)
		bad |= sys_ica_free(ids[i]) != 0;
	return bad;
}

TEST(ica_region_and_table_exhaustion_recover)
{
	struct hako_ica_stat st;
	CHECK_EQ(stat_now(&st), 0);
	int max = st.icas_max + 8;
	int *big = malloc(sizeof(int) * (size_t)max), *small = malloc(sizeof(int) * (size_t)max);
	CHECK(big && small, "malloc");
	long err;
	/* The region: 1 MiB ICAs until it is full, then single pages. */
	int nbig = alloc_until_refused(big, max, HAKO_ICA_MAX_PAGES, &err);
	CHECK(err == -ENOMEM || err == -EAGAIN, "1 MiB ICA %d: %ld", nbig, err);
	int nsmall = alloc_until_refused(small, max, 1, &err);
	CHECK(err == -ENOMEM || err == -EAGAIN, "page ICA %d: %ld", nsmall, err);
	CHECK(nbig * HAKO_ICA_MAX_PAGES + nsmall <= (int)st.free_pages, "%d + %d pages from %lu", nbig, nsmall,
	      (unsigned long)st.free_pages);
	CHECK(ica_free_pages() < HAKO_ICA_MAX_PAGES, "%lu pages still free", (unsigned long)ica_free_pages());
	CHECK_EQ(free_all(big, nbig) | free_all(small, nsmall), 0);
	CHECK_EQ(ica_free_pages(), st.free_pages);
	/* The table: single pages until it or the region is full. */
	nsmall = alloc_until_refused(small, max, 1, &err);
	CHECK(err == -ENOMEM || err == -EAGAIN, "page ICA %d: %ld", nsmall, err);
	CHECK(nsmall <= st.icas_max, "%d ICAs in a table of %d", nsmall, st.icas_max);
	CHECK_EQ(free_all(small, nsmall), 0);
	CHECK_EQ(ica_free_pages(), st.free_pages);
	uint64_t va;
	long id = sys_ica_alloc(HAKO_ICA_MAX_PAGES, &va);   /* and all is usable again */
	CHECK(id >= 0, "alloc after %ld", id);
	CHECK_EQ(sys_ica_free((int)id), 0);
	free(big);
	free(small);
	return 0;
}
