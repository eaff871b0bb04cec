/*
 * errno.h — the kernel's typed error codes (Linux numbering).
 *
 * Kernel functions that can fail return 0 or a positive value on success
 * and -E... on failure; system calls hand the same value to user space.
 */
#ifndef HAKO_ERRNO_H
#define HAKO_ERRNO_H

#define ENOENT     2   /* no such object */
#define ESRCH      3   /* no such process or thread */
#define EINTR      4   /* interrupted wait */
#define EIO        5   /* device error */
#define E2BIG      7   /* argument list too long */
#define ENOEXEC    8   /* not a valid executable */
#define EAGAIN    11   /* try again: a resource is temporarily exhausted */
#define ENOMEM    12   /* out of memory */
#define EFAULT    14   /* bad address from user space */
#define EBUSY     16   /* object in use */
#define EEXIST    17   /* object exists */
#define ENODEV    19   /* no such device */
#define EINVAL    22   /* bad argument */
#define ENOSPC    28   /* no space left */
#define ERANGE    34   /* value out of range */
#define ENOSYS    38   /* no such call */
#define ETIMEDOUT 110  /* timed out */

#endif
