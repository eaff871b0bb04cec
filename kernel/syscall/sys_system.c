/*
 * sys_system.c — the system calls about time, the console, CPUs and the
 * machine.  Dispatch is in dispatch.c; the other calls are in the sys_*.c
 * files beside this one, one per subsystem.
 */
#include <stdint.h>
#include <cpu.h>
#include <console.h>
#include <errno.h>
#include <heap.h>
#include <panic.h>
#include <pmm.h>
#include <proc.h>
#include <sched.h>
#include <smp.h>
#include <syscall.h>
#include <thread.h>
#include <time.h>
#include <uaccess.h>
#include <vm.h>

#define WRITE_CHUNK 256
#define MAX_SLEEP_NS (1000ull * 1000000000ull)   /* 1000 s per call */

long sys_null(void) { return 0; }

long sys_write(uint64_t ubuf, uint64_t len)
{
	if (!user_range_ok(ubuf, len))
		return -EFAULT;
	if (len > CONSOLE_WRITE_MAX)
		len = CONSOLE_WRITE_MAX;     /* the rest is for the next call */
	if (len == 0)
		return 0;
	/* Copied in first, outside the console lock, then appended whole. */
	char *buf = kmalloc(len);
	if (!buf)
		return -ENOMEM;
	long r = copy_from_user(buf, ubuf, len) < 0 ? -EFAULT : (long)len;
	if (r > 0)
		console_write(buf, len);
	kfree(buf);
	return r;
}

long sys_read(uint64_t ubuf, uint64_t len, uint64_t flags)
{
	char buf[WRITE_CHUNK];
	if (!user_range_ok(ubuf, len))
		return -EFAULT;
	flags = (uint32_t)flags;         /* an int parameter */
	if (flags & ~(uint64_t)HAKO_READ_NONBLOCK)
		return -EINVAL;
	if (len > sizeof buf)
		len = sizeof buf;
	size_t got = console_read(buf, len, !(flags & HAKO_READ_NONBLOCK));
	if (got == 0 && len && thread_current()->killed)
		return -EINTR;
	if (copy_to_user(ubuf, buf, got) < 0)
		return -EFAULT;              /* the bytes are lost: the caller passed a bad buffer */
	return (long)got;
}

long sys_yield(void)
{
	sched_yield();
	return 0;
}

long sys_sleep(uint64_t ns)
{
	if (ns > MAX_SLEEP_NS)
		ns = MAX_SLEEP_NS;           /* keeps the TSC arithmetic in range; callers loop */
	thread_sleep_ns(ns);
	return thread_current()->killed ? -EINTR : 0;
}

int64_t sys_clock(void)
{
	return (int64_t)time_ns();
}

long sys_getcpu(void)
{
	return cpu_id();
}

long sys_cpustat(uint64_t cpu, uint64_t uout)
{
	cpu = (uint32_t)cpu;             /* an int parameter */
	if (cpu >= (uint64_t)ncpus)
		return -EINVAL;
	struct cpu *c = &cpus[cpu];
	struct hako_cpustat st = {
		.ticks = c->ticks, .irqs = c->irqs, .ctx_switches = c->ctx_switches,
		.online = c->online, .idle = c->idle, .cur_prio = c->cur_prio, .rq_len = c->rq_len,
		.as_loads = c->as_loads,
	};
	long err = copy_to_user(uout, &st, sizeof st);
	return err < 0 ? err : ncpus;
}

long sys_sysinfo(uint64_t uout)
{
	struct proc *p = proc_current();
	struct hako_sysinfo si = {
		.free_frames = pmm_free_count(), .total_frames = pmm_total_count(),
		.ncpus = cpus_online(), .nprocs = proc_count(), .nthreads = thread_count(),
		.page_size = PAGE_SIZE, .tsc_hz = tsc_hz,
		.proc_kernel_frames = p->as->table_frames + (uint64_t)p->running * (KSTACK_SIZE / PAGE_SIZE),
	};
	return copy_to_user(uout, &si, sizeof si);
}

long sys_ps(uint64_t index, uint64_t uout)
{
	struct hako_psinfo info;
	if ((int)index < 0)
		return -EINVAL;
	if (!user_range_ok(uout, sizeof info))
		return -EFAULT;
	long err = thread_info((int)index, &info);
	return err < 0 ? err : copy_to_user(uout, &info, sizeof info);
}

long sys_poweroff(uint64_t status)
{
	if (proc_current()->pid != proc_init_pid)
		return -EPERM;
	arch_power_off((int)status == 0 ? POWER_OK : POWER_FAIL);
}
