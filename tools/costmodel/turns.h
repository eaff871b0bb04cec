/*
 * turns.h — a log of the turns the vCPUs take, for the plugin's argument
 * turns=PATH (plugin.c): a line "VCPU PC INSNS" each time a translated
 * block starts on another vCPU than the block before it.
 *
 * A diagnostic, not a model figure: it answers "where did two boots that
 * should repeat first run differently", since under -icount the vCPUs
 * take turns on one host thread and a turn that ends one block earlier
 * changes everything after it.  tools/turns.py compares two logs.
 */
#ifndef COSTMODEL_TURNS_H
#define COSTMODEL_TURNS_H

#include <stdint.h>

struct cm_turns;

/* The log at path, written through a 1 MiB buffer; NULL if it cannot be made. */
struct cm_turns *cm_turns_open(const char *path);

/* A block at pc starts on vcpu, which has run insns instructions: a line if vcpu changed. */
void cm_turns_note(struct cm_turns *t, unsigned vcpu, uint64_t pc, uint64_t insns);

/* Flush and close the log; NULL is ignored. */
void cm_turns_close(struct cm_turns *t);

#endif
