/*
 * errno.h — the kernel's typed error codes (Linux numbering).
 *
 * Kernel functions that can fail return 0 or a positive value on success
 * and -E... on failure; system calls hand the same value to user space.
 * The numbers live in uapi/hako_errno.h, which user programs share.
 */
#ifndef HAKO_ERRNO_H
#define HAKO_ERRNO_H

#include "hako_errno.h"

#endif
