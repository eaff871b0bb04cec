/*
 * sem.h — user-visible counting semaphores (sem.c).
 */
#ifndef HAKO_SEM_H
#define HAKO_SEM_H

void sem_init(void);
void sem_release_owner(int pid);     /* a process ended: its semaphores go */

#endif
