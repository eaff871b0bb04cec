/*
 * test_nvme.c — self-tests of the NVMe driver (kernel/drivers/block/nvme/nvme.c) on
 * the disk `./hako boot --disk nvme` gives the guest: a fresh image whose
 * every 4 KiB block starts with "HAKODISK" and the block's number (u64,
 * little-endian), the rest zero (tools/hakotool/disks.py).  The tests
 * read that, write and read back (putting each block back as it was, so
 * they can run in any order), and run a thread pinned to every CPU at
 * once to check paper 001's point for NVMe: each completion comes back
 * on the CPU that issued the request, through that CPU's own queue and
 * MSI-X vector.
 */
#include <stdint.h>
#include <string.h>
#include <blk.h>
#include <cpu.h>
#include <errno.h>
#include <ktest.h>
#include <pmm.h>
#include <thread.h>

#define LABEL_BYTES 16

static struct blkdev *nvme_disk(void)
{
	for (int i = 0; i < blk_count(); i++)
		if (strcmp(blk_get(i)->name, "nvme0") == 0)
			return blk_get(i);
	return NULL;
}

/* A fresh image's block: the label, then zeros. */
static void fresh_block(uint8_t *buf, uint64_t block)
{
	memset(buf, 0, BLK_SIZE);
	memcpy(buf, "HAKODISK", 8);
	for (int i = 0; i < 8; i++)
		buf[8 + i] = (uint8_t)(block >> (8 * i));
}

static void pattern_block(uint8_t *buf, uint64_t block, uint32_t seed)
{
	for (int i = 0; i < BLK_SIZE; i++)
		buf[i] = (uint8_t)(block * 131 + (uint64_t)i * 7 + seed);
}

static int first_difference(const uint8_t *a, const uint8_t *b)
{
	for (int i = 0; i < BLK_SIZE; i++)
		if (a[i] != b[i])
			return i;
	return -1;
}

/* Two frames for buffers; NULL if there are none. */
static uint8_t *buffers(uint64_t pa[2])
{
	pa[0] = pmm_alloc();
	pa[1] = pmm_alloc();
	if (pa[0] && pa[1])
		return phys_to_virt(pa[0]);
	if (pa[0])
		pmm_free(pa[0]);
	if (pa[1])
		pmm_free(pa[1]);
	return NULL;
}

static void free_buffers(uint64_t pa[2])
{
	pmm_free(pa[0]);
	pmm_free(pa[1]);
}

TEST(nvme_reads_block_labels)
{
	struct blkdev *d = nvme_disk();
	if (!d)
		SKIP("no NVMe disk (boot with --disk nvme)");
	CHECK(d->blocks == 2048, "nvme0 has %lu blocks, the image 2048", d->blocks);
	uint64_t pa[2];
	uint8_t *got = buffers(pa);
	CHECK(got, "no memory");
	uint8_t *want = phys_to_virt(pa[1]);
	uint64_t picks[] = { 0, 1, 2, 7, 8, 255, 256, 1000, d->blocks / 2, d->blocks - 2, d->blocks - 1 };
	int bad = -1, err = 0;
	uint64_t block = 0;
	for (unsigned i = 0; i < sizeof picks / sizeof picks[0] && bad < 0 && !err; i++) {
		block = picks[i];
		err = blk_io(d, block, got, false);
		fresh_block(want, block);
		bad = err ? -1 : first_difference(got, want);
	}
	free_buffers(pa);
	CHECK(!err, "block %lu: read error %d", block, err);
	CHECK(bad < 0, "block %lu: byte %d is not the fresh image's", block, bad);
	return 0;
}

/*
 * Write a pattern to block, read it back, write the fresh label back and
 * read that.  NULL if all went well, else what failed (*err: the error,
 * or the first byte that differs).
 */
static const char *write_read_restore(struct blkdev *d, uint64_t block, uint32_t seed,
				      uint8_t *a, uint8_t *b, int *err)
{
	for (int pass = 0; pass < 2; pass++) {
		if (pass == 0)
			pattern_block(a, block, seed);
		else
			fresh_block(a, block);
		*err = blk_io(d, block, a, true);
		if (*err)
			return "write";
		*err = blk_io(d, block, b, false);
		if (*err)
			return "read";
		*err = first_difference(a, b);
		if (*err >= 0)
			return pass == 0 ? "read back differs at byte" : "label not restored, byte";
	}
	*err = 0;
	return NULL;
}

TEST(nvme_write_reads_back)
{
	struct blkdev *d = nvme_disk();
	if (!d)
		SKIP("no NVMe disk (boot with --disk nvme)");
	uint64_t pa[2];
	uint8_t *a = buffers(pa);
	CHECK(a, "no memory");
	uint8_t *b = phys_to_virt(pa[1]);
	uint64_t picks[] = { 3, 4, 1023, d->blocks - 1 };
	const char *what = NULL;
	uint64_t block = 0;
	int err = 0;
	for (unsigned i = 0; i < sizeof picks / sizeof picks[0] && !what; i++) {
		block = picks[i];
		what = write_read_restore(d, block, 0x5a + i, a, b, &err);
	}
	int past_end = what ? -EINVAL : blk_io(d, d->blocks, a, false);
	free_buffers(pa);
	CHECK(!what, "block %lu: %s %d", block, what, err);
	CHECK(past_end == -EINVAL, "a block past the end: %d, want -EINVAL", past_end);
	return 0;
}

/* ---- every CPU at once ------------------------------------------------------ */

#define ROUNDS 24             /* requests per CPU: write_read_restore makes 4 */

struct worker {
	struct blkdev *d;
	int cpu;
	const char *what;         /* NULL, or what failed (write_read_restore) */
	int err;
	uint64_t block;
};

/* CPU c's blocks: 32 of its own, away from those the other tests use. */
static uint64_t worker_block(int cpu, int i) { return 1100 + (uint64_t)cpu * 32 + (uint64_t)(i % 32); }

static void worker(void *arg)
{
	struct worker *w = arg;
	uint64_t pa[2];
	uint8_t *a = buffers(pa);
	if (!a) {
		w->what = "no memory";
		thread_exit(0);
	}
	uint8_t *b = phys_to_virt(pa[1]);
	for (int i = 0; i < ROUNDS / 4 && !w->what; i++) {
		w->block = worker_block(w->cpu, i);
		w->what = write_read_restore(w->d, w->block, (uint32_t)w->cpu, a, b, &w->err);
	}
	free_buffers(pa);
	thread_exit(0);
}

TEST(nvme_completes_on_issuing_cpu)
{
	struct blkdev *d = nvme_disk();
	if (!d)
		SKIP("no NVMe disk (boot with --disk nvme)");
	uint64_t issued0[MAX_CPUS], done0[MAX_CPUS];
	for (int c = 0; c < ncpus; c++) {
		issued0[c] = d->issued[c];
		done0[c] = d->completed[c];
	}
	struct worker w[MAX_CPUS];
	for (int c = 0; c < ncpus; c++)
		w[c] = (struct worker){ .d = d, .cpu = c };
	CHECK(ktest_on_every_cpu("nvme-worker", worker, w, sizeof w[0]) == 0, "thread_create");
	for (int c = 0; c < ncpus; c++) {
		CHECK(!w[c].what, "cpu %d, block %lu: %s %d", c, w[c].block, w[c].what, w[c].err);
		uint64_t issued = d->issued[c] - issued0[c], done = d->completed[c] - done0[c];
		CHECK(issued == ROUNDS, "cpu %d issued %lu requests, want %d", c, issued, ROUNDS);
		CHECK(done == issued, "cpu %d issued %lu requests and took %lu completions",
			 c, issued, done);
	}
	return 0;
}
