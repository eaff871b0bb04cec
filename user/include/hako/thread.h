/*
 * hako/thread.h — threads and spinlocks.
 *
 * A thread runs FN(ARG) on its own stack in the same address space; when
 * FN returns the thread exits with code 0 (or call sys_thread_exit).  The
 * library (malloc, printf) is safe to use from several threads, except
 * errno, which is shared.
 */
#ifndef _HAKO_THREAD_H
#define _HAKO_THREAD_H

/* Start a thread running FN(ARG); returns its tid or a negative errno. */
int thread_start(void (*fn)(void *), void *arg);

/* Wait for thread TID to end; returns its exit code or a negative errno. */
int thread_join(int tid);

/* The calling thread's tid. */
int thread_self(void);

/* A spinlock: spins with `pause`, yields the CPU after a while. */
struct spin {
	volatile int locked;
};
#define SPIN_INIT { 0 }

void spin_lock(struct spin *s);
int spin_trylock(struct spin *s);	/* 1 if taken */
void spin_unlock(struct spin *s);

#endif
