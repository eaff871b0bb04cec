/*
 * intr.h — the generic interrupt layer: who handles which vector.
 *
 * Vector map (x86_64 IDT numbers):
 *   0x00-0x1f  exceptions
 *   0x20-0x2f  the legacy 8259 PICs (masked; only spurious ones arrive)
 *   0x30-0xdf  device interrupts, handed out by intr_alloc_vector()
 *   0xe0-0xef  inter-processor interrupts and the LAPIC timer
 *   0xff       LAPIC spurious
 */
#ifndef HAKO_INTR_H
#define HAKO_INTR_H

#include <stdbool.h>
#include <stdint.h>

#define VECTOR_DEVICE_FIRST 0x30
#define VECTOR_DEVICE_LAST  0xdf
#define VECTOR_RESCHED      0xe0   /* IPI: look at your run queue */
#define VECTOR_CALL         0xe1   /* IPI: run the queued cross-CPU calls */
#define VECTOR_TEST         0xe2   /* IPI: used by the self-tests */
#define VECTOR_TIMER        0xef   /* LAPIC timer */
#define VECTOR_SPURIOUS     0xff

typedef void (*intr_handler_t)(void *arg);

int intr_alloc_vector(void);                 /* -EAGAIN when none are left */
void intr_free_vector(int vector);
int intr_register(int vector, intr_handler_t fn, void *arg, const char *name);
/* The same for a handler that acknowledges the LAPIC itself (intr_pack.c). */
int intr_register_own_eoi(int vector, intr_handler_t fn, void *arg, const char *name);
void intr_unregister(int vector);
void intr_release(int vector);               /* unregister and free */
bool intr_dispatch(int vector);              /* true: the handler sent the EOI */
uint64_t intr_count(int vector);

#endif
