/*
 * pcprof.h — where a global region's instructions went: per (region,
 * vCPU, translated-block start address) instruction counts, for the
 * plugin's argument pcprof=on (plugin.c).
 *
 * A diagnostic, not a model figure: it answers "which code did this
 * vCPU run inside run R" so two runs of the same cell can be compared
 * function by function (tools/pcprof.py maps the addresses to symbols).
 * The table is an open-addressing hash that grows; a lookup per block
 * entered, an increment per instruction.
 */
#ifndef COSTMODEL_PCPROF_H
#define COSTMODEL_PCPROF_H

#include <stdint.h>

struct cm_pcprof;

struct cm_pcprof_row {
	uint32_t region, vcpu;
	uint64_t pc, insns;
};

struct cm_pcprof *cm_pcprof_new(void);
void cm_pcprof_free(struct cm_pcprof *p);

/* The counter of (region, vcpu, pc), made at zero on first use; NULL when out of memory. */
uint64_t *cm_pcprof_counter(struct cm_pcprof *p, uint32_t region, uint32_t vcpu, uint64_t pc);

/* Call fn for every counter that is not zero, in no particular order. */
void cm_pcprof_each(const struct cm_pcprof *p, void (*fn)(const struct cm_pcprof_row *, void *),
		    void *arg);

#endif
