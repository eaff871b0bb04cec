/*
 * user/lib/thread.c — threads (hako/thread.h).
 *
 * The kernel starts a thread at one address with one argument, so
 * thread_start passes it __thread_entry (arch assembly, which aligns the
 * stack) and a heap block holding the real function and argument.
 */
#include <stdlib.h>
#include <errno.h>
#include <hako/sys.h>
#include <hako/thread.h>

struct thread_boot {
	void (*fn)(void *);
	void *arg;
};

void __thread_entry(void *boot);
void __thread_main(struct thread_boot *boot) __attribute__((noreturn));

void __thread_main(struct thread_boot *boot)
{
	void (*fn)(void *) = boot->fn;
	void *arg = boot->arg;

	free(boot);
	fn(arg);
	for (;;)
		sys_thread_exit(0);
}

int thread_start(void (*fn)(void *), void *arg)
{
	struct thread_boot *boot = malloc(sizeof(*boot));
	long tid;

	if (boot == NULL)
		return -ENOMEM;
	boot->fn = fn;
	boot->arg = arg;
	tid = sys_thread_create(__thread_entry, boot);
	if (tid < 0)
		free(boot);
	return (int)tid;
}

int thread_join(int tid)
{
	long r;

	do
		r = sys_thread_join(tid);
	while (r == -EINTR);
	return (int)r;
}

int thread_self(void)
{
	return (int)sys_gettid();
}
