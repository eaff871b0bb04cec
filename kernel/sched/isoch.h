/*
 * isoch.h — periodic (isochronous) threads, paper 004: kernel/sched/isoch.c.
 *
 * A thread with a reserved period and budget on one CPU, released by a
 * one-shot timer there at every period start, stopped when it has run
 * its budget in a period.  It runs at a priority above every program's
 * (rate monotonic among the periodic threads of its CPU), so the normal
 * scheduler dispatches it and its hot paths are unchanged.  The user
 * interface and the admission rule are in uapi/hako_isoch.h.
 */
#ifndef HAKO_ISOCH_H
#define HAKO_ISOCH_H

#include <stdint.h>
#include <hako_isoch.h>

struct thread;

/* Make t (the caller or a thread of its process, the caller holding that
 * process's slot lock) periodic as req says; req gets the outcome.
 * Never sleeps when t is not the caller. */
long isoch_create(struct thread *t, struct hako_isoch *req);
/* START, STOP, INFO, DESTROY of the caller's process's periodic thread tid (0: the caller). */
long isoch_op(int op, int tid, struct hako_isoch *out);
/* The caller's job is done: sleep until its next release.  0, -EINTR, -EINVAL. */
long isoch_wait(void);
/* t (the caller) exits: stop it and give its reservation back. */
void isoch_thread_exit(struct thread *t);

#endif
