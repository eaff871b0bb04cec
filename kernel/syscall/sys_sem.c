/*
 * sys_sem.c — the semaphore system calls: the arguments from user space
 * narrowed to the ints they are and checked, the caller named by its pid;
 * sem.c does the work.
 *
 * sem_post and sem_wait are what sysbench's process switch ping-pongs
 * through, sem_post_wait the two in one call: each is a tail call, no
 * more.
 */
#include <stdint.h>
#include <errno.h>
#include <syscall.h>
#include <proc.h>
#include <sem.h>

long sys_sem_create(uint64_t value)
{
	if ((int)value < 0)
		return -EINVAL;
	return sem_create((int)value, proc_current()->pid);
}

long sys_sem_post(uint64_t id) { return sem_post((int)id); }
long sys_sem_wait(uint64_t id) { return sem_wait((int)id); }
long sys_sem_post_wait(uint64_t post, uint64_t wait) { return sem_post_wait((int)post, (int)wait); }
long sys_sem_destroy(uint64_t id) { return sem_destroy((int)id, proc_current()->pid); }
