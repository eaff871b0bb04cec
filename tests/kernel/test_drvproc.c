/*
 * test_drvproc.c — drivers as processes (paper 003): the grants.
 *
 *   drvproc_port_outside_grant_kills_process   a driver process granted
 *       port 0x80 writes it, then reads 0x84: #GP kills it (status
 *       KILLED | 13) and the kernel goes on.
 *   drvproc_cards_granted_to_processes_only    with drvproc=, each card's
 *       device has nothing granted in the kernel; its process holds the
 *       manifest's MMIO window and all its DMA budget; the card is
 *       registered with the process's MAC.
 *   drvproc_grants_outside_manifest_refused    a driver process is
 *       refused every BAR the manifest does not list as MMIO, every port
 *       range, and DMA past the budget (-EPERM), mapping nothing.
 */
#include <stdint.h>
#include <drvproc.h>
#include <errno.h>
#include <ktest.h>
#include <nic.h>
#include <pmm.h>
#include <proc.h>
#include <arch/arch.h>

#define NO_DRVPROC "no driver process (boot with --net hub --drvproc rtl8139,e1000)"

TEST(drvproc_port_outside_grant_kills_process)
{
	const void *image;
	uint64_t size;
	if (!ARCH_HAS_PORT_IO)
		SKIP("no I/O port space on this arch: nothing for a grant to refuse");
	if (initrd_find("drvport", &image, &size) < 0)
		SKIP("no program drvport: no user programs in the boot archive");
	int pid = drvproc_spawn_test("drvport", 0x80, 1);
	CHECK(pid > 0, "cannot spawn drvport: %d", pid);
	int status = 0;
	CHECK(proc_wait(NULL, pid, &status) == pid, "drvport not collected");
	CHECK(HAKO_WIFKILLED(status) && HAKO_WCAUSE(status) == 13,
		 "drvport ended with status %#x, not killed by #GP", status);
	return 0;
}

static int check_drvproc(struct drvproc *c)
{
	struct drv_dev *dev = c->dev;
	const struct drv_manifest *m = dev->driver->manifest;
	CHECK(dev->in_process && !dev->granted && dev->dma_used == 0,
		 "%s: granted in the kernel", dev->name);
	for (int bar = 0; bar < DRV_BARS; bar++) {
		CHECK(!dev->mmio[bar].base, "%s: BAR%d mapped in the kernel", dev->name, bar);
		bool want = m->bar[bar].use == DRV_BAR_MMIO;
		CHECK(!c->grant.mmio_va[bar] == !want, "%s: BAR%d in the process: %d", dev->name, bar,
			 c->grant.mmio_va[bar] != 0);
	}
	CHECK(c->grant.dma_used == m->dma_bytes, "%s: the process holds %lu bytes of DMA, manifest %u",
		 dev->name, (unsigned long)c->grant.dma_used, m->dma_bytes);
	CHECK(c->grant.io.n == 0, "%s: ports granted", dev->name);
	CHECK(c->pid > 0 && c->registered && nic_get(c->nic_index) == &c->nic,
		 "%s: not registered as a card", dev->name);
	return 0;
}

/* check(c) for every card whose driver runs as a process: 0, -1 at the
 * first failure, 1 if there is none. */
static int each_drvproc(int (*check)(struct drvproc *c))
{
	int found = 0;
	for (int i = 0; i < nic_count(); i++) {
		struct drvproc *c = drvproc_of_nic(i);
		if (!c)
			continue;
		found++;
		if (check(c))
			return -1;
	}
	return found ? 0 : 1;
}

TEST(drvproc_cards_granted_to_processes_only)
{
	int r = each_drvproc(check_drvproc);
	if (r > 0)
		SKIP(NO_DRVPROC);
	return r;
}

/* Every grant outside c's manifest is refused, and takes nothing. */
static int check_refusals(struct drvproc *c)
{
	const struct drv_manifest *m = c->dev->driver->manifest;
	for (int bar = -1; bar <= DRV_BARS; bar++) {
		struct hako_drv_grant g = { 0 };
		bool mmio = bar >= 0 && bar < DRV_BARS && m->bar[bar].use == DRV_BAR_MMIO;
		if (!mmio)
			CHECK(drvproc_grant_mmio(c, bar, &g) == -EPERM && !g.va,
				 "%s: BAR%d mapped outside the manifest", c->dev->name, bar);
		CHECK(drvproc_grant_ports(c, bar, &g) == -EPERM && !g.size,
			 "%s: ports of BAR%d granted outside the manifest", c->dev->name, bar);
	}
	uint64_t free_frames = pmm_free_count();
	struct hako_drv_dma d = { 0 };
	CHECK(drvproc_grant_dma(c, 1, &d) == -EPERM && !d.va, "%s: DMA past the manifest",
		 c->dev->name);
	CHECK(pmm_free_count() == free_frames, "%s: a refused DMA took memory", c->dev->name);
	return 0;
}

TEST(drvproc_grants_outside_manifest_refused)
{
	int r = each_drvproc(check_refusals);
	if (r > 0)
		SKIP(NO_DRVPROC);
	return r;
}
