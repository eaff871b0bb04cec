/*
 * measure.h — kernel commands that exist to be measured by the cost-model
 * plugin (kernel/measure/): their figures are the plugin's, per region.
 */
#ifndef HAKO_MEASURE_H
#define HAKO_MEASURE_H

int tlbstep_main(int argc, char **argv);   /* the TLB-step check: tlbstep.c */

#endif
