/*
 * vclock_int.h — what the per-vCPU virtual clocks (vclock.c: the clocks,
 * the tokens, locks, interrupts and regions) share with the devices'
 * fixed-service-time clock (vclock_device.c): the state behind struct
 * cm_vclock and the calls between the two files.  Used by these two files
 * only; the rest of the cost model uses vclock.h.
 */
#ifndef COSTMODEL_VCLOCK_INT_H
#define COSTMODEL_VCLOCK_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "vclock.h"
#include "../../kernel/uapi/hako_region.h"

struct slot {
	uint64_t token;
	unsigned kind;               /* 0: slot unused */
	bool posted;                 /* post/wait: a post not yet waited for */
	struct cm_work at;           /* post/wait: the latest posted clock; lock: its release */
	struct cm_work held;         /* lock: its holder's clock at the acquire */
	struct cm_work busy;         /* lock: where its run of holds, each handed to the next, began */
	struct cm_work before[3];    /* lock: held, busy and at before the current hold began */
	struct cm_work held_moved;   /* lock: its holder's `moved` at the acquire */
	unsigned holder;             /* lock: the vCPU that took it */
};

/*
 * Busy times on one clock (cycles or instructions), sorted and apart, the
 * latest CM_DEVICE_SLOTS of them: a device's served requests, or the
 * stretches booked on a vCPU by threads that ran in its future.
 */
#define CM_DEVICE_SLOTS 64
struct timeline {
	struct busy { uint64_t start, end; } b[CM_DEVICE_SLOTS];
	unsigned n;
	uint64_t floor;              /* the end of the latest one forgotten: no gap before it */
};

/* A request a device took, not yet placed on its busy times on clock c
 * while !placed[c]: its issuer's clock at the issue and its service time. */
struct request {
	uint64_t token;
	struct cm_work issue, len, end;
	bool placed[2];
};

struct device {
	struct timeline busy[2];     /* cycles, instructions */
	struct request unplaced[CM_DEVICE_SLOTS];   /* in the order they reached the plugin */
	unsigned n;
};

struct vcpu_clock {
	struct cm_work clock;        /* this vCPU's virtual clocks */
	struct cm_work last;         /* its cumulative work at its previous event */
	unsigned spinning;           /* spin_begins not yet ended (they may nest) */
	uint64_t pause_va, pause_insns;   /* its previous pause: where, at what work */
	unsigned irq_depth;          /* interrupt handlers running (they may nest) */
	bool irq_rebased;            /* its clock moved to the post it waited for */
	struct cm_work outer;        /* the clock when the outermost one began */
	struct cm_work irq_work;     /* work done in it so far, spins left out */
	uint64_t thread;             /* the thread it switched in last (its THREAD wait), 0 none */
	bool ahead;                  /* a thread woken (or a semaphore unit taken) in this
	                              * vCPU's future runs now */
	uint64_t ahead_thread;       /* its token */
	struct cm_work ahead_start;  /* its stretch began here */
	struct cm_work present;      /* the vCPU's clock it left, where the others go on */
	struct timeline booked_cycles, booked_insns;   /* such threads' stretches */
	struct cm_work moved;        /* how far switch-ins moved its clock forward, in all */
};

struct span {                    /* one region on one vCPU, or global */
	bool active;
	struct cm_work begin, elapsed;
	uint64_t spans;
};

struct region {
	struct span global;
	struct span local[];         /* nvcpus */
};

struct cm_vclock {
	unsigned nvcpus;
	struct vcpu_clock *v;
	struct slot *slots;
	size_t nslots, used;
	struct region *regions[HAKO_REGION_IDS];
	struct device *devices;      /* HAKO_SYNC_DEVICES of them */
	uint64_t dropped;
	uint64_t late;               /* requests that came after a later-issued one was placed */
};

/* Clock c of w: 0 the cycles, 1 the instructions. */
static inline uint64_t *clock_of(struct cm_work *w, unsigned c)
{
	return c ? &w->insns : &w->cycles;
}

/* vclock.c: bring vcpu's clock up to now; NULL (counted) if vcpu is unknown. */
struct vcpu_clock *vclock_sync(struct cm_vclock *vc, unsigned vcpu, struct cm_work now);
/* vclock.c: the slot of (kind, token), made if missing; NULL if out of memory. */
struct slot *vclock_lookup(struct cm_vclock *vc, unsigned kind, uint64_t token);
/* vclock.c: post clock to s, merged by max with a post not yet waited for. */
void vclock_post_at(struct slot *s, struct cm_work clock);

/*
 * vclock_device.c: the end of request token (HAKO_SYNC_IO) is needed now:
 * if it is unplaced, place it and every unplaced request of its device
 * issued no later, and post their ends.
 */
void vclock_settle_io(struct cm_vclock *vc, uint64_t token);

#endif
