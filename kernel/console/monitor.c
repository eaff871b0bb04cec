/*
 * monitor.c — the kernel's own little console and command table.
 *
 * Until the user-space shell exists, a boot without a command lands here:
 * a line editor on COM1 (the reader sleeps until the receive interrupt
 * brings a byte) that runs the kernel's commands.
 */
#include <stdint.h>
#include <string.h>
#include <cmdline.h>
#include <console.h>
#include <cpu.h>
#include <kmain.h>
#include <kprintf.h>
#include <ktest.h>
#include <measure.h>
#include <panic.h>
#include <pmm.h>
#include <thread.h>
#include <arch/arch.h>

static int cmd_ktest(int argc, char **argv) { return ktest_main(argc - 1, argv + 1); }
static int cmd_kbench(int argc, char **argv) { return kbench_main(argc - 1, argv + 1); }
static int cmd_tlbstep(int argc, char **argv) { return tlbstep_main(argc - 1, argv + 1); }

static int cmd_cpus(int argc, char **argv)
{
	for (int i = 0; i < ncpus; i++)
		kprintf("cpu %d: apic %u %s prio %d queued %d ticks %lu irqs %lu switches %lu\n",
			i, cpus[i].apic_id, cpus[i].idle ? "idle" : "busy", cpus[i].cur_prio,
			cpus[i].rq_len, cpus[i].ticks, cpus[i].irqs, cpus[i].ctx_switches);
	return 0;
}

static int cmd_mem(int argc, char **argv)
{
	kprintf("frames: %lu free of %lu\n", pmm_free_count(), pmm_total_count());
	return 0;
}

/* Each call keeps a page of stack live; a 16 KiB stack ends long before the limit. */
static int recurse(int depth)
{
	volatile char page[4096];
	page[0] = (char)depth;
	if (depth > 1000000)
		return page[0];
	return recurse(depth + 1) + page[0];
}

/* Stop the kernel on purpose, to see (and test) the fault path work. */
static int cmd_crash(int argc, char **argv)
{
	const char *how = argc > 1 ? argv[1] : "";
	if (strcmp(how, "null") == 0) {
		volatile uintptr_t addr = 8;     /* first page: never mapped */
		return *(volatile int *)addr;
	}
	if (strcmp(how, "panic") == 0)
		panic("crash command");
	if (strcmp(how, "stack") == 0)
		return recurse(0);
	kprintf("usage: crash null|panic|stack\n");
	return -1;
}

static int cmd_help(int argc, char **argv);

static const struct {
	const char *name, *help;
	int (*fn)(int, char **);
} commands[] = {
	{ "ktest", "ktest [NAME...]: run kernel self-tests", cmd_ktest },
	{ "kbench", "kbench: kernel timing figures", cmd_kbench },
	{ "tlbstep", "tlbstep: pages touched after a CR3 reload, per region (cost model)", cmd_tlbstep },
	{ "cpus", "cpus: per-CPU state and counters", cmd_cpus },
	{ "mem", "mem: free frames", cmd_mem },
	{ "crash", "crash null|panic|stack: stop the kernel on purpose (fault, panic, stack overflow)", cmd_crash },
	{ "help", "help: this list", cmd_help },
};

static int cmd_help(int argc, char **argv)
{
	for (unsigned i = 0; i < sizeof commands / sizeof commands[0]; i++)
		kprintf("  %s\n", commands[i].help);
	kprintf("  poweroff: stop the machine\n");
	return 0;
}

bool monitor_has_command(const char *name)
{
	if (strcmp(name, "monitor") == 0)
		return true;
	for (unsigned i = 0; i < sizeof commands / sizeof commands[0]; i++)
		if (strcmp(name, commands[i].name) == 0)
			return true;
	return false;
}

int run_command(int argc, char **argv)
{
	if (strcmp(argv[0], "monitor") == 0) {
		monitor_run();
		return 0;
	}
	for (unsigned i = 0; i < sizeof commands / sizeof commands[0]; i++)
		if (strcmp(argv[0], commands[i].name) == 0)
			return commands[i].fn(argc, argv);
	kprintf("unknown command: %s (try help)\n", argv[0]);
	return -1;
}

static int read_line(char *buf, int size)
{
	int n = 0;
	for (;;) {
		char ch;
		console_read(&ch, 1, true);
		int c = (unsigned char)ch;
		if (c == '\r' || c == '\n') {
			kprintf("\n");
			buf[n] = 0;
			return n;
		}
		if ((c == 0x7f || c == 8) && n > 0) {
			n--;
			kprintf("\b \b");
		} else if (c >= ' ' && n < size - 1) {
			buf[n++] = (char)c;
			kprintf("%c", c);
		}
	}
}

void monitor_run(void)
{
	char line[256];
	char *argv[CMD_MAX_WORDS];
	kprintf("hako monitor: type help\n");
	for (;;) {
		kprintf("hako> ");
		read_line(line, sizeof line);
		int argc = split_words(line, argv, CMD_MAX_WORDS);
		if (argc == 0)
			continue;
		if (strcmp(argv[0], "poweroff") == 0)
			return;
		int r = run_command(argc, argv);
		if (r != 0)
			kprintf("(status %d)\n", r);
	}
}
