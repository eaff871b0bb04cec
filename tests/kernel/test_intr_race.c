/*
 * test_intr_race.c — attaching and detaching an interrupt source while its
 * vector keeps firing on another CPU.
 *
 * A software source (its "device" is a status word its ack takes) is
 * attached to a vector routed to CPU 1, switched between sequential and
 * packed, and detached again, over and over, by a thread on CPU 0; a
 * thread on CPU 2 meanwhile sends that vector to CPU 1 as fast as it can,
 * every other time with a status set (the source's) and otherwise
 * without (an interrupt nobody claims).  Interrupts land during every
 * step: while the vector's handler and argument are replaced, while the
 * line's list loses its only source, and while the lean path is switched
 * on and off.  The kernel must not fault, and every interrupt the source
 * claimed must be handled once (handled + pending = interrupts).
 */
#include <stdbool.h>
#include <stdint.h>
#include <arch/arch.h>
#include <cpu.h>
#include <intr.h>
#include <intr_pack.h>
#include <kprintf.h>
#include <ktest.h>
#include <sched.h>
#include <smp.h>
#include <thread.h>

#define ROUNDS  500
#define TARGET  1                        /* the CPU the vector is routed to */
#define FIRER   2                        /* the CPU that sends it */

struct race {
	struct intr_src src;
	volatile uint32_t reg;           /* the device's status: what ack returns */
	volatile uint64_t handled;
	volatile bool stop;
	volatile uint64_t sent;
	int vector;
};

static struct race race = { .src = { .name = "race.0", .type = "race" } };
static bool race_added;

static uint32_t race_ack(struct intr_src *s)
{
	return __atomic_exchange_n(&race.reg, 0, __ATOMIC_ACQ_REL);
}

static void race_work(struct intr_src *s, uint32_t data)
{
	race.handled++;
}

/* CPU 2: the vector to CPU 1, every other one with the source's status set. */
static void fire(void *unused)
{
	while (!race.stop) {
		if (race.sent & 1)
			__atomic_store_n(&race.reg, 1, __ATOMIC_RELEASE);
		smp_send_ipi(TARGET, race.vector);
		race.sent++;
		for (int i = 0; i < 2; i++)
			arch_spin_hint();
	}
	thread_exit(0);
}

static int set_mode(int mode)
{
	struct hako_intr_set set = { .mode = mode, .n = 4, .t_ns = 100000, .flags = HAKO_INTR_TICK,
				     .bound_ns = 1000000 };
	return intr_pack_configure(&race.src, &set);
}

TEST(pack_attach_detach_while_the_vector_fires)
{
	if (ncpus <= FIRER)
		SKIP("needs 3 CPUs");
	sched_set_affinity(thread_current(), 1ull << 0);
	if (!race_added) {
		race.src.ack = race_ack;
		race.src.work = race_work;
		race.src.priv = &race;
		CHECK(intr_pack_add(&race.src) >= 0, "no room in the registry");
		race_added = true;
	}
	race.vector = intr_alloc_vector();
	CHECK(race.vector > 0, "no vector: %d", race.vector);
	intr_register(race.vector, intr_pack_unclaimed, NULL, "race");
	race.stop = false;
	race.sent = 0;
	struct thread *firer = thread_create("ktest-race", fire, NULL, PRIO_DEFAULT, 1ull << FIRER);
	CHECK(firer, "no thread");
	thread_start(firer);
	int err = 0;
	for (int round = 0; round < ROUNDS && !err; round++) {
		err = intr_pack_attach(&race.src, race.vector, -1, TARGET);
		if (!err)
			err = set_mode(round & 1 ? HAKO_INTR_PACKED : HAKO_INTR_SEQUENTIAL);
		for (int i = 0; i < 200 * (round % 4); i++)
			arch_spin_hint();
		intr_pack_detach(&race.src);
	}
	race.stop = true;
	thread_join(firer);
	set_mode(HAKO_INTR_SEQUENTIAL);
	intr_release(race.vector);
	struct hako_intr_dev d;
	intr_pack_snapshot(&race.src, &d);
	sched_set_affinity(thread_current(), ~0ull);
	kprintf("test_intr_race: %lu interrupts sent, %lu claimed, %lu handled, %lu not claimed\n",
		race.sent, d.c.interrupts, race.handled, d.c.not_mine);
	CHECK(err == 0, "attach or mode switch failed: %d", err);
	CHECK(d.pending == 0, "%u pending after detach", d.pending);
	CHECK(d.c.handled == d.c.interrupts && race.handled == d.c.handled,
		 "%lu claimed, %lu handled (%lu by the counters)", d.c.interrupts, race.handled, d.c.handled);
	CHECK(d.c.interrupts > 0, "no interrupt was claimed");
	return 0;
}
