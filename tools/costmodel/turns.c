/*
 * turns.c — the log of turns of turns.h: one stdio stream with a large
 * buffer (a boot on several CPUs changes vCPU millions of times) and the
 * vCPU of the last note, so only changes are written.
 */
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

#include "turns.h"

#define TURNS_BUFFER (1u << 20)

struct cm_turns {
	FILE *f;
	char *buf;
	bool any;                        /* a note was taken: last is valid */
	unsigned last;
};

struct cm_turns *cm_turns_open(const char *path)
{
	struct cm_turns *t = calloc(1, sizeof *t);
	if (!t)
		return NULL;
	t->buf = malloc(TURNS_BUFFER);
	t->f = t->buf ? fopen(path, "w") : NULL;
	if (!t->f) {
		free(t->buf);
		free(t);
		return NULL;
	}
	setvbuf(t->f, t->buf, _IOFBF, TURNS_BUFFER);
	return t;
}

void cm_turns_note(struct cm_turns *t, unsigned vcpu, uint64_t pc, uint64_t insns)
{
	if (t->any && vcpu == t->last)
		return;
	t->any = true;
	t->last = vcpu;
	fprintf(t->f, "%u %" PRIx64 " %" PRIu64 "\n", vcpu, pc, insns);
}

void cm_turns_close(struct cm_turns *t)
{
	if (!t)
		return;
	fclose(t->f);                    /* before the buffer it writes from goes */
	free(t->buf);
	free(t);
}
