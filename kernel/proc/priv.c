/*
 * priv.c — a process's privileges for the control calls (in the spirit
 * of MINIX 3's privilege table): one bit set per process,
 * inherited at spawn, only ever made smaller, checked by each control call
 * before it acts.  The bits and the rules are in uapi/hako_priv.h.
 *
 * p->priv changes only by priv_drop (an atomic AND) and at spawn, before
 * the process runs; a reader racing a drop sees the set before or after
 * it, both sets the process was allowed to hold, so no lock is taken.
 */
#include <stdint.h>
#include <errno.h>
#include <priv.h>
#include <proc.h>

uint32_t priv_of(const struct proc *p)
{
	return __atomic_load_n(&p->priv, __ATOMIC_ACQUIRE);
}

int priv_check(uint32_t need)
{
	struct proc *p = proc_current();
	if (!p)
		return 0;                     /* the kernel's own threads */
	return (priv_of(p) & need) == need ? 0 : -EPERM;
}

void priv_inherit(struct proc *p, const struct proc *parent)
{
	p->priv = parent ? priv_of(parent) : HAKO_PRIV_ALL;
}

long priv_drop(struct proc *p, uint64_t mask)
{
	if (mask & ~(uint64_t)HAKO_PRIV_ALL)
		return -EINVAL;
	return __atomic_and_fetch(&p->priv, ~(uint32_t)mask, __ATOMIC_ACQ_REL);
}
