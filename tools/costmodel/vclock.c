/*
 * vclock.c — per-vCPU virtual clocks and their happens-before edges
 * (vclock.h): each vCPU's clocks, the posts and waits between them, locks,
 * interrupts' handlers, threads run in a vCPU's future, and regions' elapsed
 * times.  The devices' clock is vclock_device.c; what the two share is
 * vclock_int.h.
 *
 * The tokens live in an open-addressing hash table keyed by (kind,
 * token); a slot, once used, stays (a consumed post only clears its
 * flag), so a lookup never meets a hole left by a removal.  The table
 * doubles when half full.  Region state is allocated on a region's first
 * marker, as in regions.c.
 */
#include <stdlib.h>
#include <string.h>

#include "vclock_int.h"

#define SLOTS_FIRST 1024

struct cm_vclock *cm_vclock_new(unsigned nvcpus)
{
	struct cm_vclock *vc = calloc(1, sizeof *vc);
	if (!vc)
		return NULL;
	vc->nvcpus = nvcpus;
	vc->v = calloc(nvcpus, sizeof *vc->v);
	vc->slots = calloc(SLOTS_FIRST, sizeof *vc->slots);
	vc->nslots = SLOTS_FIRST;
	vc->devices = calloc(HAKO_SYNC_DEVICES, sizeof *vc->devices);
	if (!vc->v || !vc->slots || !vc->devices) {
		cm_vclock_free(vc);
		return NULL;
	}
	return vc;
}

void cm_vclock_free(struct cm_vclock *vc)
{
	if (!vc)
		return;
	for (unsigned id = 0; id < HAKO_REGION_IDS; id++)
		free(vc->regions[id]);
	free(vc->devices);
	free(vc->slots);
	free(vc->v);
	free(vc);
}

static size_t hash(unsigned kind, uint64_t token, size_t nslots)
{
	uint64_t h = (token ^ (uint64_t)kind << 56) * 0x9E3779B97F4A7C15ull;
	return (size_t)(h >> 32) & (nslots - 1);
}

static struct slot *probe(struct slot *slots, size_t nslots, unsigned kind, uint64_t token)
{
	size_t i = hash(kind, token, nslots);
	while (slots[i].kind && (slots[i].kind != kind || slots[i].token != token))
		i = (i + 1) & (nslots - 1);
	return &slots[i];
}

static bool grow(struct cm_vclock *vc)
{
	size_t n = vc->nslots * 2;
	struct slot *s = calloc(n, sizeof *s);
	if (!s)
		return false;
	for (size_t i = 0; i < vc->nslots; i++)
		if (vc->slots[i].kind)
			*probe(s, n, vc->slots[i].kind, vc->slots[i].token) = vc->slots[i];
	free(vc->slots);
	vc->slots = s;
	vc->nslots = n;
	return true;
}

/* The slot of (kind, token), made if missing; NULL if out of memory. */
struct slot *vclock_lookup(struct cm_vclock *vc, unsigned kind, uint64_t token)
{
	if (kind == 0)
		kind = HAKO_REGION_ID_MASK + 1;   /* 0 marks an unused slot */
	if (2 * (vc->used + 1) > vc->nslots && !grow(vc))
		return NULL;
	struct slot *s = probe(vc->slots, vc->nslots, kind, token);
	if (!s->kind) {
		s->kind = kind;
		s->token = token;
		vc->used++;
	}
	return s;
}

static void work_max(struct cm_work *a, struct cm_work b)
{
	if (b.cycles > a->cycles)
		a->cycles = b.cycles;
	if (b.insns > a->insns)
		a->insns = b.insns;
}

/*
 * The clock after `work` from `from` on a vCPU with booked stretches: the
 * work runs around them (a stretch it meets is added to its time).  The
 * stretches wholly before the result are forgotten unless keep is set.
 */
static uint64_t run_around(struct timeline *t, uint64_t from, uint64_t work, bool keep)
{
	uint64_t at = from + work;
	unsigned i = 0;
	for (; i < t->n && t->b[i].start < at; i++)
		if (t->b[i].end > from)
			at += t->b[i].end - (t->b[i].start > from ? t->b[i].start : from);
	if (!keep) {
		unsigned past = 0;
		while (past < t->n && t->b[past].end <= at)
			past++;
		memmove(&t->b[0], &t->b[past], (t->n - past) * sizeof t->b[0]);
		t->n -= past;
	}
	return at;
}

/* Book [start, end) on t, merged with the stretches it overlaps; the earliest goes when full. */
static void book(struct timeline *t, uint64_t start, uint64_t end)
{
	if (end <= start)
		return;
	unsigned i = 0;
	while (i < t->n && t->b[i].end < start)
		i++;
	unsigned j = i;
	while (j < t->n && t->b[j].start <= end) {
		if (t->b[j].start < start)
			start = t->b[j].start;
		if (t->b[j].end > end)
			end = t->b[j].end;
		j++;
	}
	memmove(&t->b[i + 1], &t->b[j], (t->n - j) * sizeof t->b[0]);
	t->n = t->n - (j - i) + 1;
	t->b[i] = (struct busy){ start, end };
	if (t->n == CM_DEVICE_SLOTS) {
		memmove(&t->b[0], &t->b[1], (t->n - 1) * sizeof t->b[0]);
		t->n--;
	}
}

/* Bring vcpu's clock up to now: its work since the last event, unless it spun. */
struct vcpu_clock *vclock_sync(struct cm_vclock *vc, unsigned vcpu, struct cm_work now)
{
	if (vcpu >= vc->nvcpus) {
		vc->dropped++;
		return NULL;
	}
	struct vcpu_clock *v = &vc->v[vcpu];
	struct cm_work work = { now.cycles - v->last.cycles, now.insns - v->last.insns };
	v->last = now;
	if (v->spinning)
		return v;
	if (v->irq_depth) {
		v->irq_work.cycles += work.cycles;
		v->irq_work.insns += work.insns;
	}
	if (v->irq_depth && v->irq_rebased) {
		/* A handler runs at its cause's time: it interrupts the thread
		 * a booked stretch says ran then, it does not wait for it. */
		v->clock.cycles += work.cycles;
		v->clock.insns += work.insns;
		return v;
	}
	v->clock.cycles = run_around(&v->booked_cycles, v->clock.cycles, work.cycles, v->ahead);
	v->clock.insns = run_around(&v->booked_insns, v->clock.insns, work.insns, v->ahead);
	return v;
}

struct cm_work cm_vclock_now(struct cm_vclock *vc, unsigned vcpu, struct cm_work now)
{
	struct vcpu_clock *v = vclock_sync(vc, vcpu, now);
	return v ? v->clock : (struct cm_work){ 0, 0 };
}

/* Bring vcpu up to now and find the slot of (kind, token); NULL (counted) if neither can be had. */
static struct slot *event(struct cm_vclock *vc, unsigned vcpu, struct cm_work now,
			  unsigned kind, uint64_t token, struct vcpu_clock **v)
{
	*v = vclock_sync(vc, vcpu, now);
	struct slot *s = *v ? vclock_lookup(vc, kind, token) : NULL;
	vc->dropped += *v && !s;
	return s;
}

void vclock_post_at(struct slot *s, struct cm_work clock)
{
	if (!s->posted)
		s->at = clock;
	else
		work_max(&s->at, clock);
	s->posted = true;
}

void cm_vclock_post(struct cm_vclock *vc, unsigned vcpu, struct cm_work now,
		    unsigned kind, uint64_t token)
{
	struct vcpu_clock *v;
	struct slot *s = event(vc, vcpu, now, kind, token, &v);
	if (!s)
		return;
	vclock_post_at(s, v->clock);
	if (v->ahead && kind == HAKO_SYNC_THREAD && token == v->ahead_thread) {
		/* The thread that ran ahead leaves: book its stretch, go back. */
		book(&v->booked_cycles, v->ahead_start.cycles, v->clock.cycles);
		book(&v->booked_insns, v->ahead_start.insns, v->clock.insns);
		v->clock = v->present;
		v->ahead = false;
	}
}

/* thread runs on vcpu from `at`, in the vCPU's future: its stretch is booked when it leaves. */
static void run_ahead(struct vcpu_clock *v, struct cm_work at, uint64_t thread)
{
	v->present = v->clock;
	work_max(&v->clock, at);
	v->ahead = true;
	v->ahead_thread = thread;
	v->ahead_start = v->clock;
}

void cm_vclock_wait(struct cm_vclock *vc, unsigned vcpu, struct cm_work now,
		    unsigned kind, uint64_t token)
{
	if (kind == HAKO_SYNC_IO)                /* its end is needed now */
		vclock_settle_io(vc, token);
	struct vcpu_clock *v;
	struct slot *s = event(vc, vcpu, now, kind, token, &v);
	if (!s)
		return;
	struct cm_work was = v->clock;
	if (s->posted && v->irq_depth && !v->irq_rebased) {
		/* The handler runs at the post it waits for, after its work so far. */
		v->clock.cycles = s->at.cycles + v->irq_work.cycles;
		v->clock.insns = s->at.insns + v->irq_work.insns;
		v->irq_rebased = true;
	} else if (s->posted && kind == HAKO_SYNC_THREAD && !v->irq_depth && !v->ahead &&
		   (s->at.cycles > v->clock.cycles || s->at.insns > v->clock.insns)) {
		/*
		 * A thread switched in at a time in this vCPU's future (woken
		 * by a vCPU that is ahead under -icount's turns): it runs then,
		 * its stretch is booked when it leaves, and the vCPU goes back
		 * to its own clock, where the thread it left (or the next) goes
		 * on around the stretch, as it would have run in the meantime.
		 */
		run_ahead(v, s->at, token);
	} else if (s->posted && kind == HAKO_SYNC_SEM && !v->irq_depth && v->thread &&
		   (s->at.cycles > v->clock.cycles || s->at.insns > v->clock.insns)) {
		/*
		 * A unit stored in this vCPU's future: under icount's turns
		 * the thread took it at once, in time it would have slept
		 * until the post, and the vCPU run its other threads.  So the
		 * thread runs from the post on, as a thread woken then does;
		 * if it already ran ahead, its stretch so far is booked and
		 * the gap until the post stays free.
		 */
		if (v->ahead) {
			book(&v->booked_cycles, v->ahead_start.cycles, v->clock.cycles);
			book(&v->booked_insns, v->ahead_start.insns, v->clock.insns);
			work_max(&v->clock, s->at);
			v->ahead_start = v->clock;
		} else {
			run_ahead(v, s->at, v->thread);
		}
	} else if (s->posted) {
		work_max(&v->clock, s->at);
	}
	if (kind == HAKO_SYNC_THREAD && !v->irq_depth) {  /* a switch-in: see cm_vclock_release */
		v->moved.cycles += v->clock.cycles - was.cycles;
		v->moved.insns += v->clock.insns - was.insns;
		v->thread = token;
	}
	s->posted = kind == HAKO_SYNC_SEM && s->posted;   /* a semaphore's post stays */
}

void cm_vclock_irq_begin(struct cm_vclock *vc, unsigned vcpu, struct cm_work now)
{
	struct vcpu_clock *v = vclock_sync(vc, vcpu, now);
	if (!v || v->irq_depth++)
		return;
	v->irq_rebased = false;
	v->outer = v->clock;
	v->irq_work = (struct cm_work){ 0, 0 };
}

void cm_vclock_irq_end(struct cm_vclock *vc, unsigned vcpu, struct cm_work now)
{
	struct vcpu_clock *v = vclock_sync(vc, vcpu, now);
	if (!v || !v->irq_depth || --v->irq_depth || !v->irq_rebased)
		return;
	/* The CPU lost the handler's work and nothing else: what the handler
	 * posted carries its own time to whoever waits for it (an idle CPU
	 * that runs the thread it woke takes that time at the switch). */
	v->clock.cycles = v->outer.cycles + v->irq_work.cycles;
	v->clock.insns = v->outer.insns + v->irq_work.insns;
}

/* One clock of an acquire that did not spin: wait if the lock was held then. */
static uint64_t acquire_at(uint64_t own, uint64_t held, uint64_t released)
{
	return own >= held && own < released ? released : own;
}

/* One clock of a hold beginning at `at`, the previous one released at
 * `released`: a hold taken at or before that release continues the run. */
static uint64_t busy_from(uint64_t busy, uint64_t at, uint64_t released)
{
	return at > released ? at : at < busy ? at : busy;
}

void cm_vclock_acquire(struct cm_vclock *vc, unsigned vcpu, struct cm_work now, uint64_t lock)
{
	struct vcpu_clock *v;
	struct slot *s = event(vc, vcpu, now, HAKO_SYNC_LOCK, lock, &v);
	if (!s)
		return;
	v->clock.cycles = acquire_at(v->clock.cycles, s->held.cycles, s->at.cycles);
	v->clock.insns = acquire_at(v->clock.insns, s->held.insns, s->at.insns);
	s->before[0] = s->held;
	s->before[1] = s->busy;
	s->before[2] = s->at;
	s->held = v->clock;
	s->held_moved = v->moved;
	s->holder = vcpu;
	s->busy.cycles = busy_from(s->busy.cycles, v->clock.cycles, s->at.cycles);
	s->busy.insns = busy_from(s->busy.insns, v->clock.insns, s->at.insns);
}

void cm_vclock_release(struct cm_vclock *vc, unsigned vcpu, struct cm_work now, uint64_t lock)
{
	struct vcpu_clock *v;
	struct slot *s = event(vc, vcpu, now, HAKO_SYNC_LOCK, lock, &v);
	if (!s)
		return;
	/* A hold that ended before the one recorded (it came first in time,
	 * second under -icount's turns) leaves the record to the later one. */
	for (unsigned c = 0; c < 2; c++) {
		if (*clock_of(&v->clock, c) < *clock_of(&s->before[2], c)) {
			*clock_of(&s->held, c) = *clock_of(&s->before[0], c);
			*clock_of(&s->busy, c) = *clock_of(&s->before[1], c);
			*clock_of(&s->at, c) = *clock_of(&s->before[2], c);
			continue;
		}
		uint64_t at = *clock_of(&v->clock, c);
		*clock_of(&s->at, c) = at;
		/*
		 * A thread switched in with the lock held (the run queue's) at
		 * a time later than its vCPU's clock: the vCPU, idle until
		 * then, took the lock then, not at its clock's earlier reading.
		 */
		if (s->holder != vcpu)
			continue;
		uint64_t moved = *clock_of(&v->moved, c) - *clock_of(&s->held_moved, c);
		uint64_t *held = clock_of(&s->held, c), *busy = clock_of(&s->busy, c);
		uint64_t from = *held + moved < at ? *held + moved : at;
		if (*busy == *held)
			*busy = from;
		*held = from;
	}
}

void cm_vclock_spin_begin(struct cm_vclock *vc, unsigned vcpu, struct cm_work now)
{
	struct vcpu_clock *v = vclock_sync(vc, vcpu, now);
	if (v)
		v->spinning++;
}

void cm_vclock_spin_end(struct cm_vclock *vc, unsigned vcpu, struct cm_work now, uint64_t lock)
{
	struct vcpu_clock *v = vclock_sync(vc, vcpu, now);
	if (!v)
		return;
	if (v->spinning)
		v->spinning--;
	if (!lock)
		return;
	struct slot *s = vclock_lookup(vc, HAKO_SYNC_LOCK, lock);
	if (!s) {
		vc->dropped++;
		return;
	}
	/*
	 * It spun from its clock on, under -icount's turns.  It waits for the
	 * release if the lock was busy then: inside the run of holds that
	 * ended with the last release.  One that began spinning before that
	 * run would have had the lock first (its holder was only later in
	 * time, descheduled by -icount's turns): it does not wait.
	 */
	v->clock.cycles = acquire_at(v->clock.cycles, s->busy.cycles, s->at.cycles);
	v->clock.insns = acquire_at(v->clock.insns, s->busy.insns, s->at.insns);
}

void cm_vclock_pause(struct cm_vclock *vc, unsigned vcpu, struct cm_work now, uint64_t va)
{
	if (vcpu >= vc->nvcpus) {
		vc->dropped++;
		return;
	}
	struct vcpu_clock *v = &vc->v[vcpu];
	bool looping = v->pause_va == va && now.insns - v->pause_insns <= CM_VCLOCK_PAUSE_LOOP;
	if (looping)
		v->last = now;           /* one more turn of a wait loop: waiting */
	else
		vclock_sync(vc, vcpu, now);
	v->pause_va = va;
	v->pause_insns = now.insns;
}

void cm_vclock_marker(struct cm_vclock *vc, uint32_t disp, unsigned vcpu, struct cm_work now,
		      uint64_t rax, struct cm_work service)
{
	unsigned op = (disp >> HAKO_REGION_OP_SHIFT) & HAKO_REGION_OP_MASK;
	unsigned kind = disp & HAKO_REGION_ID_MASK;
	switch (op) {
	case HAKO_SYNC_POST:
		cm_vclock_post(vc, vcpu, now, kind, rax);
		break;
	case HAKO_SYNC_WAIT:
		cm_vclock_wait(vc, vcpu, now, kind, rax);
		break;
	case HAKO_SYNC_SPIN_BEGIN:
		cm_vclock_spin_begin(vc, vcpu, now);
		break;
	case HAKO_SYNC_SPIN_END:
		cm_vclock_spin_end(vc, vcpu, now, kind == HAKO_SYNC_LOCK ? rax : 0);
		break;
	case HAKO_SYNC_ACQUIRE:
		cm_vclock_acquire(vc, vcpu, now, rax);
		break;
	case HAKO_SYNC_RELEASE:
		cm_vclock_release(vc, vcpu, now, rax);
		break;
	case HAKO_SYNC_SERVICE:
		cm_vclock_service(vc, vcpu, now, kind, rax, service);
		break;
	case HAKO_SYNC_IRQ_BEGIN:
		cm_vclock_irq_begin(vc, vcpu, now);
		break;
	case HAKO_SYNC_IRQ_END:
		cm_vclock_irq_end(vc, vcpu, now);
		break;
	default:
		vc->dropped++;
	}
}

static void span_begin(struct span *s, struct cm_work clock)
{
	if (s->active)
		return;
	s->active = true;
	s->spans++;
	s->begin = clock;
}

static void span_end(struct span *s, struct cm_work clock)
{
	if (!s->active)
		return;
	s->active = false;
	s->elapsed.cycles += clock.cycles > s->begin.cycles ? clock.cycles - s->begin.cycles : 0;
	s->elapsed.insns += clock.insns > s->begin.insns ? clock.insns - s->begin.insns : 0;
}

/*
 * A global region begins at one moment for every vCPU: each clock is
 * brought up to the latest of them.  Idle vCPUs' clocks stand still and
 * work that no synchronisation reaches (a process torn down after its
 * parent stopped looking) moves one vCPU's clock alone, so without this
 * a vCPU's clock may lag or lead the beginner's by the history of the
 * whole run, and the region's first wake-up on it would count that.
 */
static void align(struct cm_vclock *vc)
{
	struct cm_work latest = { 0, 0 };
	for (unsigned i = 0; i < vc->nvcpus; i++)
		work_max(&latest, vc->v[i].clock);
	for (unsigned i = 0; i < vc->nvcpus; i++) {
		work_max(&vc->v[i].clock, latest);
		work_max(&vc->v[i].present, latest);
	}
}

void cm_vclock_region(struct cm_vclock *vc, uint32_t disp, unsigned vcpu, struct cm_work now)
{
	unsigned op = (disp >> HAKO_REGION_OP_SHIFT) & HAKO_REGION_OP_MASK;
	unsigned id = disp & HAKO_REGION_ID_MASK;
	struct vcpu_clock *v = vclock_sync(vc, vcpu, now);
	if (!v || op < HAKO_REGION_BEGIN || op > HAKO_REGION_GLOBAL_END)
		return;
	struct region *r = vc->regions[id];
	if (!r) {
		r = calloc(1, sizeof *r + vc->nvcpus * sizeof r->local[0]);
		if (!r) {
			vc->dropped++;
			return;
		}
		vc->regions[id] = r;
	}
	switch (op) {
	case HAKO_REGION_BEGIN:
		span_begin(&r->local[vcpu], v->clock);
		break;
	case HAKO_REGION_END:
		span_end(&r->local[vcpu], v->clock);
		break;
	case HAKO_REGION_GLOBAL_BEGIN:
		if (!r->global.active)
			align(vc);
		span_begin(&r->global, v->clock);
		break;
	case HAKO_REGION_GLOBAL_END:
		span_end(&r->global, v->clock);
		break;
	}
}

struct cm_work cm_vclock_elapsed(const struct cm_vclock *vc, unsigned id, unsigned vcpu)
{
	const struct region *r = id < HAKO_REGION_IDS ? vc->regions[id] : NULL;
	if (!r || vcpu >= vc->nvcpus)
		return (struct cm_work){ 0, 0 };
	return r->global.spans ? r->global.elapsed : r->local[vcpu].elapsed;
}

uint64_t cm_vclock_dropped(const struct cm_vclock *vc)
{
	return vc->dropped;
}
