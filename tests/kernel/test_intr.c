/*
 * test_intr.c — self-tests of device interrupts end to end: QEMU's edu
 * device raises an interrupt by MSI and by its INTx pin through the
 * I/O APIC, and each must arrive exactly once on the CPU it was sent
 * to.  The harness always boots with `-device edu`.
 */
#include <stdint.h>
#include <cpu.h>
#include <driver.h>
#include <edu.h>
#include <errno.h>
#include <ktest.h>
#include <pci.h>
#include <sched.h>
#include <thread.h>
#include <time.h>

/* Wait up to 100 ms for the handler count to reach want. */
static bool wait_irqs(struct edu *e, uint64_t want)
{
	uint64_t deadline = time_ns() + 100000000ull;
	while (e->irqs < want && time_ns() < deadline)
		sched_yield();
	return e->irqs >= want;
}

/* Route to cpu, raise once, and check one interrupt arrived there. */
static int raise_on(struct edu *e, enum edu_route how, int cpu, uint32_t bit)
{
	CHECK(edu_pending(e) == 0, "status %x pending before the test", edu_pending(e));
	int err = edu_route(e, how, cpu);
	CHECK(err == 0, "routing edu to cpu %d failed: %d", cpu, err);
	uint64_t before = e->irqs;
	e->status_seen = 0;
	edu_raise(e, bit);
	CHECK(wait_irqs(e, before + 1), "no interrupt on cpu %d after 100 ms", cpu);
	thread_sleep_ns(2000000);               /* a level line left high would storm here */
	CHECK(e->irqs == before + 1, "%lu interrupts for one raise", e->irqs - before);
	CHECK(e->last_cpu == cpu, "interrupt for cpu %d ran on cpu %d", cpu, e->last_cpu);
	CHECK(e->status_seen == bit, "status %x, raised %x", e->status_seen, bit);
	CHECK(edu_pending(e) == 0, "status %x still pending", edu_pending(e));
	edu_unroute(e);
	return 0;
}

/* A machine without PCI (SH-4's r2d as Hako sets it up) has no edu. */
#define NO_PCI "no PCI bus on this machine"

static struct edu *need_edu(void)
{
	struct edu *e = edu_get();
	if (e && edu_ident(e) >> 16 != 0x0100)
		return NULL;
	return e;
}

TEST(device_msi_reaches_each_cpu)
{
	struct edu *e = need_edu();
	if (!e && pci_ndevices == 0)
		SKIP(NO_PCI);
	CHECK(e, "no edu device (QEMU needs -device edu)");
	CHECK(e->dev->pci->msi_cap, "edu has no MSI capability");
	for (int cpu = 0; cpu < ncpus; cpu++)
		if (raise_on(e, EDU_ROUTE_MSI, cpu, 1u << (cpu % 32)) < 0)
			return -1;
	return 0;
}

TEST(device_intx_through_ioapic)
{
	struct edu *e = need_edu();
	if (!e && pci_ndevices == 0)
		SKIP(NO_PCI);
	CHECK(e, "no edu device (QEMU needs -device edu)");
	int last = ncpus - 1;
	if (raise_on(e, EDU_ROUTE_INTX, 0, 0x100) < 0 || raise_on(e, EDU_ROUTE_INTX, last, 0x200) < 0)
		return -1;
	return 0;
}

/*
 * A masked level-triggered line holds the interrupt and unmasking it
 * delivers it then.  (An edge-triggered masked input drops it, as the
 * 82093AA does: the first route programs the line as level.)
 */
TEST(device_intx_masked_then_delivered)
{
	struct edu *e = need_edu();
	if (!e && pci_ndevices == 0)
		SKIP(NO_PCI);
	CHECK(e, "no edu device (QEMU needs -device edu)");
	int err = edu_route(e, EDU_ROUTE_INTX, 0);
	CHECK(err == 0, "routing INTx failed: %d", err);
	edu_unroute(e);                          /* masked, still level-triggered */
	uint64_t before = e->irqs;
	edu_raise(e, 0x400);                     /* the pin is high, the line masked */
	thread_sleep_ns(2000000);
	CHECK(e->irqs == before, "a masked line delivered an interrupt");
	CHECK(edu_pending(e) == 0x400, "status %x, raised 400", edu_pending(e));
	e->status_seen = 0;
	err = edu_route(e, EDU_ROUTE_INTX, 0);
	CHECK(err == 0, "routing INTx failed: %d", err);
	CHECK(wait_irqs(e, before + 1), "the held interrupt was not delivered on unmask");
	CHECK(e->status_seen == 0x400, "status seen %x", e->status_seen);
	edu_unroute(e);
	return 0;
}

TEST(device_route_rejects_bad_cpu)
{
	struct edu *e = need_edu();
	if (!e && pci_ndevices == 0)
		SKIP(NO_PCI);
	CHECK(e, "no edu device (QEMU needs -device edu)");
	CHECK(edu_route(e, EDU_ROUTE_MSI, ncpus) == -EINVAL, "cpu %d accepted", ncpus);
	CHECK(edu_route(e, EDU_ROUTE_MSI, -1) == -EINVAL, "cpu -1 accepted");
	CHECK(e->route == EDU_ROUTE_NONE, "a failed route left the device routed");
	return 0;
}
