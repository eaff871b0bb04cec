/*
 * epochs.c — the run cut at named code addresses (epochs.h).
 */
#include <stdlib.h>
#include <string.h>

#include "epochs.h"

struct cm_epochs {
	unsigned nvcpus;
	bool open;
	uint32_t seq;                /* the next epoch's number */
	uint64_t at, args[CM_EPOCH_ARGS];
	struct cm_counts *start;     /* every vCPU's counts when the open epoch started */
	struct cm_epoch_row *rows;
	size_t nrows, cap;
};

struct cm_epochs *cm_epochs_new(unsigned nvcpus)
{
	struct cm_epochs *e = calloc(1, sizeof *e);
	if (!e)
		return NULL;
	e->nvcpus = nvcpus;
	e->start = calloc(nvcpus ? nvcpus : 1, sizeof *e->start);
	if (!e->start) {
		free(e);
		return NULL;
	}
	return e;
}

void cm_epochs_free(struct cm_epochs *e)
{
	if (!e)
		return;
	free(e->start);
	free(e->rows);
	free(e);
}

int cm_epochs_close(struct cm_epochs *e, const struct cm_counts *now)
{
	if (!e->open)
		return 0;
	e->open = false;
	for (unsigned v = 0; v < e->nvcpus; v++) {
		struct cm_counts d = now[v];
		cm_counts_sub(&d, &e->start[v]);
		if (!d.v[CM_INSNS])
			continue;
		if (e->nrows == e->cap) {
			size_t cap = e->cap ? 2 * e->cap : 64;
			struct cm_epoch_row *rows = realloc(e->rows, cap * sizeof *rows);
			if (!rows)
				return -1;
			e->rows = rows;
			e->cap = cap;
		}
		struct cm_epoch_row *r = &e->rows[e->nrows++];
		r->seq = e->seq - 1;
		r->at = e->at;
		memcpy(r->args, e->args, sizeof r->args);
		r->vcpu = v;
		r->n = d;
	}
	return 0;
}

int cm_epochs_start(struct cm_epochs *e, uint64_t at, const uint64_t args[CM_EPOCH_ARGS],
		    const struct cm_counts *now)
{
	if (cm_epochs_close(e, now) < 0)
		return -1;
	e->open = true;
	e->seq++;
	e->at = at;
	memcpy(e->args, args, sizeof e->args);
	memcpy(e->start, now, e->nvcpus * sizeof *now);
	return 0;
}

void cm_epochs_each(const struct cm_epochs *e, void (*fn)(const struct cm_epoch_row *, void *),
		    void *arg)
{
	for (size_t i = 0; i < e->nrows; i++)
		fn(&e->rows[i], arg);
}
