/*
 * main.c — Hako's boot order, one step per line, and the first thread.
 */
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#include <bootinfo.h>
#include <cmdline.h>
#include <drvproc.h>
#include <drvswitch.h>
#include <console.h>
#include <cpu.h>
#include <heap.h>
#include <ica.h>
#include <ispc.h>
#include <kprintf.h>
#include <ktest.h>
#include <panic.h>
#include <pci.h>
#include <pmm.h>
#include <proc.h>
#include <sem.h>
#include <errno.h>
#include <mpio.h>
#include <nic_user.h>
#include <options.h>
#include <sched.h>
#include <serialiser.h>
#include <smp.h>
#include <spinlock.h>
#include <stats.h>
#include <thread.h>
#include <time.h>
#include <vm.h>
#include <kmain.h>
#include <driver.h>
#include <arch/arch.h>

static struct bootinfo bootinfo;
extern char boot_stack_bottom[];

static const void *boot_p2v(uint64_t pa) { return phys_to_virt(pa); }

/* The program archive: the first boot module (see tools/hakotool/qemu.py, tools/grub.cfg). */
static const void *boot_module(void)
{
	return bootinfo.nmods ? phys_to_virt(bootinfo.mods[0].start) : NULL;
}

static uint64_t boot_module_size(void)
{
	return bootinfo.nmods ? bootinfo.mods[0].end - bootinfo.mods[0].start : 0;
}

void options_refuse(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	kprintf("hako: ");
	kvprintf(fmt, ap);
	kprintf("\n");
	va_end(ap);
	arch_power_off(POWER_FAIL);
}

/* The command line, every option checked (a wrong one stops the boot), and
 * the options read here; the others are read where they are used. */
static void read_cmdline(void)
{
	static char fw[BOOT_CMDLINE_MAX];
	const char *text = bootinfo.cmdline;
	bool cut = bootinfo.cmdline_cut;
	int n = arch_fw_read_file("opt/hako/cmdline", fw, sizeof fw);
	if (n >= 0) {
		text = fw;                       /* the harness overrides GRUB's line */
		cut = n >= (int)sizeof fw;
	}
	cmdline_parse(&kcmdline, text);
	kcmdline.cut |= cut;
	char why[OPTIONS_WHY_MAX];
	if (options_check(&kcmdline, why, sizeof why) < 0)
		options_refuse("%s", why);
	const char *tick = cmdline_get(&kcmdline, "tick");
	if (tick)
		tick_ns = (uint64_t)parse_duration_ns(tick);
	const char *trace = cmdline_get(&kcmdline, "irqtrace");
	irq_trace = trace && strcmp(trace, "on") == 0;
	const char *slice = cmdline_get(&kcmdline, "slice");
	if (slice)
		sched_slice_ticks = (uint64_t)(slice[0] - '0');
}

/* The lock-order check is built into the debug kernel alone (spinlock.h);
 * lockcheck= on the command line can neither start nor stop it. */
static void print_lock_check(void)
{
	const char *asked = cmdline_get(&kcmdline, "lockcheck");
	if (LOCK_CHECK)
		kprintf("lock order: checked by every spin_lock (debug kernel)\n");
	else if (asked)
		kprintf("lockcheck=%s ignored: the lock-order check is in the debug kernel only "
			"(make kernel-debug; ./hako boot --debug-kernel)\n", asked);
}

static void print_boot_summary(void)
{
	kprintf("hako: %s via %s, cmdline \"%s\"\n", arch_machine_name(), bootinfo.loader, bootinfo.cmdline);
	kprintf("memory: %lu MiB usable, %lu frames free\n",
		pmm_total_count() * PAGE_SIZE >> 20, pmm_free_count());
	kprintf("clock: tsc %lu kHz, lapic timer %lu kHz (calibrated against the %s), tick %lu us\n",
		tsc_hz / 1000, lapic_hz / 1000, calibration_source, tick_ns / 1000);
	arch_cpu_summary();
	kprintf("cpus online: %d\n", cpus_online());
	print_lock_check();
	result_line("{\"kind\":\"boot\",\"machine\":\"%s\",\"loader\":\"%s\",\"cpus\":%d,\"mem_mib\":%lu,"
		    "\"free_frames\":%lu,\"tsc_khz\":%lu,\"lapic_khz\":%lu,\"calibration\":\"%s\",\"tick_us\":%lu}",
		    arch_machine_name(), bootinfo.loader, cpus_online(), pmm_total_count() * PAGE_SIZE >> 20,
		    pmm_free_count(), tsc_hz / 1000, lapic_hz / 1000, calibration_source, tick_ns / 1000);
}

/* The program about to start is the one that may power off. */
static int mark_init(struct proc *p, void *unused)
{
	proc_init_pid = p->pid;
	return 0;
}

/* Run a user program as the first process and wait for it; its status. */
static int run_program(int argc, char **argv)
{
	int pid = proc_spawn_with(NULL, argv[0], argc, argv, mark_init, NULL);
	if (pid < 0) {
		kprintf("hako: cannot run %s: error %d%s\n", argv[0], pid,
			pid == -ENOENT ? " (no such program or kernel command)" : "");
		return pid;
	}
	int status;
	proc_wait(NULL, pid, &status);
	if (HAKO_WIFKILLED(status))
		kprintf("hako: %s (pid %d) was killed (cause %d)\n", argv[0], pid, HAKO_WCAUSE(status));
	else
		kprintf("hako: %s (pid %d) exited with status %d\n", argv[0], pid, status);
	return status;
}

/*
 * The first kernel thread: run what the command line asks for, a kernel
 * command (ktest, kbench, monitor, ...) or a program, or by default the
 * shell; then power off with its status.
 */
static void kmain_thread(void *unused)
{
	print_boot_summary();
	drvproc_start_all();                        /* drvproc=: driver processes (paper 003) */
	int argc = kcmdline.argc;
	char **argv = kcmdline.argv;
	static char *shell[] = { "sh", NULL };
	int status;
	const void *sh;
	uint64_t sh_size;
	if (argc == 0 && initrd_find("sh", &sh, &sh_size) < 0) {
		monitor_run();
		status = 0;
	} else if (argc == 0)
		status = run_program(1, shell);
	else if (monitor_has_command(argv[0]))
		status = run_command(argc, argv);
	else
		status = run_program(argc, argv);
	arch_power_off(status == 0 ? POWER_OK : POWER_FAIL);
}

void kmain(uint32_t magic, uint32_t info_phys)
{
	struct cpu *bsp = &cpus[0];
	bsp->idle_stack = (uint64_t)boot_stack_bottom;
	arch_early_init(bsp);                    /* descriptors, per-CPU pointer */
	console_init(false);                     /* COM1 */
	kprintf("\nHako booting\n");
	if (bootinfo_parse(magic, info_phys, boot_p2v, &bootinfo) < 0)
		panic("boot: not started by a multiboot loader (magic %x)", magic);
	read_cmdline();
	if (cmdline_get(&kcmdline, "console") && strcmp(cmdline_get(&kcmdline, "console"), "vga") == 0)
		console_init(true);
	arch_trap_init();                        /* exception and interrupt entry */
	pmm_init(&bootinfo);                     /* frames from the memory map */
	heap_init();                             /* kmalloc */
	vm_init();                               /* kernel page tables, NX, SMEP/SMAP */
	arch_platform_init(&bootinfo);           /* firmware tables: x86 ACPI (CPUs, IOAPICs, HPET, ECAM) */
	arch_intc_init(bsp);                     /* interrupt controllers, lines masked */
	time_init();                             /* TSC and LAPIC timer frequencies */
	sched_init_cpu();                        /* this context becomes cpu 0's idle thread */
	time_settle();                           /* every CPU idle once: icount's turns on the kernel's time */
	smp_boot_aps();                          /* every other CPU, into its idle loop */
	bsp->online = true;
	timer_start_cpu();                       /* the tick on cpu 0 */
	iop_init();                              /* iop=N: CPU N leaves the scheduler (paper 001) */
	pci_init();                              /* enumerate buses, BARs, capabilities */
	drivers_probe();                         /* every registered driver, in link order */
	console_input_init();                    /* COM1 receive interrupt */
	initrd_init(boot_module(), boot_module_size());   /* the user programs */
	proc_init();
	serialiser_init();                       /* serialise=: paper 004's serialising thread */
	sem_init();
	ica_init();                              /* the ICA region (paper 002) */
	drvswitch_init();                        /* drvswitch=: paper 003's inserted switch */
	ispc_init();                             /* process exit hooks, run in proc.h's rank order: */
	drvproc_init();                          /* ... a driver process's device, */
	nic_user_init();                         /* ... a program's cards */
	if (!thread_spawn("kmain", kmain_thread, NULL, PRIO_DEFAULT))
		panic("boot: cannot create the first thread");
	sched_idle_loop();
}
