/*
 * time.h — clocks and timers.
 *
 * The TSC is the clock (calibrated at boot against the HPET or the PIT);
 * each CPU's LAPIC timer runs in one-shot mode toward the earliest armed
 * timer, and the scheduler tick is one of those timers, re-armed every
 * tick period (10 ms unless the command line says tick=...).
 * Under QEMU icount the TSC counts guest instructions (1 GHz at shift=0).
 */
#ifndef HAKO_TIME_H
#define HAKO_TIME_H

#include <stdbool.h>
#include <stdint.h>
#include <list.h>

extern uint64_t tsc_hz;             /* TSC ticks per second */
extern uint64_t lapic_hz;           /* LAPIC timer ticks per second (divide 1) */
extern uint64_t tick_ns;            /* scheduler tick period */
extern const char *calibration_source;

void time_init(void);               /* calibrate, on the boot CPU */
uint64_t time_ns(void);             /* since boot */
uint64_t ns_to_tsc(uint64_t ns);
uint64_t tsc_to_ns(uint64_t tsc);
void time_delay_us(uint64_t us);    /* busy wait */

struct timer {
	struct list_node link;
	uint64_t deadline;              /* TSC */
	void (*fn)(struct timer *t, void *arg);   /* runs in the interrupt, IRQs off */
	void *arg;
	int cpu;                        /* CPU whose list holds it, -1 if not armed */
};

void timer_init(struct timer *t, void (*fn)(struct timer *, void *), void *arg);
void timer_arm(struct timer *t, uint64_t deadline_tsc);   /* on this CPU */
bool timer_cancel(struct timer *t);                       /* true if it was armed */
/* The same, and if its function is running on another CPU, wait until it returned. */
bool timer_cancel_sync(struct timer *t);
void timer_start_cpu(void);         /* start this CPU's tick */
void time_settle(void);             /* one short sleep, before the other CPUs start */

#endif
