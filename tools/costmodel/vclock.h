/*
 * vclock.h — per-vCPU virtual clocks with happens-before edges: the
 * parallel elapsed time of a region (README.md, "Parallel time").
 *
 * Under -icount QEMU runs the vCPUs one after another, so the guest's
 * TSC counts every vCPU's work in turn.  Here each vCPU has two clocks of
 * its own: one advances by the modelled cycles of the instructions it
 * runs, the other by those instructions.  A vCPU that is halted runs
 * nothing, so its clocks stand still.  Synchronisation carries time from
 * one vCPU to another:
 *
 *   - post / wait (a thread woken or switched out, then run again; an IPI
 *     sent, then handled; a cross-CPU call finished, then seen): the post
 *     records the poster's clock under a token (kind, address), the
 *     matching wait sets the waiter's clock to max(own, recorded) and
 *     consumes the record (a semaphore's, HAKO_SYNC_SEM, stays: each
 *     wait that takes a stored unit takes the latest post).  Posts to a
 *     token not yet waited for merge by max.
 *   - release / acquire of a lock: the release records the holder's
 *     acquire and release clocks; an acquire that did not spin waits only
 *     if its clock falls inside that hold (the lock would have been held
 *     then); one that spun (spin_end) waits for the release in any case.
 *   - a device with a fixed service time: its requests are served in
 *     turn on a clock of the device's own, and each one's end is posted
 *     for its waiter (cm_vclock_service);
 *   - waiting: between spin_begin and spin_end (nested spins end with
 *     the outermost), and in a pause loop (a
 *     pause at the same address as the previous pause of the vCPU, at
 *     most CM_VCLOCK_PAUSE_LOOP instructions later), instructions do not
 *     advance the clocks.
 *
 * Clocks advance lazily: every event passes the vCPU's cumulative work
 * (modelled cycles and instructions since the run began) and the clock
 * takes the difference from the previous event of that vCPU, so nothing
 * is done per instruction.  A global region's elapsed time is the clock
 * of the vCPU at its GLOBAL_END minus the clock of the vCPU at its
 * GLOBAL_BEGIN; a per-vCPU region's is that vCPU's clock difference.
 * Everything is a function of the event order, so under -icount the
 * figures repeat exactly.
 */
#ifndef COSTMODEL_VCLOCK_H
#define COSTMODEL_VCLOCK_H

#include <stdbool.h>
#include <stdint.h>

/* A vCPU's cumulative work, or a clock: modelled cycles and instructions. */
struct cm_work {
	uint64_t cycles, insns;
};

#define CM_VCLOCK_PAUSE_LOOP 64   /* most instructions between two pauses of one wait loop */

struct cm_vclock;

struct cm_vclock *cm_vclock_new(unsigned nvcpus);
void cm_vclock_free(struct cm_vclock *vc);

/*
 * The events.  vcpu ran them; now is its cumulative work at this moment
 * (the event's own instruction included).  kind and token name the
 * object synchronised on (uapi/hako_region.h, HAKO_SYNC_*).
 */
void cm_vclock_post(struct cm_vclock *vc, unsigned vcpu, struct cm_work now,
		    unsigned kind, uint64_t token);
void cm_vclock_wait(struct cm_vclock *vc, unsigned vcpu, struct cm_work now,
		    unsigned kind, uint64_t token);
void cm_vclock_acquire(struct cm_vclock *vc, unsigned vcpu, struct cm_work now, uint64_t lock);
void cm_vclock_release(struct cm_vclock *vc, unsigned vcpu, struct cm_work now, uint64_t lock);
void cm_vclock_spin_begin(struct cm_vclock *vc, unsigned vcpu, struct cm_work now);
/* The spin for lock (0: not a lock) ended: the vCPU waited for its release. */
void cm_vclock_spin_end(struct cm_vclock *vc, unsigned vcpu, struct cm_work now, uint64_t lock);
/*
 * Device dev (< HAKO_SYNC_DEVICES), which serves one request at a time,
 * takes the request token for `service` (its time in cycles and in
 * instructions): the request ends `service` after the later of now and
 * the end of the device's previous request, and that end is posted
 * under (HAKO_SYNC_IO, token) for the request's waiter.
 */
void cm_vclock_service(struct cm_vclock *vc, unsigned vcpu, struct cm_work now,
		       unsigned dev, uint64_t token, struct cm_work service);
/* A pause instruction at va. */
void cm_vclock_pause(struct cm_vclock *vc, unsigned vcpu, struct cm_work now, uint64_t va);

/*
 * A sync marker (HAKO_SYNC_POST .. HAKO_SYNC_SERVICE) with displacement
 * disp: rax is its object, service the time a SERVICE marker names.
 */
void cm_vclock_marker(struct cm_vclock *vc, uint32_t disp, unsigned vcpu, struct cm_work now,
		      uint64_t rax, struct cm_work service);

/* A region marker (HAKO_REGION_BEGIN .. GLOBAL_END) with displacement disp. */
void cm_vclock_region(struct cm_vclock *vc, uint32_t disp, unsigned vcpu, struct cm_work now);

/* vcpu's clock now (after bringing it up to now). */
struct cm_work cm_vclock_now(struct cm_vclock *vc, unsigned vcpu, struct cm_work now);

/*
 * The elapsed time of region id on vcpu: the sum over its global spans
 * (the same for every vCPU) if it had any, else over vcpu's own spans.
 */
struct cm_work cm_vclock_elapsed(const struct cm_vclock *vc, unsigned id, unsigned vcpu);

/* Events that named no known vCPU or found no memory (the plugin reports them). */
uint64_t cm_vclock_dropped(const struct cm_vclock *vc);

#endif
