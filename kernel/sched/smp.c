/*
 * smp.c — the CPUs: which are online, bringing the others up, and
 * cross-CPU calls.
 *
 * Starting one processor is the arch's (arch_cpu_start); this file walks
 * the CPUs the firmware listed and gives each its struct cpu first.  A
 * started CPU ends its arch set-up in smp_cpu_online(), which makes it
 * schedulable.
 *
 * Cross-CPU calls: each CPU has a queue of call nodes; the caller links a
 * node (on its own stack) into every target's queue, sends VECTOR_CALL,
 * and waits, with interrupts off, for every target to finish, running its
 * own queue meanwhile so two CPUs calling each other cannot deadlock.
 */
#include <stdint.h>
#include <acpi.h>
#include <bits.h>
#include <cpu.h>
#include <intr.h>
#include <kprintf.h>
#include <list.h>
#include <sched.h>
#include <smp.h>
#include <spinlock.h>
#include <time.h>
#include <region.h>

struct cpu cpus[MAX_CPUS];
int ncpus = 1;
static volatile bool stopping;
static volatile uint64_t online_mask;

struct call_data {
	void (*fn)(void *);
	void *arg;
	volatile int pending;
};

struct call_node {
	struct list_node link;
	struct call_data *data;
};

static struct list_node call_queue[MAX_CPUS];
static struct spinlock call_lock[MAX_CPUS];

int cpus_online(void) { return popcount64(online_mask); }
uint64_t smp_online_mask(void) { return online_mask; }
bool smp_stopping(void) { return stopping; }

/*
 * Interrupts are off from taking a call to counting it done: a caller
 * preempted in between, and then moved to a CPU whose caller waits for
 * that very call with interrupts off, would stop both CPUs for good.
 */
static void run_calls(void)
{
	int me = cpu_id();
	for (;;) {
		spin_lock(&call_lock[me]);
		struct list_node *n = list_pop_front(&call_queue[me]);
		spin_unlock(&call_lock[me]);
		if (!n)
			return;
		struct call_node *node = list_entry(n, struct call_node, link);
		struct call_data *d = node->data;
		sync_wait(HAKO_SYNC_CALL, node);
		d->fn(d->arg);
		sync_post(HAKO_SYNC_CALL, d);
		__atomic_fetch_sub(&d->pending, 1, __ATOMIC_RELEASE);
	}
}

static void call_ipi(void *unused)
{
	run_calls();
}

static void resched_ipi(void *unused)
{
	sched_request_resched();
}

void smp_send_resched(int cpu)
{
	if (cpu == cpu_id())
		sched_request_resched();
	else
		smp_send_ipi(cpu, VECTOR_RESCHED);
}

void smp_call_mask(uint64_t mask, void (*fn)(void *), void *arg, bool wait)
{
	struct call_data d = { fn, arg, 0 };
	struct call_node nodes[MAX_CPUS];
	push_off();                  /* see run_calls: no preemption while a call is taken */
	mask &= online_mask & ~(1ull << cpu_id());
	d.pending = popcount64(mask);
	for (int c = 0; c < ncpus; c++) {
		if (!(mask & (1ull << c)))
			continue;
		nodes[c].data = &d;
		sync_post(HAKO_SYNC_CALL, &nodes[c]);
		spin_lock(&call_lock[c]);
		list_push_back(&call_queue[c], &nodes[c].link);
		spin_unlock(&call_lock[c]);
		smp_send_ipi(c, VECTOR_CALL);
	}
	/* The nodes live on this stack, so we wait even when !wait. */
	(void)wait;
	sync_spin_begin(HAKO_SYNC_CALL);
	while (__atomic_load_n(&d.pending, __ATOMIC_ACQUIRE) > 0) {
		run_calls();
		arch_spin_hint();
	}
	sync_spin_end(HAKO_SYNC_CALL, &d);
	sync_wait(HAKO_SYNC_CALL, &d);       /* after every target's call */
	pop_off();
}

void smp_stop_others(void)
{
	stopping = true;
	struct cpu *me = arch_this_cpu();
	for (int c = 0; c < ncpus; c++)
		if (&cpus[c] != me && cpus[c].online)
			arch_cpu_stop(&cpus[c]);
}

/* A started CPU, its arch set-up done, on its idle stack: make it
 * schedulable and idle. */
__attribute__((noreturn)) void smp_cpu_online(struct cpu *c)
{
	sched_init_cpu();
	__atomic_fetch_or(&online_mask, 1ull << c->id, __ATOMIC_SEQ_CST);
	c->online = true;
	timer_start_cpu();
	sched_idle_loop();
}

void smp_boot_aps(void)
{
	for (int i = 0; i < MAX_CPUS; i++) {
		list_init(&call_queue[i]);
		spin_init(&call_lock[i], "smp_call", LOCK_SMP_CALL);
	}
	intr_register(VECTOR_CALL, call_ipi, NULL, "ipi-call");
	intr_register(VECTOR_RESCHED, resched_ipi, NULL, "ipi-resched");
	__atomic_fetch_or(&online_mask, 1ull, __ATOMIC_SEQ_CST);
	uint32_t me = arch_cpu_apic_id();
	for (int i = 0; i < acpi.ncpus && ncpus < MAX_CPUS; i++) {
		if (acpi.cpu_apic_ids[i] == me)
			continue;
		struct cpu *c = &cpus[ncpus];
		c->id = ncpus;
		c->apic_id = acpi.cpu_apic_ids[i];
		ncpus++;
		if (arch_cpu_start(c) < 0) {
			kprintf("smp: cpu with APIC id %u did not start\n", c->apic_id);
			ncpus--;
		}
	}
}
