/*
 * test_retarget.c — drv_irq_retarget, the mechanism under paper 001's
 * delivery policies (kernel/mpio/): QEMU's first edu device, routed once,
 * is sent to another CPU by rewriting its MSI address or its I/O APIC
 * entry, and each interrupt raised after that must arrive exactly once
 * on the new CPU.
 */
#include <stdint.h>
#include <cpu.h>
#include <driver.h>
#include <edu.h>
#include <errno.h>
#include <ktest.h>
#include <pci.h>
#include <sched.h>
#include <time.h>

/* Raise bit and wait up to 100 ms for exactly one interrupt, on cpu. */
static int one_on(struct edu *e, int cpu, uint32_t bit)
{
	uint64_t before = e->irqs, deadline = time_ns() + 100000000ull;
	edu_raise(e, bit);
	while (e->irqs == before && time_ns() < deadline)
		sched_yield();
	CHECK(e->irqs == before + 1, "%lu interrupts for one raise", e->irqs - before);
	CHECK(e->last_cpu == cpu, "interrupt retargeted to cpu %d ran on cpu %d", cpu, e->last_cpu);
	return 0;
}

static int retarget_each(struct edu *e, enum edu_route how, const int *to, int n)
{
	CHECK(edu_pending(e) == 0, "status %x pending before the test", edu_pending(e));
	CHECK(edu_route(e, how, 0) == 0, "routing the edu to cpu 0 failed");
	for (int i = 0; i < n; i++) {
		int err = drv_irq_retarget(e->dev, to[i]);
		CHECK(err == 0, "retarget to cpu %d: %d", to[i], err);
		if (one_on(e, to[i], 1u << (i % 32)) < 0) {
			edu_unroute(e);
			return -1;
		}
	}
	CHECK(drv_irq_retarget(e->dev, ncpus) == -EINVAL, "cpu %d accepted", ncpus);
	CHECK(drv_irq_retarget(e->dev, -1) == -EINVAL, "cpu -1 accepted");
	edu_unroute(e);
	CHECK(drv_irq_retarget(e->dev, 0) == -ENODEV, "retarget without an interrupt accepted");
	return 0;
}

TEST(device_retarget_moves_msi_and_intx)
{
	struct edu *e = edu_get();
	if (!e && pci_ndevices == 0)
		SKIP("no PCI bus on this machine");
	CHECK(e && edu_ident(e) >> 16 == 0x0100, "no edu device (QEMU needs -device edu)");
	int to[MAX_CPUS + 1];
	for (int c = 0; c < ncpus; c++)
		to[c] = (c + 1) % ncpus;             /* every CPU, ending on 0 */
	if (retarget_each(e, EDU_ROUTE_MSI, to, ncpus) < 0)
		return -1;
	int line[2] = { ncpus - 1, 0 };
	return retarget_each(e, EDU_ROUTE_INTX, line, 2);
}
