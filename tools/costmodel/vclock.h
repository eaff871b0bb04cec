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
 *     then); one that spun (spin_end) waits for the release if its clock
 *     falls inside the run of holds that ended there (each taken at or
 *     before the previous one's release): a spinner whose clock is
 *     before that run spun only because -icount descheduled a holder
 *     that is later in time, and would have had the lock first.  A hold
 *     that ends before the one recorded leaves the record to it.  A hold
 *     inside which a switch-in moved the holder's clock forward begins
 *     that much later (an idle vCPU took the lock when it woke).
 *   - a device with a fixed service time: its requests are served one
 *     at a time, each in the first free stretch of the device's time at
 *     or after its issue.  A request is placed when its completion is
 *     first waited for (the handler's or the IOP's wait, or the
 *     issuer's), together with every request of the device issued no
 *     later that is still unplaced, in issue order: so requests whose
 *     marks reach the plugin out of their time order under -icount's
 *     turns are served in time order if every one was marked before the
 *     first of their completions was needed.  One marked after a request
 *     issued later was placed takes the first gap that holds it (counted:
 *     cm_vclock_late).  Each one's end is posted for its waiter
 *     (cm_vclock_service);
 *   - an interrupt's handler (between irq_begin and irq_end) runs when
 *     the interrupt was raised, not at its CPU's own clock: under -icount
 *     the vCPUs take turns, so a busy vCPU that takes an interrupt may be
 *     far ahead of (or behind) the device or CPU that raised it.  The
 *     handler's first wait for a post therefore moves its clock to that
 *     post's (plus the handler's work before it), lower or higher, and
 *     what the handler posts carries that time.  When the handler ends,
 *     the vCPU's clock is its clock at the interrupt plus the handler's
 *     work: it lost that much and nothing more (a thread the handler
 *     woke on it brings the handler's time at the switch).  So events
 *     that reach a vCPU out of their time order under -icount's turns
 *     do not push its clock past the later one.  A handler that waits
 *     for nothing keeps the vCPU's clock throughout.  A rebased handler
 *     runs straight through a stretch booked on its vCPU (below): it
 *     interrupts the thread that ran then, it does not wait for it.
 *   - a thread switched in at a time later than its vCPU's clock (its
 *     waker was ahead under -icount's turns), outside a handler, runs at
 *     that time; when it switches out its stretch is booked on the vCPU
 *     and the vCPU's clock goes back, the work that runs next going on
 *     around the booked stretches, as it would have run before in time.
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
 * GLOBAL_BEGIN, where every vCPU's clock is first brought up to the
 * latest of them (the region begins at one moment for all); a per-vCPU
 * region's is that vCPU's clock difference.
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
 * instructions), issued at vcpu's clock.  At the first wait for
 * (HAKO_SYNC_IO, token) the request, after every unplaced one of the
 * device issued no later, starts at the first time at or after its issue
 * when the device is free for that long (its last 64 requests are
 * remembered), and its end is posted under (HAKO_SYNC_IO, token) for the
 * request's waiter.  A device with 64 requests unplaced places its
 * earliest issued; a token served again before its wait places its
 * previous request.
 */
void cm_vclock_service(struct cm_vclock *vc, unsigned vcpu, struct cm_work now,
		       unsigned dev, uint64_t token, struct cm_work service);
/* An interrupt's handler begins and ends. */
void cm_vclock_irq_begin(struct cm_vclock *vc, unsigned vcpu, struct cm_work now);
void cm_vclock_irq_end(struct cm_vclock *vc, unsigned vcpu, struct cm_work now);
/* A pause instruction at va. */
void cm_vclock_pause(struct cm_vclock *vc, unsigned vcpu, struct cm_work now, uint64_t va);

/*
 * A sync marker (HAKO_SYNC_POST .. HAKO_SYNC_IRQ_END) with displacement
 * disp: rax is its object, service the time a SERVICE marker names.
 */
void cm_vclock_marker(struct cm_vclock *vc, uint32_t disp, unsigned vcpu, struct cm_work now,
		      uint64_t rax, struct cm_work service);

/* A region marker (HAKO_REGION_BEGIN .. GLOBAL_END) with displacement disp.
 * Before a GLOBAL_BEGIN the caller brings every vCPU's clock up to its
 * work so far (cm_vclock_now), so the alignment counts it before the start. */
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

/*
 * Requests that reached their device after one issued later in time was
 * already placed (its completion waited for first): each went in the
 * first gap that holds it, so its end may depend on -icount's turns.
 */
uint64_t cm_vclock_late(const struct cm_vclock *vc);

#endif
