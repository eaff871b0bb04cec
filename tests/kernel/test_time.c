/*
 * test_time.c — self-tests of clocks and timers: calibration sanity,
 * sleep length, one-shot timers firing once on their CPU, the tick.
 */
#include <stdint.h>
#include <cpu.h>
#include <ktest.h>
#include <thread.h>
#include <time.h>
#include <arch/arch.h>

TEST(clock_calibrated)
{
	CHECK(tsc_hz >= ARCH_TSC_MIN_HZ, "tsc %lu Hz is implausible", tsc_hz);
	CHECK(lapic_hz > 1000000ull, "lapic %lu Hz is implausible", lapic_hz);
	uint64_t a = time_ns();
	time_delay_us(1000);
	uint64_t b = time_ns();
	CHECK(b - a >= 1000000 && b - a < 2000000, "1 ms busy wait took %lu ns", b - a);
	return 0;
}

TEST(sleep_duration)
{
	for (uint64_t ms = 1; ms <= 25; ms *= 5) {
		uint64_t t0 = time_ns();
		thread_sleep_ns(ms * 1000000);
		uint64_t slept = time_ns() - t0;
		CHECK(slept >= ms * 1000000, "asked %lu ms, slept %lu ns", ms, slept);
		CHECK(slept < ms * 1000000 + 2000000, "asked %lu ms, slept %lu ns", ms, slept);
	}
	return 0;
}

static volatile int fired;
static volatile int fired_cpu;

static void on_timer(struct timer *t, void *arg)
{
	fired++;
	fired_cpu = cpu_id();
}

TEST(oneshot_timer_fires_once)
{
	static struct timer t;
	fired = 0;
	timer_init(&t, on_timer, NULL);
	push_off();
	int me = cpu_id();
	timer_arm(&t, arch_tsc() + ns_to_tsc(3000000));
	pop_off();
	thread_sleep_ns(10000000);
	CHECK(fired == 1, "fired %d times", fired);
	CHECK(fired_cpu == me, "fired on cpu %d, armed on %d", fired_cpu, me);
	timer_init(&t, on_timer, NULL);
	timer_arm(&t, arch_tsc() + ns_to_tsc(3000000));
	CHECK(timer_cancel(&t), "cancel of an armed timer failed");
	thread_sleep_ns(6000000);
	CHECK(fired == 1, "cancelled timer fired");
	return 0;
}

TEST(tick_runs_at_period)
{
	push_off();
	struct cpu *c = this_cpu();
	pop_off();
	uint64_t t0 = c->ticks;
	thread_sleep_ns(10 * tick_ns);
	uint64_t n = c->ticks - t0;
	CHECK(n >= 9 && n <= 11, "%lu ticks in 10 periods", n);
	return 0;
}
