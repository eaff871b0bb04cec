/*
 * lapic.h — the local APIC of each CPU (xAPIC, memory-mapped).
 */
#ifndef HAKO_ARCH_LAPIC_H
#define HAKO_ARCH_LAPIC_H

#include <stdint.h>

void lapic_init(void);                 /* boot CPU: map the registers */
void lapic_init_cpu(void);             /* every CPU: enable, mask LVTs */
uint32_t lapic_id(void);
void lapic_eoi(void);
/* Set the task priority (bits 7:4: interrupts of that class and below wait); returns the old one. */
uint32_t lapic_tpr_swap(uint32_t tpr);
/* The ICR register and value that send vector to this CPU in one write. */
volatile uint32_t *lapic_self_ipi_reg(int vector, uint32_t *value);
void lapic_send_nmi(uint32_t apic_id);
void lapic_send_init(uint32_t apic_id);
void lapic_send_startup(uint32_t apic_id, uint32_t page);

/* Timer: one-shot in LAPIC ticks (divide by 1). */
void lapic_timer_start_count(uint32_t initial);   /* for calibration: masked */
uint32_t lapic_timer_current(void);
void lapic_timer_oneshot(uint32_t ticks, int vector);
void lapic_timer_stop(void);

#endif
