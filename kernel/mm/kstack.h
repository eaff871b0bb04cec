/*
 * kstack.h — thread kernel stacks, each with an unmapped guard below it.
 */
#ifndef HAKO_KSTACK_H
#define HAKO_KSTACK_H

#include <stdbool.h>
#include <stdint.h>

uint64_t kstack_alloc(void);          /* lowest address of a KSTACK_SIZE stack; 0 if none */
void kstack_free(uint64_t base);
bool kstack_is_guard(uint64_t addr);  /* in the unmapped part of a stack slot */

#endif
