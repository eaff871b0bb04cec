/*
 * time.c — the TSC clock and per-CPU one-shot timers.
 *
 * Each CPU keeps its armed timers in a list sorted by deadline, under its
 * own timer_lock.  The LAPIC timer interrupt runs every expired timer and
 * re-programs the LAPIC for the next one.  A timer is always armed on the
 * CPU that calls timer_arm(), and its callback runs there.
 */
#include <stdint.h>
#include <cpu.h>
#include <intr.h>
#include <intr_pack.h>
#include <kprintf.h>
#include <panic.h>
#include <sched.h>
#include <time.h>

uint64_t tsc_hz, lapic_hz;
uint64_t tick_ns = 10000000;         /* 10 ms, as in paper 000 */
const char *calibration_source = "none";
static uint64_t boot_tsc;

uint64_t ns_to_tsc(uint64_t ns) { return arch_muldiv64(ns, tsc_hz, 1000000000ull); }
uint64_t tsc_to_ns(uint64_t t) { return arch_muldiv64(t, 1000000000ull, tsc_hz); }
uint64_t time_ns(void) { return tsc_to_ns(arch_tsc() - boot_tsc); }

void time_delay_us(uint64_t us)
{
	uint64_t end = arch_tsc() + ns_to_tsc(us * 1000);
	while (arch_tsc() < end)
		arch_spin_hint();            /* under icount TCG: let the other vCPUs run */
}

static void timer_interrupt(void *unused);

#define SETTLE_NS 10000ull

static void settle_fired(struct timer *t, void *arg)
{
	*(volatile bool *)arg = true;
	if (!ARCH_IDLE_ATOMIC)           /* it may have come before the sleep: wake it again */
		timer_arm(t, arch_tsc() + ns_to_tsc(SETTLE_NS));
}

/*
 * The boot CPU sleeps once, 10 us, while the other CPUs still wait for
 * their start: the first moment every CPU is idle.  It matters under
 * QEMU's icount, where the vCPUs take turns on one instruction counter
 * and a turn ends at each deadline of QEMU's virtual clock, among them
 * the round-robin kick that QEMU arms every 100 ms from the machine's
 * start.  The firmware before the kernel runs a few hundred
 * instructions more or fewer from boot to boot (it polls the disks), so
 * without this the turns would fall at other places of the kernel's
 * code in every boot, and a boot with several CPUs would not repeat.
 * QEMU stops the kick while every vCPU is idle and re-arms it from the
 * wake-up, which is the kernel's own deadline.
 */
void time_settle(void)
{
	volatile bool fired = false;
	struct timer t;
	timer_init(&t, settle_fired, (void *)&fired);
	uint64_t irq = arch_irq_save();
	timer_arm(&t, arch_tsc() + ns_to_tsc(SETTLE_NS));
	while (!fired) {
		arch_idle();                 /* interrupts on, and wait for one */
		arch_irq_disable();
	}
	if (!ARCH_IDLE_ATOMIC)
		timer_cancel(&t);            /* its next shot: t lives on this stack */
	arch_irq_restore(irq);
}

void time_init(void)
{
	boot_tsc = arch_tsc();
	tsc_hz = arch_calibrate(&lapic_hz, &calibration_source);
	if (tsc_hz < 1000000 || lapic_hz < 1000)
		panic("time: calibration failed (tsc %lu Hz, lapic %lu Hz)", tsc_hz, lapic_hz);
	intr_register(VECTOR_TIMER, timer_interrupt, NULL, "lapic-timer");
}

void timer_init(struct timer *t, void (*fn)(struct timer *, void *), void *arg)
{
	list_init(&t->link);
	t->fn = fn;
	t->arg = arg;
	t->cpu = -1;
	t->deadline = 0;
}

/* Program the LAPIC toward the earliest deadline.  Caller holds timer_lock. */
static void reprogram(struct cpu *c)
{
	if (list_empty(&c->timers))
		return;
	struct timer *first = list_entry(c->timers.next, struct timer, link);
	uint64_t now = arch_tsc();
	arch_timer_program(first->deadline > now ? first->deadline - now : 1);
}

void timer_arm(struct timer *t, uint64_t deadline)
{
	timer_cancel(t);
	struct cpu *c = this_cpu();
	spin_lock(&c->timer_lock);
	t->deadline = deadline;
	t->cpu = c->id;
	struct list_node *pos = c->timers.next;
	while (pos != &c->timers && list_entry(pos, struct timer, link)->deadline <= deadline)
		pos = pos->next;
	list_insert_between(&t->link, pos->prev, pos);
	if (c->timers.next == &t->link)
		reprogram(c);
	spin_unlock(&c->timer_lock);
}

bool timer_cancel(struct timer *t)
{
	for (;;) {
		int cpu = __atomic_load_n(&t->cpu, __ATOMIC_ACQUIRE);
		if (cpu < 0)
			return false;
		struct cpu *c = &cpus[cpu];
		spin_lock(&c->timer_lock);
		if (t->cpu == cpu) {
			list_remove(&t->link);
			t->cpu = -1;
			spin_unlock(&c->timer_lock);
			return true;
		}
		spin_unlock(&c->timer_lock);
	}
}

/* Cancel, and wait out a call of its function already under way elsewhere. */
bool timer_cancel_sync(struct timer *t)
{
	bool was_armed = timer_cancel(t);
	for (int i = 0; i < ncpus; i++)
		while (cpus[i].running_timer == t && i != cpu_id())
			arch_spin_hint();
	return was_armed;
}

static void timer_interrupt(void *unused)
{
	struct cpu *c = this_cpu();
	uint64_t now = arch_tsc();
	spin_lock(&c->timer_lock);
	while (!list_empty(&c->timers)) {
		struct timer *t = list_entry(c->timers.next, struct timer, link);
		if (t->deadline > now)
			break;
		list_remove(&t->link);
		t->cpu = -1;
		c->running_timer = t;
		spin_unlock(&c->timer_lock);
		t->fn(t, t->arg);              /* may re-arm itself */
		spin_lock(&c->timer_lock);
		c->running_timer = NULL;
		now = arch_tsc();
	}
	reprogram(c);
	spin_unlock(&c->timer_lock);
}

static struct timer tick_timer[MAX_CPUS];

static void tick(struct timer *t, void *unused)
{
	struct cpu *c = this_cpu();
	c->ticks++;
	timer_arm(t, t->deadline + ns_to_tsc(tick_ns));
	intr_pack_tick();               /* packaged interrupts waiting for the tick */
	sched_tick();
}

void timer_start_cpu(void)
{
	struct cpu *c = this_cpu();
	timer_init(&tick_timer[c->id], tick, NULL);
	timer_arm(&tick_timer[c->id], arch_tsc() + ns_to_tsc(tick_ns));
}
