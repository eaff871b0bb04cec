/*
 * intr.h — the generic interrupt layer: who handles which vector.
 *
 * The vector map (VECTOR_DEVICE_FIRST..LAST for devices, the IPI and timer
 * vectors) is the arch's: <arch/arch.h>.
 */
#ifndef HAKO_INTR_H
#define HAKO_INTR_H

#include <stdbool.h>
#include <stdint.h>

#include <arch/arch.h>

typedef void (*intr_handler_t)(void *arg);

int intr_alloc_vector(void);                 /* -EAGAIN when none are left */
void intr_free_vector(int vector);
int intr_register(int vector, intr_handler_t fn, void *arg, const char *name);
/* The same for a handler that acknowledges the LAPIC itself (pack_full in intr_sequential.c). */
int intr_register_own_eoi(int vector, intr_handler_t fn, void *arg, const char *name);
void intr_unregister(int vector);
void intr_release(int vector);               /* unregister and free */
bool intr_dispatch(int vector);              /* true: the handler sent the EOI */
uint64_t intr_count(int vector);

#endif
