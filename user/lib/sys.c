/*
 * user/lib/sys.c — helpers over the raw system calls (hako/sys.h).
 */
#include <errno.h>
#include <hako/sys.h>

int spawnv(const char *name, char *const argv[])
{
	return (int)sys_spawn(name, argv);
}

int waitpid(int pid, int *status)
{
	long r;

	do
		r = sys_wait(pid, status);
	while (r == -EINTR);
	return (int)r;
}

int spawn_wait(const char *name, char *const argv[])
{
	int status = 0;
	int pid = spawnv(name, argv);

	if (pid < 0)
		return pid;
	pid = waitpid(pid, &status);
	return pid < 0 ? pid : status;
}

uint64_t clock_ns(void)
{
	return (uint64_t)sys_clock();
}

/* Sleep again if woken early, until the deadline has passed. */
void sleep_ns(uint64_t ns)
{
	uint64_t now = clock_ns(), deadline = now + ns;

	while (now < deadline) {
		long r = sys_sleep(deadline - now);
		if (r < 0 && r != -EINTR)
			return;
		now = clock_ns();
	}
}

void sleep_ms(uint64_t ms)
{
	sleep_ns(ms * 1000000ull);
}
