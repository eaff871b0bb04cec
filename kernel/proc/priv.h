/*
 * priv.h — a process's privileges for the control calls (priv.c; the bits
 * and the rules are in uapi/hako_priv.h).
 */
#ifndef HAKO_PRIV_H
#define HAKO_PRIV_H

#include <stdint.h>
#include <hako_priv.h>

struct proc;

/* 0 if the calling process holds every bit of need (a kernel thread holds
 * them all), else -EPERM.  Control calls call it before they act. */
int priv_check(uint32_t need);
/* The set p holds. */
uint32_t priv_of(const struct proc *p);
/* At spawn, before p runs: p's set is its parent's (the kernel's: all). */
void priv_inherit(struct proc *p, const struct proc *parent);
/* Remove the bits of mask from p's set: the set left, or -EINVAL if mask
 * has a bit that is no privilege.  Never adds a bit. */
long priv_drop(struct proc *p, uint64_t mask);

#endif
