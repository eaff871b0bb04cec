/*
 * user/lib/arch/sh4/atomic64.c — the 8-byte atomics GCC calls out of line
 * on SH-4 (libatomic's names), for user programs.  SH-4 has no 64-bit
 * atomic instruction and a user gUSA sequence may store only once, so
 * each operation holds one lock word, taken with a 4-byte gUSA exchange
 * (the kernel rolls an interrupted sequence back); a thread preempted
 * while holding it makes the others spin until it runs again.
 */
#include <stdbool.h>
#include <stdint.h>
#include <hako_syscalls.h>

static volatile int lock_word;

static void lock(void)
{
	while (__atomic_exchange_n(&lock_word, 1, __ATOMIC_ACQUIRE))
		sys_yield();
}

static void unlock(void)
{
	__atomic_store_n(&lock_word, 0, __ATOMIC_RELEASE);
}

#define ATOMIC_OP(name, expr, result)                                          \
	uint64_t hako_atomic_##name(volatile void *p, uint64_t v, int order)    \
		__asm__("__atomic_" #name);                                     \
	uint64_t hako_atomic_##name(volatile void *p, uint64_t v, int order)    \
	{                                                                       \
		volatile uint64_t *q = p;                                       \
		(void)order;                                                    \
		lock();                                                         \
		uint64_t old = *q, new = (expr);                                \
		*q = new;                                                       \
		unlock();                                                       \
		return (result);                                                \
	}

ATOMIC_OP(fetch_add_8, old + v, old)
ATOMIC_OP(fetch_sub_8, old - v, old)
ATOMIC_OP(fetch_and_8, old & v, old)
ATOMIC_OP(fetch_or_8, old | v, old)
ATOMIC_OP(add_fetch_8, old + v, new)
ATOMIC_OP(sub_fetch_8, old - v, new)
ATOMIC_OP(exchange_8, v, old)

uint64_t hako_atomic_load_8(const volatile void *p, int order) __asm__("__atomic_load_8");
uint64_t hako_atomic_load_8(const volatile void *p, int order)
{
	(void)order;
	lock();
	uint64_t v = *(const volatile uint64_t *)p;
	unlock();
	return v;
}

void hako_atomic_store_8(volatile void *p, uint64_t v, int order) __asm__("__atomic_store_8");
void hako_atomic_store_8(volatile void *p, uint64_t v, int order)
{
	(void)order;
	lock();
	*(volatile uint64_t *)p = v;
	unlock();
}

bool hako_atomic_cmpxchg_8(volatile void *p, void *expected, uint64_t desired, bool weak,
			   int success, int failure) __asm__("__atomic_compare_exchange_8");
bool hako_atomic_cmpxchg_8(volatile void *p, void *expected, uint64_t desired, bool weak,
			   int success, int failure)
{
	volatile uint64_t *q = p;
	uint64_t *e = expected;
	(void)weak, (void)success, (void)failure;
	lock();
	bool same = *q == *e;
	if (same)
		*q = desired;
	else
		*e = *q;
	unlock();
	return same;
}
