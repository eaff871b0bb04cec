/*
 * errno.h — error numbers (Linux numbering, as the kernel returns them).
 *
 * System calls return -E... themselves; library functions that follow the
 * C convention (malloc, strtol, ...) set the global errno instead.  errno
 * is one variable for the whole process, not per thread.
 */
#ifndef _HAKO_ERRNO_H
#define _HAKO_ERRNO_H

extern int errno;

#include <hako_errno.h>

#endif
