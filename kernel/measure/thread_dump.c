/*
 * thread_dump.c — what every CPU and every thread is doing, on request.
 *
 * Typing Ctrl-\ on the console (the harness sends it when a boot times
 * out) prints one line per CPU — with where it was when an NMI caught
 * it — and one line per thread, with the backtrace of every thread that
 * is not running.  It is the tool for a hang: who sleeps on what, who
 * spins with interrupts off.  A CPU spinning with interrupts off still
 * answers the NMI; only the CPU that takes the console interrupt must be
 * able to run.
 */
#include <stdint.h>
#include <cpu.h>
#include <kprintf.h>
#include <panic.h>
#include <smp.h>
#include <thread.h>
#include <time.h>
#include <arch/arch.h>

static const char *const state_names[] = { "new", "runnable", "running", "sleeping", "dead" };

static void print_cpu(struct cpu *c, const struct arch_snapshot *s)
{
	struct thread *t = c->current;
	kprintf("cpu %d: tid %d (%s) ncli %d queued %d ticks %lu%s\n", c->id,
		t ? t->tid : -1, t ? t->name : "-", c->ncli, c->rq_len, c->ticks,
		c->need_resched ? " resched" : "");
	if (!s) {
		if (c == this_cpu())         /* the dumping CPU: where its interrupt came in */
			backtrace_print(arch_frame_pointer());
		return;
	}
	uint64_t off = 0;
	const char *fn = ksym_lookup(s->pc, &off);
	if (s->user)
		kprintf("  in user mode at %lx\n", s->pc);
	else if (fn) {
		kprintf("  at %016lx %s+0x%lx\n", s->pc, fn, off);
		backtrace_print(s->fp);
	}
}

static void print_thread(struct thread *t)
{
	unsigned st = (unsigned)t->state;
	kprintf("tid %d (%s) %s cpu %d prio %d%s%s%s\n", t->tid, t->name,
		st < 5 ? state_names[st] : "?", t->cpu, t->prio,
		t->on_rq ? " queued" : "", t->killed ? " killed" : "",
		t->wait_on ? " on-waitq" : "");
	if (t->state != T_RUNNING && t->state != T_NEW && t->state != T_DEAD && t->saved_rsp)
		backtrace_print(arch_switch_frame_pointer(t->saved_rsp));
}

void thread_dump_all(void)
{
	struct arch_snapshot snap[MAX_CPUS];
	int got = arch_snapshot_others(snap, ncpus);
	kprintf("\n---- thread dump (cpu %d, %d of %d other cpus answered) ----\n",
		cpu_id(), got, ncpus - 1);
	for (int i = 0; i < ncpus; i++)
		print_cpu(&cpus[i], i == cpu_id() ? NULL : (snap[i].valid ? &snap[i] : NULL));
	thread_for_each(print_thread);
	kprintf("---- end of thread dump ----\n");
}
