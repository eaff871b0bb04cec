/*
 * measure.h — kernel commands that exist to be measured by the cost-model
 * plugin (kernel/measure/): their figures are the plugin's, per region.
 */
#ifndef HAKO_MEASURE_H
#define HAKO_MEASURE_H

int tlbstep_main(int argc, char **argv);   /* the TLB-step check: tlbstep.c */

/* perf_ctl HAKO_PERF_INTERNAL: one kernel-internal interface timed (kinternal.c). */
struct hako_perf_internal;
long kinternal_time(struct hako_perf_internal *io);

#endif
