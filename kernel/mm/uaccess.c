/*
 * uaccess.c — checked copies between kernel and user memory.
 *
 * The range checks live here; the copies themselves (and their recovery
 * from faults) are arch_copy_user*, in arch/x86_64/syscall_entry.S.
 */
#include <stdint.h>
#include <arch/arch.h>
#include <errno.h>
#include <proc.h>
#include <uaccess.h>

/* Nothing is ever mapped below the program image: a pointer there is bad on sight. */
static inline bool user_half_ok(uint64_t uaddr, uint64_t len)
{
	if (len && uaddr < HAKO_USER_IMAGE_BASE)
		return false;
	return uaddr <= USER_TOP && len <= USER_TOP - uaddr;
}

/*
 * A supervisor-mode thread's stack is in the kernel half (proc.h), and is
 * its memory too: a range the user half refuses is looked at again here,
 * out of line, so the programs' copies keep their path (nothing of theirs
 * lives across this call).
 */
static long __attribute__((noinline)) own_stack_copy(void *dst, const void *src, uint64_t len,
						     uint64_t uaddr)
{
	return proc_own_stack(uaddr, len) ? arch_copy_user(dst, src, len) : -EFAULT;
}

bool user_range_ok(uint64_t uaddr, uint64_t len)
{
	if (len && uaddr < HAKO_USER_IMAGE_BASE)
		return false;                /* below the image: not the stack either */
	if (uaddr <= USER_TOP && len <= USER_TOP - uaddr)
		return true;
	return proc_own_stack(uaddr, len);
}

long copy_from_user(void *dst, uint64_t usrc, uint64_t len)
{
	if (__builtin_expect(!user_half_ok(usrc, len), 0))
		return own_stack_copy(dst, (const void *)usrc, len, usrc);
	return len ? arch_copy_user(dst, (const void *)usrc, len) : 0;
}

long copy_to_user(uint64_t udst, const void *src, uint64_t len)
{
	if (__builtin_expect(!user_half_ok(udst, len), 0))
		return own_stack_copy((void *)udst, src, len, udst);
	return len ? arch_copy_user((void *)udst, src, len) : 0;
}

long copy_from_user_rw(void *dst, uint64_t usrc, uint64_t len)
{
	if (len == 0 || len > PAGE_SIZE || !user_range_ok(usrc, len))
		return len == 0 ? 0 : -EFAULT;
	return arch_copy_user_rw(dst, (const void *)usrc, len);
}

long copy_str_from_user(char *dst, uint64_t usrc, uint64_t max)
{
	if (max == 0)
		return -E2BIG;
	uint64_t top = USER_TOP;
	if (usrc >= USER_TOP && proc_own_stack(usrc, 1))
		top = proc_own_stack_top();
	if (usrc >= top)
		return -EFAULT;
	uint64_t n = top - usrc < max ? top - usrc : max;
	long len = arch_copy_user_str(dst, (const char *)usrc, n);
	if (len < 0)
		return len;
	if ((uint64_t)len == n)          /* no NUL: too long, or user space ended */
		return n == max ? -E2BIG : -EFAULT;
	return len;
}
