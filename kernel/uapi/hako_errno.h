/*
 * uapi/hako_errno.h — the error numbers system calls return (negated),
 * Linux numbering; shared by the kernel's errno.h and the C library's.
 */
#ifndef HAKO_UAPI_ERRNO_H
#define HAKO_UAPI_ERRNO_H

#define EPERM      1   /* not allowed */
#define ENOENT     2   /* no such object */
#define ESRCH      3   /* no such process or thread */
#define EINTR      4   /* interrupted wait */
#define EIO        5   /* device error */
#define E2BIG      7   /* argument list too long */
#define ENOEXEC    8   /* not a valid executable */
#define EBADF      9   /* not an open device (blk_open) */
#define ECHILD    10   /* no such child to wait for */
#define EAGAIN    11   /* try again: a resource is temporarily exhausted */
#define ENOMEM    12   /* out of memory */
#define EFAULT    14   /* bad address from user space */
#define EBUSY     16   /* object in use */
#define EEXIST    17   /* object exists */
#define ENODEV    19   /* no such device */
#define EINVAL    22   /* bad argument */
#define ENOSPC    28   /* no space left */
#define EPIPE     32   /* the other side has ended (a server died with the request) */
#define ERANGE    34   /* value out of range */
#define ENAMETOOLONG 36 /* name too long */
#define ENOSYS    38   /* no such call */
#define ETIMEDOUT 110  /* timed out */

#endif
