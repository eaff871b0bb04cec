/*
 * drvproc_super.c — paper 003's own placement of a driver: a process in
 * supervisor mode (a "core": ring 0, its own address space, entered by an
 * address-space switch without a privilege change).  The arch side is
 * kernel/arch/x86_64/super_arch.c (pages, stack, entry, kernel calls).
 *
 * Decisions:
 *  - Which drivers.  The kernel option drvmode=user|super applies to every
 *    driver drvproc= lists: drvmode=super spawns each drv-DRIVER in
 *    supervisor mode (proc_spawn_mode, PROC_SUPERVISOR), drvmode=user (the
 *    default) in ring 3.  The placement is fixed at boot, like drvproc=.
 *  - The same binary.  drv-DRIVER is the program the ring-3 placement
 *    runs, unchanged: its system calls are the same `syscall` instruction
 *    (the arch loads the ring-0 entry while its threads run), so no auxv,
 *    no second set of stubs and no runtime branch.  Driver programs are
 *    built without a red zone (an interrupt in ring 0 pushes on their
 *    stack) in both placements.
 *  - Everything else is the driver process's: registration, calls,
 *    forwarded interrupts, grants (MMIO and DMA are mapped as supervisor
 *    pages: vm_map drops VM_USER in its address space), the counters,
 *    restart and the watchdog.  Its I/O grant says ring0 (so the switch
 *    loads its entry); ports it is granted need no bitmap in ring 0.
 *  - Faults.  A fault in its code kills only it, through the same path as
 *    a ring-3 driver's (tf_from_user is true for its frames), and
 *    drvproc_restart.c starts it again.  What ring 0 gives up is written
 *    in super_arch.c: a wild write into the kernel half is not caught.
 *  - Counting.  hako_drvproc_stat.placement is 3, and drvbench names its
 *    figures FIGURE_super.
 *  - Other arches.  Where ARCH_HAS_SUPERVISOR_PROCS is 0 (SH-4), drvmode=super
 *    says so at boot and the drivers run in ring 3.
 */
#include <stdbool.h>
#include <string.h>
#include <cmdline.h>
#include <drvproc.h>
#include <kprintf.h>
#include <proc.h>

/* The spawn mode drvmode= asks for (proc_spawn_mode's PROC_SUPERVISOR or 0). */
unsigned drvproc_spawn_mode(void)
{
	static bool told;
	const char *mode = cmdline_get(&kcmdline, "drvmode");
	if (!mode || strcmp(mode, "super") != 0)
		return 0;
	if (!ARCH_HAS_SUPERVISOR_PROCS) {
		if (!told)
			kprintf("drvproc: drvmode=super: no supervisor-mode processes on this arch; "
				"the drivers run in user mode\n");
		told = true;
		return 0;
	}
	return PROC_SUPERVISOR;
}
