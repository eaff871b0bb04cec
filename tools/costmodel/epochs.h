/*
 * epochs.h — epochs: the run cut where the guest reaches given code.
 *
 * A guest that carries no region markers can still be measured piece by
 * piece: the host names code addresses (the plugin's epoch=ADDR), and
 * every time a vCPU runs the instruction at one of them the current
 * epoch ends and a new one starts, labelled with that address and the
 * first three integer arguments of the call (rdi, rsi, rdx, for a
 * function's first instruction).  An epoch's counts are every vCPU's
 * differences between its start and the next start (or the end of the
 * run), so the host can ask what one call of a benchmark's function and
 * everything up to the next cost on each vCPU.  Nothing is counted per
 * event: a start keeps a snapshot of every vCPU's counts.
 */
#ifndef COSTMODEL_EPOCHS_H
#define COSTMODEL_EPOCHS_H

#include <stdint.h>

#include "model.h"

#define CM_EPOCH_ARGS 3

struct cm_epochs;

/* One epoch's totals on one vCPU. */
struct cm_epoch_row {
	uint32_t seq;                /* 0, 1, ...: the order the epochs started in */
	uint64_t at;                 /* the address that started it */
	uint64_t args[CM_EPOCH_ARGS];
	uint32_t vcpu;
	struct cm_counts n;
};

struct cm_epochs *cm_epochs_new(unsigned nvcpus);
void cm_epochs_free(struct cm_epochs *e);

/* End the current epoch, if any, and start one at `at` with args; now[v]: counts now. */
int cm_epochs_start(struct cm_epochs *e, uint64_t at, const uint64_t args[CM_EPOCH_ARGS],
		    const struct cm_counts *now);

/* End the current epoch, if any (the end of the run). */
int cm_epochs_close(struct cm_epochs *e, const struct cm_counts *now);

/* Call fn for each (epoch, vcpu) that ran an instruction, in epoch then vcpu order. */
void cm_epochs_each(const struct cm_epochs *e, void (*fn)(const struct cm_epoch_row *, void *),
		    void *arg);

#endif
