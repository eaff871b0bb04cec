/*
 * smp.c — starting the application processors, and cross-CPU calls.
 *
 * Start-up follows the MP protocol (Intel SDM 8.4.4): INIT, 10 ms, then
 * STARTUP with the trampoline page, repeated once if the AP is slow.  Each
 * AP gets its own struct cpu, arch_cpu and idle stack before it is woken.
 *
 * Cross-CPU calls: each CPU has a queue of call nodes; the caller links a
 * node (on its own stack) into every target's queue, sends VECTOR_CALL,
 * and waits, with interrupts off, for every target to finish, running its
 * own queue meanwhile so two CPUs calling each other cannot deadlock.
 */
#include <stdint.h>
#include <string.h>
#include <acpi.h>
#include <bits.h>
#include <cpu.h>
#include <heap.h>
#include <intr.h>
#include <kprintf.h>
#include <list.h>
#include <panic.h>
#include <pmm.h>
#include <sched.h>
#include <smp.h>
#include <spinlock.h>
#include <time.h>
#include <vm.h>
#include "x86.h"
#include "arch_cpu.h"
#include "lapic.h"

extern char trampoline_start[], trampoline_end[];
extern const uint64_t trampoline_cr3, trampoline_stack, trampoline_cpu, trampoline_entry;
extern char boot_pml4[];

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
		struct call_data *d = list_entry(n, struct call_node, link)->data;
		d->fn(d->arg);
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

void smp_send_ipi(int cpu, int vector)
{
	lapic_send_ipi(cpus[cpu].apic_id, vector);
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
		spin_lock(&call_lock[c]);
		list_push_back(&call_queue[c], &nodes[c].link);
		spin_unlock(&call_lock[c]);
		smp_send_ipi(c, VECTOR_CALL);
	}
	/* The nodes live on this stack, so we wait even when !wait. */
	(void)wait;
	while (__atomic_load_n(&d.pending, __ATOMIC_ACQUIRE) > 0) {
		run_calls();
		arch_spin_hint();
	}
	pop_off();
}

void smp_stop_others(void)
{
	stopping = true;
	struct cpu *me = arch_this_cpu();
	for (int c = 0; c < ncpus; c++)
		if (&cpus[c] != me && cpus[c].online)
			lapic_send_nmi(cpus[c].apic_id);
}

/* First C code of an AP, on its idle stack, with boot.S's page tables. */
__attribute__((noreturn)) void ap_entry64(struct cpu *c)
{
	gdt_init_cpu(c, c->arch);
	idt_load();
	vm_init_cpu();
	lapic_init_cpu();
	sched_init_cpu();
	__atomic_fetch_or(&online_mask, 1ull << c->id, __ATOMIC_SEQ_CST);
	c->online = true;
	timer_start_cpu();
	sched_idle_loop();
}

/* The blob in .rodata is read-only: parameters go into the copy. */
static void set_param(char *page, const uint64_t *param, uint64_t value)
{
	*(uint64_t *)(page + ((const char *)param - trampoline_start)) = value;
}

static int start_ap(struct cpu *c)
{
	struct arch_cpu *ac = kzalloc(sizeof *ac);
	uint64_t stack = pmm_alloc_contig(KSTACK_SIZE / PAGE_SIZE, 1);
	if (!ac || !stack)
		return -1;
	c->arch = ac;
	c->self = c;
	c->idle_stack = (uint64_t)phys_to_virt(stack);
	char *page = phys_to_virt(AP_TRAMPOLINE_PHYS);
	memcpy(page, trampoline_start, trampoline_end - trampoline_start);
	set_param(page, &trampoline_cr3, virt_to_phys(boot_pml4));
	set_param(page, &trampoline_stack, c->idle_stack + KSTACK_SIZE);
	set_param(page, &trampoline_cpu, (uint64_t)c);
	set_param(page, &trampoline_entry, (uint64_t)ap_entry64);

	lapic_send_init(c->apic_id);
	time_delay_us(10000);
	for (int attempt = 0; attempt < 2 && !c->online; attempt++) {
		lapic_send_startup(c->apic_id, AP_TRAMPOLINE_PHYS);
		for (int i = 0; i < 1000 && !c->online; i++)
			time_delay_us(200);
	}
	return c->online ? 0 : -1;
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
	uint32_t me = lapic_id();
	for (int i = 0; i < acpi.ncpus && ncpus < MAX_CPUS; i++) {
		if (acpi.cpu_apic_ids[i] == me)
			continue;
		struct cpu *c = &cpus[ncpus];
		c->id = ncpus;
		c->apic_id = acpi.cpu_apic_ids[i];
		ncpus++;
		if (start_ap(c) < 0) {
			kprintf("smp: cpu with APIC id %u did not start\n", c->apic_id);
			ncpus--;
		}
	}
}
