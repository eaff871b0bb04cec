/*
 * options.h — the kernel options (`key=value` before `--` on the command
 * line): which keys exist and what each allows (options.c, pure and
 * host-tested), and the refusal that stops the boot on a wrong one.
 */
#ifndef HAKO_OPTIONS_H
#define HAKO_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>
#include <cmdline.h>

#define OPTIONS_WHY_MAX      256   /* the refusal line */
#define OPTIONS_CPUS_MAX     16    /* iop=N: N < this (MAX_CPUS) */
#define OPTIONS_SERVERS_MAX  128   /* servers=: bytes of the list with its NUL */
#define OPTIONS_TICK_MIN_NS  100000ull      /* tick=: 100 us .. */
#define OPTIONS_TICK_MAX_NS  1000000000ull  /* .. 1 s */

/*
 * 0 if the command line came whole (not cut, no word dropped) and every
 * option names a known key with a value it allows; else -EINVAL and one
 * line in why (no newline): the option and what is allowed.  Values that
 * depend on the machine (iop=N against the CPUs online, servers= against
 * the boot archive) are checked again where they are used.
 */
int options_check(const struct cmdline *cl, char *why, size_t len);

/* The i-th driver the kernel has that can run as a process (every network
 * driver, and those DRIVER() marks .process; kernel/drivers/driver.c, host
 * tests bring their own), NULL past the last: what drvproc= may name. */
const char *options_drvproc_driver(int i);

/* Print the refusal line and stop the machine with a failure (main.c). */
void options_refuse(const char *fmt, ...) __attribute__((noreturn, format(printf, 1, 2)));

#endif
