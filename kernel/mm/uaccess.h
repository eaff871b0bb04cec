/*
 * uaccess.h — the only way kernel code touches user memory.
 *
 * Every pointer and length from a system call goes through these: the
 * range is checked against the user half first, then the copy runs with
 * user access opened (SMAP) and a fault inside it either demand-fills the
 * page or ends the copy with -EFAULT.  Nothing a program passes can make
 * the kernel fault.
 */
#ifndef HAKO_UACCESS_H
#define HAKO_UACCESS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <errno.h>
#include <hako.h>

bool user_range_ok(uint64_t uaddr, uint64_t len);        /* inside [image base, USER_TOP), no wrap */
long copy_from_user(void *dst, uint64_t usrc, uint64_t len);  /* 0 or -EFAULT */
long copy_to_user(uint64_t udst, const void *src, uint64_t len);
/* copy_from_user of len bytes (at most a page) that must be writable too,
 * so that a copy_to_user back to them cannot fail: 0 or -EFAULT.  Their
 * values stay (each page gets one write that changes nothing,
 * demand-filling it like a copy would). */
long copy_from_user_rw(void *dst, uint64_t usrc, uint64_t len);
/* A NUL-terminated string of at most max-1 bytes: its length, -EFAULT, or
 * -E2BIG if it does not end in time. */
long copy_str_from_user(char *dst, uint64_t usrc, uint64_t max);

#endif
