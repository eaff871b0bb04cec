/*
 * sys_intr.c — the intr_ctl system call (interrupt packaging, paper 000):
 * the settings, counters and phase-probe records of a source copied
 * between user memory and the kernel, the batches' statistics (STATS) and
 * the grouping switch (GROUP); intr_pack.c and intr_pack_ctl.c do
 * the work.  GET, STATS and reading the probe are open; SET, RESET and
 * GROUP need HAKO_PRIV_INTR, the probe's other ops HAKO_PRIV_MEASURE (priv.h).
 */
#include <stdint.h>
#include <errno.h>
#include <syscall.h>
#include <intr_pack.h>
#include <priv.h>
#include <thread.h>
#include <uaccess.h>

/* The probe is global: s (NULL if dev names no source) matters only to
 * CALIBRATE.  Reading the records is open; the rest is measurement control. */
static long probe(struct intr_src *s, const struct hako_intr_probe *p)
{
	if (p->op != HAKO_PROBE_READ && priv_check(HAKO_PRIV_MEASURE) < 0)
		return -EPERM;
	switch (p->op) {
	case HAKO_PROBE_START:
		intr_pack_probe_start();
		return 0;
	case HAKO_PROBE_STOP:
		intr_pack_probe_stop();
		return 0;
	case HAKO_PROBE_READ: {
		uint32_t n;
		const struct hako_intr_probe_rec *recs = intr_pack_probe_records(&n);
		if (n > p->max)
			n = p->max;
		if (copy_to_user(p->buf, recs, (uint64_t)n * sizeof recs[0]) < 0)
			return -EFAULT;
		return n;
	}
	case HAKO_PROBE_CALIBRATE: {
		struct hako_intr_calib c;
		int err = s ? intr_pack_calibrate(s, &c) : -ENODEV;
		return err < 0 ? err : copy_to_user(p->buf, &c, sizeof c);
	}
	}
	return -EINVAL;
}

long sys_intr_ctl(uint64_t dev, uint64_t op, uint64_t uarg)
{
	struct intr_src *s = intr_pack_get((int)dev);
	if ((int)op == HAKO_INTR_PROBE) {
		struct hako_intr_probe p;
		if (copy_from_user(&p, uarg, sizeof p) < 0)
			return -EFAULT;
		return probe(s, &p);
	}
	if (((int)op == HAKO_INTR_SET || (int)op == HAKO_INTR_RESET || (int)op == HAKO_INTR_GROUP) &&
	    priv_check(HAKO_PRIV_INTR) < 0)
		return -EPERM;
	if ((int)op == HAKO_INTR_STATS) {
		struct hako_intr_stats st;
		intr_pack_stats(&st);
		return copy_to_user(uarg, &st, sizeof st);
	}
	if ((int)op == HAKO_INTR_GROUP)
		return intr_pack_set_group(uarg);
	if (!s)
		return -ENODEV;
	switch ((int)op) {
	case HAKO_INTR_GET: {
		struct hako_intr_dev d;
		intr_pack_snapshot(s, &d);
		return copy_to_user(uarg, &d, sizeof d);
	}
	case HAKO_INTR_SET: {
		struct hako_intr_set set;
		if (copy_from_user(&set, uarg, sizeof set) < 0)
			return -EFAULT;
		return intr_pack_configure(s, &set);
	}
	case HAKO_INTR_RESET: {
		int err;
		for (int tries = 0; (err = intr_pack_reset(s)) == -EBUSY && tries < 100; tries++)
			thread_sleep_ns(100000);     /* a batch was running on the source's CPU */
		return err;
	}
	}
	return -EINVAL;
}
