/*
 * test_hostwait.c — the plugin's hold on a vCPU until a device has written
 * the word the guest looks at next (hostwait.h): a word already there
 * costs no sleep, one written after some polls is waited for and counted
 * as held, one that never comes or cannot be read ends in a timeout.
 * The "device" is a counter of reads after which the word appears.
 */
#include "check.h"
#include "hostwait.h"

struct fake {
	uint32_t word;               /* what memory holds now */
	uint32_t later;              /* what the device writes ... */
	int reads_left;              /* ... after this many more reads (-1: never) */
	uint64_t slept;              /* host microseconds the test was asked to sleep */
	bool unreadable;
};

static bool fake_read(uint64_t va, uint32_t *word, void *ctx)
{
	struct fake *f = ctx;
	if (f->unreadable || va != 0x1000)
		return false;
	if (f->reads_left == 0)
		f->word = f->later;
	else if (f->reads_left > 0)
		f->reads_left--;
	*word = f->word;
	return true;
}

static void fake_sleep(uint64_t us, void *ctx)
{
	((struct fake *)ctx)->slept += us;
}

/* mask << 32 | value: an AHCI D2H FIS's type byte. */
#define D2H (0xffull << 32 | 0x34)

TEST(a_word_already_written_costs_no_sleep)
{
	struct fake f = { .word = 0x12345634, .reads_left = -1 };
	struct cm_host_waits w = { 0 };
	CHECK(cm_host_wait(&w, 0x1000, D2H, fake_read, fake_sleep, &f, 100, 10));
	CHECK_EQ(w.waits, 1);
	CHECK_EQ(w.held, 0);
	CHECK_EQ(f.slept, 0);
	CHECK_EQ(w.timeouts, 0);
}

TEST(a_word_written_later_is_waited_for)
{
	struct fake f = { .word = 0, .later = 0x34, .reads_left = 3 };
	struct cm_host_waits w = { 0 };
	CHECK(cm_host_wait(&w, 0x1000, D2H, fake_read, fake_sleep, &f, 100, 10));
	CHECK_EQ(w.held, 1);
	CHECK_EQ(f.slept, 30);           /* three reads found it missing, a sleep after each */
	CHECK_EQ(w.held_us, 30);
	CHECK_EQ(w.timeouts, 0);
}

TEST(only_the_masked_bits_count)
{
	/* An NVMe completion entry's phase tag, bit 16, expected 1. */
	struct fake f = { .word = 0xfffe0000u, .later = 0x00010007u, .reads_left = 1 };
	struct cm_host_waits w = { 0 };
	CHECK(cm_host_wait(&w, 0x1000, 1ull << 48 | 1u << 16, fake_read, fake_sleep, &f, 100, 10));
	CHECK_EQ(f.slept, 10);
}

TEST(a_word_that_never_comes_times_out_at_the_limit)
{
	struct fake f = { .word = 0, .reads_left = -1 };
	struct cm_host_waits w = { 0 };
	CHECK(!cm_host_wait(&w, 0x1000, D2H, fake_read, fake_sleep, &f, 100, 10));
	CHECK_EQ(f.slept, 100);
	CHECK_EQ(w.held, 1);
	CHECK_EQ(w.timeouts, 1);
}

TEST(an_unreadable_word_is_a_timeout_without_sleeping)
{
	struct fake f = { .unreadable = true };
	struct cm_host_waits w = { 0 };
	CHECK(!cm_host_wait(&w, 0x1000, D2H, fake_read, fake_sleep, &f, 100, 10));
	CHECK_EQ(f.slept, 0);
	CHECK_EQ(w.held, 0);
	CHECK_EQ(w.timeouts, 1);
}
