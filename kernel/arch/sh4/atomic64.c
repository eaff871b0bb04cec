/*
 * atomic64.c — the 8-byte atomics GCC calls out of line on SH-4 (it has no
 * 64-bit atomic instructions; these are libatomic's names).  One CPU: an
 * operation with interrupts masked is atomic.  Also abort(), which GCC
 * calls for __builtin_trap.
 */
#include <stdbool.h>
#include <stdint.h>
#include <panic.h>
#include <arch/arch.h>

#define ATOMIC_OP(name, expr, result)                                                   \
	uint64_t sh4_atomic_##name(volatile void *p, uint64_t v, int order)              \
		__asm__("__atomic_" #name);                                              \
	uint64_t sh4_atomic_##name(volatile void *p, uint64_t v, int order)              \
	{                                                                                \
		volatile uint64_t *q = p;                                                \
		uint64_t flags = arch_irq_save();                                        \
		uint64_t old = *q, new = (expr);                                         \
		*q = new;                                                                \
		arch_irq_restore(flags);                                                 \
		return (result);                                                         \
	}

ATOMIC_OP(fetch_add_8, old + v, old)
ATOMIC_OP(fetch_sub_8, old - v, old)
ATOMIC_OP(fetch_and_8, old & v, old)
ATOMIC_OP(fetch_or_8, old | v, old)
ATOMIC_OP(fetch_xor_8, old ^ v, old)
ATOMIC_OP(add_fetch_8, old + v, new)
ATOMIC_OP(sub_fetch_8, old - v, new)
ATOMIC_OP(and_fetch_8, old & v, new)
ATOMIC_OP(or_fetch_8, old | v, new)
ATOMIC_OP(exchange_8, v, old)

uint64_t sh4_atomic_load_8(const volatile void *p, int order) __asm__("__atomic_load_8");
uint64_t sh4_atomic_load_8(const volatile void *p, int order)
{
	uint64_t flags = arch_irq_save();
	uint64_t v = *(const volatile uint64_t *)p;
	arch_irq_restore(flags);
	return v;
}

void sh4_atomic_store_8(volatile void *p, uint64_t v, int order) __asm__("__atomic_store_8");
void sh4_atomic_store_8(volatile void *p, uint64_t v, int order)
{
	uint64_t flags = arch_irq_save();
	*(volatile uint64_t *)p = v;
	arch_irq_restore(flags);
}

bool sh4_atomic_cmpxchg_8(volatile void *p, void *expected, uint64_t desired, bool weak,
			  int success, int failure) __asm__("__atomic_compare_exchange_8");
bool sh4_atomic_cmpxchg_8(volatile void *p, void *expected, uint64_t desired, bool weak,
			  int success, int failure)
{
	volatile uint64_t *q = p;
	uint64_t *e = expected;
	uint64_t flags = arch_irq_save();
	bool same = *q == *e;
	if (same)
		*q = desired;
	else
		*e = *q;
	arch_irq_restore(flags);
	return same;
}

void abort(void) __attribute__((noreturn));
void abort(void)
{
	panic("abort (__builtin_trap)");
}
