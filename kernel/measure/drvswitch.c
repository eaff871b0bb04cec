/*
 * drvswitch.c — the address-space switch paper 003 inserted into its
 * in-kernel RTL8139 driver to measure what one switch costs (drvswitch=on;
 * drvswitch.h says where the paths call it).
 *
 * The driver's address space is a real one: its own top-level table from
 * vm_create, holding the kernel half the handler runs in (code, stack,
 * the direct map with the card's registers and rings), nothing below.
 * Loading it is a CR3 write like any process switch's; the kernel's
 * mappings are global, so what the load drops are the user entries of the
 * space it leaves, as FreeBSD's on the paper's Pentium 4.  Every load is
 * counted in cpustat.as_loads (vm_switch), which drvbench reads.
 */
#include <stdbool.h>
#include <string.h>
#include <cmdline.h>
#include <cpu.h>
#include <drvswitch.h>
#include <errno.h>
#include <kprintf.h>
#include <spinlock.h>
#include <vm.h>

bool drvswitch_on;
static struct addrspace *driver_as;
static struct addrspace *held[MAX_CPUS];   /* per CPU: the space drvswitch_in left */

int drvswitch_build(void)
{
	if (!driver_as)
		driver_as = vm_create();
	return driver_as ? 0 : -ENOMEM;
}

void drvswitch_teardown(void)
{
	if (driver_as && !drvswitch_on) {
		vm_destroy(driver_as);
		driver_as = NULL;
	}
}

void drvswitch_init(void)
{
	const char *opt = cmdline_get(&kcmdline, "drvswitch");
	if (!opt || strcmp(opt, "on") != 0)
		return;
	if (drvswitch_build() < 0) {
		kprintf("drvswitch: no memory for the driver's address space: left off\n");
		return;
	}
	drvswitch_on = true;
	kprintf("drvswitch: on: the in-kernel rtl8139 switches to an address space of its own "
		"for its interrupt handler and before a call's copy-in\n");
}

void drvswitch_in(void)
{
	int cpu = cpu_id();
	held[cpu] = vm_loaded();
	vm_switch(driver_as);
}

void drvswitch_out(void)
{
	int cpu = cpu_id();
	struct addrspace *back = held[cpu];
	held[cpu] = NULL;
	vm_switch(back);
}

bool drvswitch_held(void)
{
	return held[cpu_id()] != NULL;
}

void drvswitch_there_and_back(void)
{
	push_off();
	drvswitch_in();
	drvswitch_out();
	pop_off();
}
