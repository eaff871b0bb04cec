/*
 * hako/sys.h — Hako's system calls and small helpers over them.
 *
 * The sys_* functions (generated from kernel/uapi/syscalls.def) return a value
 * >= 0 on success or a negative errno on failure; the helpers below keep
 * that convention (they do not touch errno).
 */
#ifndef _HAKO_SYS_H
#define _HAKO_SYS_H

#include <stddef.h>
#include <stdint.h>
#include <hako.h>
#include <hako_syscalls.h>

/* Start program NAME from the boot archive with ARGV (NULL-terminated,
 * ARGV[0] conventionally NAME); returns its pid. */
int spawnv(const char *name, char *const argv[]);

/* Wait for child PID (-1: any) to end, store its status (HAKO_WIFKILLED,
 * HAKO_WEXITCODE, HAKO_WCAUSE) in *STATUS if not NULL; returns its pid.
 * Retried when interrupted. */
int waitpid(int pid, int *status);

/* spawnv then waitpid: returns the child's status, or a negative errno. */
int spawn_wait(const char *name, char *const argv[]);

/* Nanoseconds since boot. */
uint64_t clock_ns(void);

/* Sleep at least NS nanoseconds. */
void sleep_ns(uint64_t ns);
void sleep_ms(uint64_t ms);

/* The program's name (argv[0], or "?" without one). */
const char *prog_name(void);

#endif
