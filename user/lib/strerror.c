/*
 * user/lib/strerror.c — a message for each errno.
 */
#include <string.h>
#include <errno.h>
#include <stdio.h>

static const char *const messages[] = {
	[0] = "Success",
	[EPERM] = "Operation not permitted",
	[ENOENT] = "No such file or program",
	[ESRCH] = "No such process",
	[EINTR] = "Interrupted",
	[EIO] = "I/O error",
	[E2BIG] = "Argument list too long",
	[ENOEXEC] = "Not an executable",
	[EBADF] = "Device not open",
	[ECHILD] = "No child process",
	[EAGAIN] = "Resource temporarily unavailable",
	[ENOMEM] = "Out of memory",
	[EFAULT] = "Bad address",
	[EBUSY] = "Busy",
	[EEXIST] = "Exists",
	[ENODEV] = "No such device",
	[EINVAL] = "Invalid argument",
	[ENOSPC] = "No space left",
	[EPIPE] = "Other side ended",
	[ERANGE] = "Result out of range",
	[ENAMETOOLONG] = "Name too long",
	[ENOSYS] = "Function not implemented",
	[ETIMEDOUT] = "Timed out",
};

/* Not thread-safe for unknown numbers (one shared buffer). */
char *strerror(int err)
{
	static char unknown[32];
	size_t n = sizeof(messages) / sizeof(messages[0]);

	if (err >= 0 && (size_t)err < n && messages[err] != NULL)
		return (char *)messages[err];
	snprintf(unknown, sizeof(unknown), "Error %d", err);
	return unknown;
}
