/*
 * user_arch.c — the SH-4 side of user mode: the first entry of a thread
 * into user mode, and what becomes of an exception taken in user mode or
 * inside a user-memory copy.
 *
 * Everything that decides (which address is valid, who is killed) is in
 * the generic process layer (proc.h); this file only speaks trapframes.
 */
#include <stdint.h>
#include <cpu.h>
#include <errno.h>
#include <panic.h>
#include <proc.h>
#include <uaccess.h>
#include <arch/arch.h>
#include <arch/trapframe.h>
#include "sh4.h"

extern char uaccess_start[], uaccess_end[], uaccess_fixup[];
void sh4_enter_user(struct trapframe *tf) __attribute__((noreturn));

/* User mode: MD clear, FPU off, interrupts unmasked. */
#define SR_USER SH4_SR_FD

/* Start the running thread in user mode at pc with the stack sp, r4/r5 = a0/a1. */
void arch_user_start(uint64_t pc, uint64_t sp, uint64_t a0, uint64_t a1)
{
	struct trapframe *tf = (struct trapframe *)(uint32_t)(this_cpu()->head.kstack - sizeof *tf);
	*tf = (struct trapframe){ .spc = (uint32_t)pc, .ssr = SR_USER };
	tf->r[15] = (uint32_t)sp;
	tf->r[4] = (uint32_t)a0;
	tf->r[5] = (uint32_t)a1;
	arch_irq_disable();
	sh4_enter_user(tf);
}

/* Never called: ARCH_HAS_SUPERVISOR_PROCS is 0 (drvmode=super runs the
 * drivers in user mode on this arch). */
void arch_super_start(uint64_t pc, uint64_t sp, uint64_t a0, uint64_t a1)
{
	(void)pc, (void)sp, (void)a0, (void)a1;
	panic("arch_super_start: no supervisor-mode processes on SH-4");
}

static unsigned fault_access(uint32_t event)
{
	return event == EXPEVT_TLB_MISS_W || event == EXPEVT_TLB_PROT_W || event == EXPEVT_INITIAL_W ?
	       FAULT_WRITE : 0;
}

static bool in_uaccess(uint32_t pc)
{
	return pc >= (uint32_t)uaccess_start && pc < (uint32_t)uaccess_end;
}

/* A fault in the kernel inside arch_copy_user* on a user address: serve
 * it (demand paging) or make the copy return -EFAULT.  False: a bug. */
bool uaccess_fault(struct trapframe *tf)
{
	uint32_t addr = tf->tea;
	if (!in_uaccess(tf->spc) || addr >= USER_TOP)
		return false;
	if (proc_page_fault(addr, fault_access(tf->event)) < 0)
		tf->spc = (uint32_t)uaccess_fixup;
	return true;
}

/* An exception in user mode: a page to fill in, or the end of the process. */
void user_exception(struct trapframe *tf)
{
	uint32_t ev = tf->event;
	bool page = ev == EXPEVT_TLB_MISS_R || ev == EXPEVT_TLB_MISS_W || ev == EXPEVT_INITIAL_W ||
		    ev == EXPEVT_TLB_PROT_R || ev == EXPEVT_TLB_PROT_W;
	uint64_t addr = page || ev == EXPEVT_ADDR_ERR_R || ev == EXPEVT_ADDR_ERR_W ? tf->tea : 0;
	if (page) {
		arch_irq_enable();           /* from user mode: this thread's own stack, nothing held */
		int err = proc_page_fault(addr, fault_access(ev));
		if (err == 0)
			return;
		if (err == -ENOMEM)
			proc_fault_exit(HAKO_CAUSE_OOM, "out of memory", addr, tf->spc);
		proc_fault_exit(14, "page fault", addr, tf->spc);
	}
	proc_fault_exit((int)(ev >> 5), ev == EXPEVT_ILLEGAL ? "illegal instruction" : "exception",
			addr, tf->spc);
}
