/*
 * test_ahci.c — self-tests of the AHCI driver (kernel/drivers/block/ahci/ahci.c) on the
 * disk `./hako boot --disk ahci` attaches: a fresh 8 MiB image whose every
 * 4 KiB block starts with "HAKODISK" and the block number (u64, little
 * endian), the rest zero.  Reads check those labels, writes go to blocks
 * 1024 and up (each test its own) and are read back, a device error comes
 * back as -EIO, and threads on every CPU keep the disk's slots busy at once.
 * Without such a disk every test is reported SKIP.
 */
#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#include <blk.h>
#include <cpu.h>
#include <errno.h>
#include <ktest.h>
#include <pmm.h>
#include <sched.h>
#include <thread.h>
#include <arch/arch.h>

#define LABEL_BYTES    16
#define WRITE_BASE     1024            /* ahci_write_then_read_back */
#define SHARED_BASE    1536            /* ahci_concurrent_requests_from_every_cpu */
#define ROUNDS         24              /* rounds per thread: 2 reads, then a write read back */
#define WRONG_DATA     1               /* a worker read the wrong bytes */

static struct blkdev *ahci_disk(void)
{
	for (int i = 0; i < blk_count(); i++)
		if (strncmp(blk_get(i)->name, "ahci", 4) == 0)
			return blk_get(i);
	return NULL;
}

/* Does buf hold block's label followed by zeros? */
static bool labelled(const uint8_t *buf, uint64_t block)
{
	if (memcmp(buf, "HAKODISK", 8) != 0)
		return false;
	uint64_t n = 0;
	for (int i = 7; i >= 0; i--)
		n = n << 8 | buf[8 + i];
	if (n != block)
		return false;
	for (int i = LABEL_BYTES; i < BLK_SIZE; i++)
		if (buf[i])
			return false;
	return true;
}

/* A page of pattern for block, seeded by seed. */
static void fill(uint8_t *buf, uint64_t block, uint32_t seed)
{
	uint32_t x = seed * 2654435761u + (uint32_t)block;
	for (int i = 0; i < BLK_SIZE; i++) {
		x = x * 1103515245u + 12345u;
		buf[i] = (uint8_t)(x >> 16);
	}
}

static uint8_t *page(void) { uint64_t pa = pmm_alloc(); return pa ? phys_to_virt(pa) : NULL; }
static void page_free(uint8_t *va) { pmm_free(virt_to_phys(va)); }

TEST(ahci_reads_labelled_blocks)
{
	struct blkdev *d = ahci_disk();
	if (!d)
		SKIP("no AHCI disk (boot with --disk ahci)");
	CHECK(d->blocks == 2048, "%s has %lu blocks, the image 2048", d->name, d->blocks);
	uint8_t *buf = page();
	CHECK(buf, "no memory");
	static const uint64_t blocks[] = { 0, 1, 2, 7, 8, 255, 1000, 2046, 2047 };
	int bad = -1;
	for (unsigned i = 0; i < sizeof blocks / sizeof blocks[0] && bad < 0; i++) {
		int err = blk_io(d, blocks[i], buf, false);
		if (err || !labelled(buf, blocks[i]))
			bad = (int)i;
	}
	page_free(buf);
	CHECK(bad < 0, "block %lu: wrong label or read failed", blocks[bad]);
	return 0;
}

TEST(ahci_write_then_read_back)
{
	struct blkdev *d = ahci_disk();
	if (!d)
		SKIP("no AHCI disk (boot with --disk ahci)");
	uint8_t *buf = page(), *want = page();
	CHECK(buf && want, "no memory");
	int err = 0;
	uint64_t bad = ~0ull;
	for (uint64_t b = WRITE_BASE; b < WRITE_BASE + 8 && !err; b += 2) {
		fill(want, b, 1);
		err = blk_io(d, b, want, true);
	}
	for (uint64_t b = WRITE_BASE; b < WRITE_BASE + 8 && !err && bad == ~0ull; b++) {
		err = blk_io(d, b, buf, false);
		if (b % 2 == 0)
			fill(want, b, 1);
		if (!err && (b % 2 ? !labelled(buf, b) : memcmp(buf, want, BLK_SIZE) != 0))
			bad = b;
	}
	int past = blk_io(d, d->blocks, buf, false);
	page_free(buf);
	page_free(want);
	CHECK(err == 0, "I/O error %d", err);
	CHECK(bad == ~0ull, "block %lu reads back wrong (odd blocks keep their label)", bad);
	CHECK(past == -EINVAL, "reading block %lu of %lu gave %d", d->blocks, d->blocks, past);
	return 0;
}

/* Submit r straight to the driver, past blk_io's bounds check, and wait. */
static int submit_raw(struct blkdev *d, uint64_t block, uint8_t *va, bool write)
{
	struct blk_req r = { .dev = d, .block = block, .write = write, .buf = va,
			     .buf_addr = virt_to_phys(va), .issuer = cpu_id() };
	waitq_init(&r.wq, "ktest-ahci", LOCK_WAITQ);
	__atomic_fetch_add(&d->issued[r.issuer], 1, __ATOMIC_RELAXED);
	int err = d->ops->submit(d, &r);
	if (err)
		return err;
	spin_lock(&r.wq.lock);
	while (!r.done)
		waitq_wait_locked(&r.wq);
	spin_unlock(&r.wq.lock);
	return r.status;
}

TEST(ahci_device_error_is_eio)
{
	struct blkdev *d = ahci_disk();
	if (!d)
		SKIP("no AHCI disk (boot with --disk ahci)");
	uint8_t *buf = page();
	CHECK(buf, "no memory");
	int past = submit_raw(d, d->blocks + 10, buf, false);
	int after = submit_raw(d, 5, buf, false);
	bool ok = labelled(buf, 5);
	page_free(buf);
	CHECK(past == -EIO, "a read past the device's end gave %d", past);
	CHECK(after == 0 && ok, "the next read gave %d, label %s", after, ok ? "right" : "wrong");
	return 0;
}

struct worker {
	struct blkdev *d;
	int cpu, ncpu;
	int reads, writes;           /* done right */
	int err;                     /* first error, or WRONG_DATA */
	uint64_t bad_block;
};

/* ROUNDS requests: label reads of blocks others read too, and writes of
 * this CPU's own block, each read back. */
static void worker_run(void *arg)
{
	struct worker *w = arg;
	uint8_t *buf = page(), *want = page();
	if (!buf || !want) {
		w->err = -ENOMEM;
		goto out;
	}
	uint64_t mine = SHARED_BASE + 256 + (uint64_t)w->cpu;
	for (int i = 0; i < ROUNDS && !w->err; i++) {
		if (i % 3 == 2) {
			fill(want, mine, (uint32_t)i);
			w->err = blk_io(w->d, mine, want, true);
			if (!w->err)
				w->err = blk_io(w->d, mine, buf, false);
			if (!w->err && memcmp(buf, want, BLK_SIZE) != 0) {
				w->err = WRONG_DATA;
				w->bad_block = mine;
			}
			w->writes += !w->err;
		} else {
			uint64_t b = SHARED_BASE + (uint64_t)((i * w->ncpu + w->cpu) % 256);
			w->err = blk_io(w->d, b, buf, false);
			if (!w->err && !labelled(buf, b)) {
				w->err = WRONG_DATA;
				w->bad_block = b;
			}
			w->reads += !w->err;
		}
	}
out:
	if (buf)
		page_free(buf);
	if (want)
		page_free(want);
}

TEST(ahci_concurrent_requests_from_every_cpu)
{
	struct blkdev *d = ahci_disk();
	if (!d)
		SKIP("no AHCI disk (boot with --disk ahci)");
	static struct worker w[MAX_CPUS];
	uint64_t issued[MAX_CPUS], completed = 0, completed0 = 0;
	for (int c = 0; c < ncpus; c++) {
		issued[c] = d->issued[c];
		completed0 += d->completed[c];
	}
	for (int c = 0; c < ncpus; c++)
		w[c] = (struct worker){ .d = d, .cpu = c, .ncpu = ncpus };
	CHECK(ktest_on_every_cpu("ktest-ahci", worker_run, w, sizeof w[0]) == 0, "thread_create");
	for (int c = 0; c < ncpus; c++) {
		CHECK(w[c].err == 0, "cpu %d: error %d (block %lu)", c, w[c].err, w[c].bad_block);
		CHECK(w[c].reads + 2 * w[c].writes == ROUNDS / 3 * 4, "cpu %d: %d reads, %d writes",
			 c, w[c].reads, w[c].writes);
		CHECK(d->issued[c] - issued[c] == (uint64_t)(ROUNDS / 3 * 4),
			 "cpu %d issued %lu requests", c, d->issued[c] - issued[c]);
		completed += d->completed[c];
	}
	CHECK(completed - completed0 == (uint64_t)ncpus * (ROUNDS / 3 * 4),
		 "%lu requests completed of %d", completed - completed0, ncpus * (ROUNDS / 3 * 4));
	return 0;
}
