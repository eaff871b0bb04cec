/*
 * sem.h — user-visible counting semaphores (sem.c); the system calls are
 * in syscall/sys_sem.c.
 *
 * An id is what sem_create returned; a stale or unknown one gives -EINVAL.
 */
#ifndef HAKO_SEM_H
#define HAKO_SEM_H

#include <stdbool.h>

/* semdirect=on: a post runs a waiter of its CPU at once (sem.c); tests switch it. */
extern bool sem_direct_on;

void sem_init(void);
long sem_create(int value, int owner);  /* value >= 0; owner: a pid; the id, or -EAGAIN (table full) */
long sem_post(int id);                  /* 0, or -ERANGE at the largest count */
long sem_wait(int id);                  /* 0, or -EINTR (killed), -EINVAL (destroyed meanwhile) */
/* sem_post(post), then, if it succeeded, sem_wait(wait): its error, or the wait's result. */
long sem_post_wait(int post, int wait);
long sem_destroy(int id, int pid);      /* only by its owner: -EPERM otherwise */
void sem_release_owner(int pid);        /* a process ended: its semaphores go */

#endif
