/*
 * user/sh/jobs.c — the shell's background children.
 *
 * The kernel's wait blocks, so finished background children are not
 * reaped behind the user's back: they stay listed until the `wait`
 * builtin waits for them (each one by pid) and reports how they ended.
 */
#include <stdio.h>
#include <string.h>
#include <hako/sys.h>
#include "sh.h"

struct job {
	int pid;
	char name[HAKO_PATH_MAX];
};

static struct job jobs[SH_JOBS_MAX];
static int njobs;

int jobs_full(void)
{
	return njobs == SH_JOBS_MAX;
}

void jobs_add(int pid, const char *name)
{
	if (jobs_full())
		return;
	jobs[njobs].pid = pid;
	strlcpy(jobs[njobs].name, name, sizeof(jobs[njobs].name));
	njobs++;
}

void jobs_list(void)
{
	for (int i = 0; i < njobs; i++)
		printf("[%d] %s\n", jobs[i].pid, jobs[i].name);
}

/* Remove job I, keeping the others in the order they started. */
static void drop(int i)
{
	memmove(&jobs[i], &jobs[i + 1], (size_t)(njobs - i - 1) * sizeof(jobs[0]));
	njobs--;
}

/* Wait for job I, report it, drop it; returns its status. */
static int wait_job(int i)
{
	int pid = jobs[i].pid, status = 0;
	int r = waitpid(pid, &status);

	drop(i);
	if (r < 0) {
		printf("[%d] lost: %s\n", pid, strerror(-r));
		return 1;
	}
	if (HAKO_WIFKILLED(status))
		printf("[%d] done status %d killed (cause %d)\n", pid, status,
		       HAKO_WCAUSE(status));
	else
		printf("[%d] done status %d\n", pid, status);
	return status;
}

int jobs_wait(int pid)
{
	int status = 0;

	if (pid == -1) {
		while (njobs > 0)
			status = wait_job(0);
		return status;
	}
	for (int i = 0; i < njobs; i++) {
		if (jobs[i].pid == pid)
			return wait_job(i);
	}
	printf("sh: wait: %d is no background job\n", pid);
	return 1;
}
