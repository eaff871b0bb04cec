/*
 * drvswitch.h — paper 003's microbenchmark: an address-space switch
 * inserted into the in-kernel RTL8139 driver's paths (drvswitch=on, off by
 * default; drvswitch.c).  The interrupt path (nic.c) loads the driver's
 * address space before the driver's handler and the space it found after
 * it; the driver-call path (sys_drvproc.c) goes into the driver's space
 * and back just before it copies the caller's data in, so the copy runs
 * with the caller's TLB entries dropped by the CR3 loads.
 */
#ifndef HAKO_DRVSWITCH_H
#define HAKO_DRVSWITCH_H

#include <stdbool.h>
#include <string.h>
#include <nic.h>

extern bool drvswitch_on;

/* Boot, after the drivers attached: read drvswitch= and build the space. */
void drvswitch_init(void);
/* Build the driver's address space if it is not there yet; 0 or -ENOMEM
 * (the self-test builds it without turning the option on). */
int drvswitch_build(void);
/* Free it again unless the option is on (the self-test's clean-up). */
void drvswitch_teardown(void);

/* Whether card n's paths get the switch: the RTL8139 driven in the kernel. */
static inline bool drvswitch_card(const struct nic *n)
{
	return drvswitch_on && !n->src.forwarded && strcmp(n->driver, "rtl8139") == 0;
}

/*
 * In an interrupt (irq_nest > 0) or with interrupts off, so this CPU and
 * what it has loaded stay put: drvswitch_in loads the driver's space and
 * remembers what was loaded; drvswitch_out loads that again; drvswitch_held
 * says whether this CPU is between the two.
 */
void drvswitch_in(void);
void drvswitch_out(void);
bool drvswitch_held(void);

/* Into the driver's space and back, interrupts off: the driver-call path's switch. */
void drvswitch_there_and_back(void);

#endif
