/*
 * vclock_device.c — the devices' fixed-service-time clock (vclock.h,
 * cm_vclock_service): one timeline of busy times per device and clock.
 *
 * A device's requests wait unplaced until a completion is first waited
 * for; then the waited-for request and every unplaced one issued no later
 * are put, in issue order, on a timeline of the device's busy times (one
 * per clock), each in the first gap after its issue that holds it.  A
 * request's end is posted under (HAKO_SYNC_IO, its token) for its waiter
 * on the clocks of vclock.c.
 */
#include <string.h>

#include "vclock_int.h"

/*
 * Serve a request of len from at: in the first gap at or after at that
 * holds it.  Under -icount the vCPUs take turns, so a request may reach
 * the device after one issued later on another vCPU's clock; it goes
 * where it would have gone in time, before that one if there is room.
 */
static uint64_t place(struct timeline *t, uint64_t at, uint64_t len)
{
	uint64_t start = at > t->floor ? at : t->floor;
	unsigned i = 0;
	for (; i < t->n; i++) {
		if (t->b[i].end <= start)
			continue;
		if (start + len <= t->b[i].start)
			break;
		start = t->b[i].end;
	}
	if (t->n == CM_DEVICE_SLOTS) {           /* forget the earliest */
		if (t->b[0].end > t->floor)
			t->floor = t->b[0].end;
		memmove(&t->b[0], &t->b[1], (t->n - 1) * sizeof t->b[0]);
		t->n--;
		if (i > 0)
			i--;
	}
	memmove(&t->b[i + 1], &t->b[i], (t->n - i) * sizeof t->b[0]);
	t->b[i] = (struct busy){ start, start + len };
	t->n++;
	return start + len;
}

/*
 * Place request t of device d, and first every unplaced one issued no
 * later on each clock, in issue order (ties in the order they reached
 * the plugin): a request's end then depends on the issue times of the
 * requests before it, not on when -icount's turns brought their marks.
 * Each request placed on both clocks leaves the list and its end is
 * posted under (HAKO_SYNC_IO, its token) for its waiters.
 */
static void settle(struct cm_vclock *vc, struct device *d, unsigned t)
{
	struct cm_work due = d->unplaced[t].issue;
	for (unsigned c = 0; c < 2; c++) {
		for (;;) {
			struct request *first = NULL;
			for (unsigned i = 0; i < d->n; i++) {
				struct request *r = &d->unplaced[i];
				uint64_t at = *clock_of(&r->issue, c);
				if (!r->placed[c] && at <= *clock_of(&due, c) &&
				    (!first || at < *clock_of(&first->issue, c)))
					first = r;
			}
			if (!first)
				break;
			*clock_of(&first->end, c) = place(&d->busy[c], *clock_of(&first->issue, c),
							  *clock_of(&first->len, c));
			first->placed[c] = true;
		}
	}
	unsigned kept = 0;
	for (unsigned i = 0; i < d->n; i++) {
		struct request r = d->unplaced[i];
		if (!r.placed[0] || !r.placed[1]) {
			d->unplaced[kept++] = r;
			continue;
		}
		struct slot *s = vclock_lookup(vc, HAKO_SYNC_IO, r.token);
		if (s)
			vclock_post_at(s, r.end);
		else
			vc->dropped++;
	}
	d->n = kept;
}

/* The device and index of the unplaced request token; NULL if none. */
static struct device *unplaced(struct cm_vclock *vc, uint64_t token, unsigned *t)
{
	for (unsigned dev = 0; dev < HAKO_SYNC_DEVICES; dev++) {
		struct device *d = &vc->devices[dev];
		for (unsigned i = 0; i < d->n; i++)
			if (d->unplaced[i].token == token) {
				*t = i;
				return d;
			}
	}
	return NULL;
}

void cm_vclock_service(struct cm_vclock *vc, unsigned vcpu, struct cm_work now,
		       unsigned dev, uint64_t token, struct cm_work service)
{
	struct vcpu_clock *v = vclock_sync(vc, vcpu, now);
	if (!v)
		return;
	if (dev >= HAKO_SYNC_DEVICES) {
		vc->dropped++;
		return;
	}
	unsigned t;
	struct device *old = unplaced(vc, token, &t);
	if (old)                                 /* the token's previous request, never waited for */
		settle(vc, old, t);
	struct device *d = &vc->devices[dev];
	const struct timeline *placed = &d->busy[0];
	vc->late += placed->n && placed->b[placed->n - 1].start > v->clock.cycles;
	if (d->n == CM_DEVICE_SLOTS) {           /* full: place the earliest issued */
		unsigned first = 0;
		for (unsigned i = 1; i < d->n; i++)
			if (d->unplaced[i].issue.cycles < d->unplaced[first].issue.cycles)
				first = i;
		settle(vc, d, first);
	}
	d->unplaced[d->n++] = (struct request){ .token = token, .issue = v->clock, .len = service };
}

void vclock_settle_io(struct cm_vclock *vc, uint64_t token)
{
	unsigned t;
	struct device *d = unplaced(vc, token, &t);
	if (d)
		settle(vc, d, t);
}

uint64_t cm_vclock_late(const struct cm_vclock *vc)
{
	return vc->late;
}
