/*
 * test_epochs.c — the run cut at named code addresses (epochs.h): each
 * epoch gets every vCPU's counts from its start to the next start, with
 * its label, and vCPUs that ran nothing in it are left out.
 */
#include "check.h"
#include "epochs.h"

struct seen {
	struct cm_epoch_row rows[8];
	int n;
};

static void keep(const struct cm_epoch_row *row, void *arg)
{
	struct seen *s = arg;
	if (s->n < 8)
		s->rows[s->n++] = *row;
}

TEST(epochs_take_the_differences_between_starts)
{
	struct cm_epochs *e = cm_epochs_new(2);
	CHECK(e != NULL);
	struct cm_counts now[2] = { 0 };
	now[0].v[CM_INSNS] = 100;                          /* before any epoch: not counted */
	CHECK_EQ(cm_epochs_start(e, 0x4014f0, (const uint64_t[]){ 1, 10, 0 }, now), 0);
	now[0].v[CM_INSNS] += 5;
	now[1].v[CM_INSNS] += 40;
	now[1].v[CM_IO_CYCLES] += 243;
	CHECK_EQ(cm_epochs_start(e, 0x4014f0, (const uint64_t[]){ 0, 10, 0 }, now), 0);
	now[0].v[CM_INSNS] += 7;                           /* vCPU 1 idle in this one */
	CHECK_EQ(cm_epochs_close(e, now), 0);
	CHECK_EQ(cm_epochs_close(e, now), 0);              /* closing twice adds nothing */
	struct seen s = { .n = 0 };
	cm_epochs_each(e, keep, &s);
	CHECK_EQ(s.n, 3);
	CHECK(s.rows[0].seq == 0 && s.rows[0].vcpu == 0 && s.rows[0].n.v[CM_INSNS] == 5);
	CHECK(s.rows[0].at == 0x4014f0 && s.rows[0].args[0] == 1 && s.rows[0].args[1] == 10);
	CHECK(s.rows[1].seq == 0 && s.rows[1].vcpu == 1 && s.rows[1].n.v[CM_INSNS] == 40);
	CHECK_EQ(s.rows[1].n.v[CM_IO_CYCLES], 243);
	CHECK(s.rows[2].seq == 1 && s.rows[2].vcpu == 0 && s.rows[2].n.v[CM_INSNS] == 7);
	CHECK_EQ(s.rows[2].args[0], 0);
	cm_epochs_free(e);
}

TEST(no_epoch_no_rows)
{
	struct cm_epochs *e = cm_epochs_new(1);
	struct cm_counts now[1] = { 0 };
	now[0].v[CM_INSNS] = 9;
	CHECK_EQ(cm_epochs_close(e, now), 0);
	struct seen s = { .n = 0 };
	cm_epochs_each(e, keep, &s);
	CHECK_EQ(s.n, 0);
	cm_epochs_free(e);
}
