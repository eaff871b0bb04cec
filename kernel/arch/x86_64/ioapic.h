/*
 * ioapic.h — routing device interrupt lines (GSIs) to CPUs.
 */
#ifndef HAKO_ARCH_IOAPIC_H
#define HAKO_ARCH_IOAPIC_H

#include <stdbool.h>
#include <stdint.h>

void pic_disable(void);
void ioapic_init(void);
int ioapic_route(uint32_t gsi, int vector, uint32_t dest_apic_id, bool active_low, bool level);
int ioapic_set_dest(uint32_t gsi, uint32_t dest_apic_id);   /* retarget, keep the rest */
int ioapic_mask(uint32_t gsi, bool masked);
int ioapic_count(void);

#endif
