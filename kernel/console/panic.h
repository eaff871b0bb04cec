/*
 * panic.h — stopping the kernel when its own invariants break.
 *
 * panic() prints the message, the registers of the trap if any, and a
 * symbolized backtrace, stops the other CPUs and powers off with status 2
 * (the harness reports "kernel panic").  User input never reaches here.
 */
#ifndef HAKO_PANIC_H
#define HAKO_PANIC_H

#include <stdint.h>

void panic(const char *fmt, ...) __attribute__((noreturn, format(printf, 1, 2)));
void backtrace_print(uint64_t rbp);
const char *ksym_lookup(uint64_t pc, uint64_t *offset);

#define assert(c) \
	do { if (!(c)) panic("assertion failed: %s at %s:%d", #c, __FILE__, __LINE__); } while (0)

#define POWER_OK    0
#define POWER_FAIL  1
#define POWER_PANIC 2

#endif
