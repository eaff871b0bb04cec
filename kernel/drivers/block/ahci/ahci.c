/*
 * ahci.c — driver for SATA disks behind an AHCI host bus adapter, as
 * QEMU emulates Intel's ICH9 controller (PCI 8086:2922, QEMU device "ahci",
 * also q35's built-in controller at 00:1f.2).
 *
 * QEMU flags that create the device (`./hako boot --disk ahci` adds them):
 *   -drive file=IMAGE,if=none,id=hako-ahci,format=raw
 *   -device ahci,id=hako-ahci -device ide-hd,drive=hako-ahci,bus=hako-ahci.0
 *
 * Sources: Serial ATA AHCI 1.3.1 (registers ch. 3, memory structures ch. 4,
 * bring-up 10.1.2, BIOS/OS handoff 10.6), the ATA command set (IDENTIFY
 * DEVICE, READ/WRITE DMA EXT), and QEMU's hw/ide/ahci.c for what the model
 * does.
 *
 * Bring-up, per controller: take it from the BIOS if it offers the handoff,
 * set GHC.AE, and for every implemented port with a device present
 * (PxSSTS.DET = 3, interface active): stop its engines, give it a command
 * list and a received-FIS area, start FIS reception, wait for the device
 * to be ready, keep it if its signature is an ATA disk, clear its errors,
 * start the command engine and IDENTIFY it (polled, interrupts still off)
 * for its LBA48 size.  Then the interrupt (MSI where offered, else INTx),
 * PxIE and GHC.IE, and one block device per disk ("ahci0", "ahci1"...).
 * A controller without disks (q35's 00:1f.2 under `--disk ahci`) is not
 * kept: attach says so and returns -ENODEV, and the driver core takes its grants
 * back.
 *
 * I/O: a 4 KiB block is one command of 8 sectors, READ or WRITE DMA EXT,
 * in a free command slot (CAP.NCS + 1 of them, 32 under QEMU) with one PRD
 * on the request's buffer.  submit fills the slot and sets its PxCI bit
 * under the port's lock and returns; with every slot busy the request
 * waits in the port's queue for the next free one.  The interrupt handler
 * clears PxIS, then IS, reads PxCI, and completes each slot in flight whose
 * bit the HBA cleared: 0 if the whole 4 KiB moved (PRDBC), else -EIO.  On
 * a task-file or host error the HBA halts with the failed slot's bit still
 * set; the handler recovers as 6.2.2.1 says (port_recover): the failed
 * slot gets -EIO, the engine is stopped and restarted, the others reissued.
 * Completion runs outside the lock.  The handler does not care which CPU
 * it runs on; the driver attaches it to AHCI_IRQ_CPU, and paper 001's
 * delivery policies move it through blkdev.dev.
 *
 * QEMU facts that show in behaviour: the model runs one non-queued command
 * per port at a time, lowest slot first; a command that ends with ERR
 * (READ DMA EXT past the disk's end: ABRT) raises TFES and leaves its PxCI
 * bit set until ST is cleared; IS is recomputed from PxIS & PxIE on every
 * access, so PxIS must be cleared for the line to drop; the first D2H FIS
 * (the signature) arrives when FRE is first set, which the BIOS has
 * already done; the ABAR is 4 KiB (ICH9's is 2 KiB); CAP.S64A is set.
 *
 * Not handled: a device left busy after an error (needs a port reset,
 * COMRESET; logged); NCQ; port multipliers; hot plug; ATAPI; sectors other
 * than 512 bytes.
 */
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <blk_driver.h>
#include <drvenv.h>
#include "ahci.h"

#define AHCI_MAX       4                /* controllers this driver attaches */
#define AHCI_DISKS     6                /* disks per controller (ICH9 has 6 ports) */
#define AHCI_IRQ_CPU   0                /* where the interrupt goes until paper 001's policies move it */
#define SLOTS_MAX      32               /* command slots a port can have (CAP.NCS + 1 <= 32) */
#define SECTORS_PER_BLOCK (BLK_SIZE / ATA_SECTOR)

/*
 * The registers granted: the host registers and ports 0-13.  All 32 ports
 * would take 0x1100 bytes, longer than QEMU's 4 KiB ABAR and ICH9's 2 KiB
 * one, so the grant is ICH9's 2 KiB; an implemented port past it is ignored.
 */
#define ABAR_BYTES     0x800

/* One port's DMA memory: command list, received FISes, IDENTIFY data, and
 * a 256-byte command table per slot (FIS, ATAPI area, one PRD, padding to
 * the next 128-byte boundary). */
#define PM_CLIST       0x0000           /* 32 command headers, 1 KiB aligned */
#define PM_RFIS        0x0400           /* received-FIS area, 256-byte aligned */
#define PM_IDENT       0x0600           /* 512 bytes of IDENTIFY DEVICE data */
#define PM_TABLES      0x0800           /* slot n's command table at PM_TABLES + n * PM_TABLE */
#define PM_TABLE       0x100
#define PORT_DMA       (PM_TABLES + SLOTS_MAX * PM_TABLE)

/* Bring-up time limits (spec 10.1.2, 10.6.3). */
#define ENGINE_NS      500000000ull     /* PxCMD.CR / FR clear after ST / FRE clear */
#define READY_NS       1000000000ull    /* BSY and DRQ clear after FRE */
#define IDENTIFY_NS    1000000000ull    /* the IDENTIFY command */
#define BOS_NS         25000000ull      /* the BIOS gives up BOHC.BOS */
#define BIOS_BUSY_NS   2000000000ull    /* ... and finishes its clean-up (BOHC.BB) */

/* What a controller is granted: ABAR, its interrupt, the ports' memory. */
static const struct drv_manifest ahci_manifest = {
	.ids = { { AHCI_VENDOR, AHCI_DEV_ICH9 } },
	.bar[AHCI_ABAR] = { DRV_BAR_MMIO, ABAR_BYTES },
	.irq = DRV_IRQ_ANY,                     /* QEMU's ICH9 model has MSI */
	.dma_bytes = AHCI_DISKS * PORT_DMA,
	.dma32 = true,                          /* command structures low, whatever CAP.S64A says */
	.max_devices = AHCI_MAX,
};

struct ahci_hba;

struct ahci_port {
	struct blkdev blk;
	struct ahci_hba *hba;
	int no;                       /* port number on the HBA */
	uint32_t base;                /* its registers' offset in ABAR */
	uint8_t *mem;                 /* its DMA memory (PORT_DMA bytes) ... */
	uint64_t mem_addr;            /* ... and the address the HBA uses */
	struct drv_lock lock;         /* guards the fields below */
	uint32_t busy;                /* slots in flight */
	struct blk_req *req[SLOTS_MAX];            /* the request in each busy slot */
	struct blk_req *wait_head, *wait_tail;     /* waiting for a slot, linked by req->drv */
	struct drv_timer gate;        /* paced (blk.paced): the command in flight's service time is up */
	int gate_looks;               /* ... times it found the command still running */
};

struct ahci_hba {
	struct drv_dev *dev;
	struct drv_mmio regs;
	struct drv_dma dma;           /* PORT_DMA bytes per disk */
	uint32_t slots;               /* mask of the command slots every port has */
	bool s64;                     /* CAP.S64A: data may lie above 4 GiB */
	int ndisks;
	struct ahci_port disk[AHCI_DISKS];
};

static struct ahci_hba hbas[AHCI_MAX];
static int disks_named;           /* ahci0, ahci1, ... across controllers (attach is serial) */

static uint32_t rd(struct ahci_hba *h, uint32_t off) { return drv_read32(&h->regs, off); }
static void wr(struct ahci_hba *h, uint32_t off, uint32_t v) { drv_write32(&h->regs, off, v); }
static uint32_t prd(struct ahci_port *p, uint32_t off) { return rd(p->hba, p->base + off); }
static void pwr(struct ahci_port *p, uint32_t off, uint32_t v) { wr(p->hba, p->base + off, v); }

/* The first word of the D2H Register FIS the HBA writes when a command ends. */
static volatile uint32_t *d2h_word(struct ahci_port *p)
{
	return (volatile uint32_t *)(p->mem + PM_RFIS + RFIS_D2H);
}

static volatile struct ahci_cmd_header *header(struct ahci_port *p, int slot)
{
	return (volatile struct ahci_cmd_header *)(p->mem + PM_CLIST) + slot;
}

static uint8_t *table(struct ahci_port *p, int slot) { return p->mem + PM_TABLES + slot * PM_TABLE; }

struct reg_wait {
	struct ahci_hba *h;
	uint32_t off, mask, value;
};

static bool reg_matches(void *arg)
{
	struct reg_wait *w = arg;
	return (rd(w->h, w->off) & w->mask) == w->value;
}

/* Poll until register off masked by mask reads value; -ETIMEDOUT after ns. */
static int wait_reg(struct ahci_hba *h, uint32_t off, uint32_t mask, uint32_t value, uint64_t ns)
{
	struct reg_wait w = { h, off, mask, value };
	return drv_spin_until(reg_matches, &w, ns);
}

/* ---- commands ---------------------------------------------------------------- */

/* Fill slot's header and table: ATA command cmd on sectors from lba, data
 * in one region at addr of bytes. */
static void build(struct ahci_port *p, int slot, uint8_t cmd, uint64_t lba, uint16_t sectors,
		  uint64_t addr, uint32_t bytes, bool write)
{
	uint8_t *t = table(p, slot);
	uint8_t *fis = t + CT_CFIS;
	memset(t, 0, CT_PRDT);
	fis[0] = FIS_TYPE_H2D;
	fis[1] = FIS_H2D_CMD;
	fis[2] = cmd;
	fis[4] = (uint8_t)lba;
	fis[5] = (uint8_t)(lba >> 8);
	fis[6] = (uint8_t)(lba >> 16);
	fis[7] = FIS_DEV_LBA;
	fis[8] = (uint8_t)(lba >> 24);
	fis[9] = (uint8_t)(lba >> 32);
	fis[10] = (uint8_t)(lba >> 40);
	fis[12] = (uint8_t)sectors;
	fis[13] = (uint8_t)(sectors >> 8);
	volatile struct ahci_prd *prd0 = (volatile struct ahci_prd *)(t + CT_PRDT);
	prd0->dba = (uint32_t)addr;
	prd0->dbau = (uint32_t)(addr >> 32);
	prd0->reserved = 0;
	prd0->dbc = bytes - 1;
	uint64_t taddr = p->mem_addr + (uint64_t)(t - p->mem);
	volatile struct ahci_cmd_header *h = header(p, slot);
	h->flags = HDR_CFL(FIS_H2D_DWORDS) | HDR_PRDTL(1) | (write ? HDR_WRITE : 0);
	h->prdbc = 0;
	h->ctba = (uint32_t)taddr;
	h->ctbau = (uint32_t)(taddr >> 32);
}

/* Caller holds p->lock; slot is free. */
static void issue(struct ahci_port *p, int slot, struct blk_req *r)
{
	uint64_t lba = r->block * SECTORS_PER_BLOCK;
	build(p, slot, r->write ? ATA_WRITE_DMA_EXT : ATA_READ_DMA_EXT, lba, SECTORS_PER_BLOCK,
	      r->buf_addr, BLK_SIZE, r->write);
	p->req[slot] = r;
	p->busy |= 1u << slot;
	if (p->blk.paced)                              /* gate_open waits for the HBA's D2H FIS */
		*d2h_word(p) = 0;
	drv_barrier();                                 /* the command is in memory before PxCI */
	pwr(p, PX_CI, 1u << slot);
}

/*
 * The cost model's service time of one 4 KiB transfer (blk_service_time):
 * an Intel SSD DC S3700 (SATA), "Latency (average sequential)" 50 µs read,
 * 65 µs write, from its product specification (moderate confidence: a
 * datasheet's typical figure, one request at a time).
 */
#define AHCI_MODEL_READ_NS  50000
#define AHCI_MODEL_WRITE_NS 65000

static uint64_t service_ns(const struct blk_req *r)
{
	return r->write ? AHCI_MODEL_WRITE_NS : AHCI_MODEL_READ_NS;
}

/* Caller holds p->lock.  Start waiting requests in the free slots; a paced
 * port starts one when none is in flight, and the timer of its service time. */
static void issue_waiting(struct ahci_port *p)
{
	uint32_t free = p->hba->slots & ~p->busy;
	if (p->blk.paced && p->busy)
		return;
	while (p->wait_head && free) {
		struct blk_req *r = p->wait_head;
		p->wait_head = r->drv;
		if (!p->wait_head)
			p->wait_tail = NULL;
		r->drv = NULL;
		int slot = __builtin_ctz(free);
		free &= free - 1;
		issue(p, slot, r);
		if (p->blk.paced) {
			drv_timer_start(&p->gate, service_ns(r));
			return;
		}
	}
}

/*
 * A paced port's command has had its service time: let the port's
 * interrupt through (PxIE), which the HBA raised when the command ended
 * (PxIS holds it).  Under the cost model the vCPU is first held until
 * the HBA has written the command's D2H FIS (issue cleared its first
 * byte), on QEMU's main loop, so the look finds it done.  If QEMU has not
 * finished the command yet (its PxCI
 * bit still set, no error), the port stays masked and looks again one
 * service time later: counted, since how many looks it takes depends on
 * the host, and the boot may not repeat from there on.  After
 * BLK_PACE_TRIES looks it lets the interrupt through whenever it comes.
 * (Pacing turned off meanwhile: the interrupt is let through at once.)
 */
static void gate_open(void *arg)
{
	struct ahci_port *p = arg;
	drv_lock(&p->lock);
	if (p->blk.paced && p->busy)               /* the command's end, under the cost model */
		blk_host_wait(d2h_word(p), 0xff, FIS_TYPE_D2H);
	struct blk_req *r = p->busy ? p->req[__builtin_ctz(p->busy)] : NULL;
	bool running = r && (prd(p, PX_CI) & p->busy) && !(prd(p, PX_IS) & PXI_ERRORS);
	if (p->blk.paced && running) {
		p->blk.paced_late++;
		if (++p->gate_looks < BLK_PACE_TRIES) {
			drv_timer_start(&p->gate, service_ns(r));
			drv_unlock(&p->lock);
			return;
		}
	}
	p->gate_looks = 0;
	pwr(p, PX_IE, PXI_DHRS | PXI_ERRORS);
	drv_unlock(&p->lock);
}

static int ahci_submit(struct blkdev *d, struct blk_req *r)
{
	struct ahci_port *p = d->priv;
	if (!p->hba->s64 && r->buf_addr + BLK_SIZE > (1ull << 32))
		return -EIO;                           /* the HBA cannot reach the buffer */
	blk_service_time(r, service_ns(r));
	r->drv = NULL;
	drv_lock(&p->lock);
	if (p->wait_tail)
		p->wait_tail->drv = r;
	else
		p->wait_head = r;
	p->wait_tail = r;
	issue_waiting(p);
	drv_unlock(&p->lock);
	return 0;
}

/* Pacing on (uapi/hako_blk.h, HAKO_BLK_PACE): the port's interrupt held
 * until a command's time is up; off: let through as the HBA raises it. */
static int ahci_set_pace(struct blkdev *d, bool on)
{
	struct ahci_port *p = d->priv;
	drv_lock(&p->lock);
	d->paced = on;
	if (!p->busy)
		pwr(p, PX_IE, on ? 0 : PXI_DHRS | PXI_ERRORS);
	drv_unlock(&p->lock);
	return 0;
}

static const struct blkdev_ops ahci_ops = { .submit = ahci_submit, .set_pace = ahci_set_pace };

/* ---- the interrupt -------------------------------------------------------------- */

/*
 * After an error the HBA stops the list with the failed command's PxCI bit
 * still set (6.2.2.1; QEMU's model does the same): find that slot (CCS, or
 * the only one left), stop the engine, which clears PxCI, clear the errors,
 * restart, and issue the others again.  The failed slot is returned.  The
 * one poll of the I/O path is here, for PxCMD.CR to drop (at once under
 * QEMU; the spec allows 500 ms).  Caller holds p->lock.
 */
static uint32_t port_recover(struct ahci_port *p, uint32_t left)
{
	uint32_t ccs = 1u << PXCMD_CCS(prd(p, PX_CMD));
	uint32_t failed = left & ccs ? ccs : left & -left;
	pwr(p, PX_CMD, prd(p, PX_CMD) & ~PXCMD_ST);
	if (wait_reg(p->hba, p->base + PX_CMD, PXCMD_CR, 0, ENGINE_NS) < 0)
		drv_log(p->hba->dev, "port %d: engine does not stop after an error\n", p->no);
	pwr(p, PX_SERR, ~0u);
	pwr(p, PX_IS, ~0u);
	if (prd(p, PX_TFD) & (TFD_BSY | TFD_DRQ))
		drv_log(p->hba->dev, "port %d: device still busy after an error (PxTFD %08x)\n", p->no,
			prd(p, PX_TFD));
	pwr(p, PX_CMD, prd(p, PX_CMD) | PXCMD_ST);
	if (left & ~failed)
		pwr(p, PX_CI, left & ~failed);
	return failed;
}

/* Acknowledge the port and complete every slot the HBA finished. */
static void port_interrupt(struct ahci_port *p)
{
	struct blk_req *done[SLOTS_MAX];
	int status[SLOTS_MAX], n = 0;

	drv_lock(&p->lock);
	uint32_t is = prd(p, PX_IS);
	pwr(p, PX_IS, is);                             /* before PxCI: a later completion interrupts again */
	uint32_t left = p->busy & prd(p, PX_CI);
	uint32_t failed = 0;
	if ((is & PXI_ERRORS) && left)
		failed = port_recover(p, left);
	uint32_t finished = (p->busy & ~left) | failed;
	for (uint32_t f = finished; f; f &= f - 1) {
		int slot = __builtin_ctz(f);
		bool ok = !(failed & (1u << slot)) && header(p, slot)->prdbc == BLK_SIZE;
		done[n] = p->req[slot];
		status[n++] = ok ? 0 : -EIO;
		p->req[slot] = NULL;
	}
	p->busy &= ~finished;
	if (p->blk.paced && !p->busy)
		pwr(p, PX_IE, 0);                      /* held until the next command's time is up */
	issue_waiting(p);
	drv_unlock(&p->lock);

	for (int i = 0; i < n; i++)
		blk_complete(done[i], status[i]);
}

static void ahci_irq(void *arg)
{
	struct ahci_hba *h = arg;
	uint32_t is = rd(h, HBA_IS);
	for (int i = 0; i < h->ndisks; i++)
		port_interrupt(&h->disk[i]);
	wr(h, HBA_IS, is);                             /* after the ports' PxIS (10.7.2) */
}

/* ---- bring-up --------------------------------------------------------------------- */

/* Ask the BIOS to hand the controller over (10.6.3), if it can. */
static void bios_handoff(struct ahci_hba *h)
{
	if (!(rd(h, HBA_CAP2) & CAP2_BOH))
		return;
	wr(h, HBA_BOHC, rd(h, HBA_BOHC) | BOHC_OOS);
	if (wait_reg(h, HBA_BOHC, BOHC_BOS, 0, BOS_NS) < 0)
		drv_log(h->dev, "BIOS keeps the semaphore; taking the controller\n");
	if (wait_reg(h, HBA_BOHC, BOHC_BB, 0, BIOS_BUSY_NS) < 0)
		drv_log(h->dev, "BIOS still busy after 2 s; taking the controller\n");
}

/* Stop the port's command and FIS engines, in that order (10.1.2). */
static int port_stop(struct ahci_port *p)
{
	uint32_t base = p->base;
	pwr(p, PX_CMD, prd(p, PX_CMD) & ~PXCMD_ST);
	if (wait_reg(p->hba, base + PX_CMD, PXCMD_CR, 0, ENGINE_NS) < 0)
		return -ETIMEDOUT;
	pwr(p, PX_CMD, prd(p, PX_CMD) & ~PXCMD_FRE);
	return wait_reg(p->hba, base + PX_CMD, PXCMD_FR, 0, ENGINE_NS);
}

static bool device_present(struct ahci_port *p)
{
	uint32_t ssts = prd(p, PX_SSTS);
	return SSTS_DET(ssts) == SSTS_DET_PRESENT && SSTS_IPM(ssts) == SSTS_IPM_ACTIVE;
}

/* Give the port its memory, receive FISes, and wait for an ATA disk to be ready. */
static int port_start(struct ahci_port *p)
{
	uint64_t clb = p->mem_addr + PM_CLIST, fb = p->mem_addr + PM_RFIS;
	pwr(p, PX_CLB, (uint32_t)clb);
	pwr(p, PX_CLBU, (uint32_t)(clb >> 32));
	pwr(p, PX_FB, (uint32_t)fb);
	pwr(p, PX_FBU, (uint32_t)(fb >> 32));
	pwr(p, PX_CMD, prd(p, PX_CMD) | PXCMD_FRE);
	if (wait_reg(p->hba, p->base + PX_TFD, TFD_BSY | TFD_DRQ, 0, READY_NS) < 0)
		return -ETIMEDOUT;
	uint32_t sig = prd(p, PX_SIG);
	if (sig != SIG_ATA) {
		drv_log(p->hba->dev, "port %d: signature %08x, not an ATA disk\n", p->no, sig);
		return -ENODEV;
	}
	pwr(p, PX_SERR, ~0u);
	pwr(p, PX_IS, ~0u);
	pwr(p, PX_CMD, prd(p, PX_CMD) | PXCMD_ST);
	return 0;
}

static uint64_t ident_words(const uint16_t *id, int first, int n)
{
	uint64_t v = 0;
	for (int i = n - 1; i >= 0; i--)
		v = v << 16 | id[first + i];
	return v;
}

/* IDENTIFY DEVICE in slot 0, polled; the disk's size in sectors, or 0. */
static uint64_t identify(struct ahci_port *p)
{
	build(p, 0, ATA_IDENTIFY, 0, 0, p->mem_addr + PM_IDENT, ATA_SECTOR, false);
	drv_barrier();
	pwr(p, PX_CI, 1);
	int err = wait_reg(p->hba, p->base + PX_CI, 1, 0, IDENTIFY_NS);
	uint32_t is = prd(p, PX_IS);
	pwr(p, PX_IS, is);
	if (err < 0 || (is & PXI_ERRORS) || (prd(p, PX_TFD) & TFD_ERR)) {
		drv_log(p->hba->dev, "port %d: IDENTIFY failed (PxIS %08x, PxTFD %08x)\n", p->no, is,
			prd(p, PX_TFD));
		return 0;
	}
	const uint16_t *id = (const uint16_t *)(p->mem + PM_IDENT);
	if (!(id[ID_CMDSET2] & ID_CMDSET2_LBA48)) {
		drv_log(p->hba->dev, "port %d: no 48-bit addressing\n", p->no);
		return 0;
	}
	return ident_words(id, ID_SECTORS48, 4);
}

/* Bring up port no as disk p; false if there is no usable disk (the port is stopped). */
static bool port_setup(struct ahci_hba *h, struct ahci_port *p, int no, int index)
{
	*p = (struct ahci_port){ .hba = h, .no = no, .base = HBA_PORTS + no * HBA_PORT_SIZE };
	p->mem = (uint8_t *)h->dma.va + index * PORT_DMA;
	p->mem_addr = h->dma.addr + (uint64_t)index * PORT_DMA;
	uint64_t sectors = 0;
	if (port_stop(p) == 0 && port_start(p) == 0)
		sectors = identify(p);
	if (sectors < SECTORS_PER_BLOCK) {
		port_stop(p);
		return false;
	}
	drv_lock_init(&p->lock, "ahci-port");
	drv_timer_init(&p->gate, gate_open, p);
	p->blk.blocks = sectors / SECTORS_PER_BLOCK;
	p->blk.ops = &ahci_ops;
	p->blk.priv = p;
	p->blk.dev = h->dev;
	return true;
}

/* The implemented ports inside the grant that have a device, as a mask. */
static uint32_t ports_with_device(struct ahci_hba *h)
{
	uint32_t pi = rd(h, HBA_PI), found = 0;
	for (int no = 0; no < HBA_PORTS_MAX; no++) {
		if (!(pi & (1u << no)))
			continue;
		if (HBA_PORTS + (uint32_t)(no + 1) * HBA_PORT_SIZE > h->regs.size) {
			drv_log(h->dev, "port %d lies past the granted registers; ignored\n", no);
			continue;
		}
		struct ahci_port probe = { .hba = h, .no = no, .base = HBA_PORTS + no * HBA_PORT_SIZE };
		if (device_present(&probe))
			found |= 1u << no;
	}
	return found;
}

static void name_disk(struct ahci_port *p)
{
	int n = disks_named++;
	strlcpy(p->blk.name, "ahci", sizeof p->blk.name);
	size_t len = strlen(p->blk.name);
	if (n >= 10)
		p->blk.name[len++] = (char)('0' + n / 10 % 10);
	p->blk.name[len++] = (char)('0' + n % 10);
	p->blk.name[len] = 0;
}

/* Interrupts on for the disks, then the controller's. */
static void interrupts_on(struct ahci_hba *h)
{
	for (int i = 0; i < h->ndisks; i++) {
		struct ahci_port *p = &h->disk[i];
		pwr(p, PX_IS, ~0u);
		pwr(p, PX_IE, PXI_DHRS | PXI_ERRORS);
	}
	wr(h, HBA_IS, ~0u);
	wr(h, HBA_GHC, rd(h, HBA_GHC) | GHC_IE);
}

static void ports_stop(struct ahci_hba *h)
{
	for (int i = 0; i < h->ndisks; i++)
		port_stop(&h->disk[i]);
}

/* The driver core has mapped ABAR and turned bus mastering on; on an error it
 * turns it off and frees the ports' memory. */
static int ahci_attach(struct drv_dev *dev)
{
	struct ahci_hba *h = &hbas[drv_index(dev)];
	*h = (struct ahci_hba){ .dev = dev };
	int err = drv_mmio(dev, AHCI_ABAR, &h->regs);
	if (err < 0)
		return err;
	bios_handoff(h);
	wr(h, HBA_GHC, GHC_AE);                        /* AHCI mode, interrupts off */
	uint32_t cap = rd(h, HBA_CAP);
	h->slots = CAP_NCS(cap) == SLOTS_MAX - 1 ? ~0u : (1u << (CAP_NCS(cap) + 1)) - 1;
	h->s64 = cap & CAP_S64A;

	uint32_t found = ports_with_device(h);
	int candidates = 0;
	for (uint32_t left = found; left && candidates < AHCI_DISKS; left &= left - 1)
		candidates++;
	if (candidates == 0) {
		drv_log(dev, "no disk on %d ports\n", CAP_NP(cap) + 1);
		return -ENODEV;
	}
	err = drv_dma_alloc(dev, (uint64_t)candidates * PORT_DMA, &h->dma);
	if (err < 0)
		return err;
	for (uint32_t left = found; left && h->ndisks < candidates; left &= left - 1)
		if (port_setup(h, &h->disk[h->ndisks], __builtin_ctz(left), h->ndisks))
			h->ndisks++;
	if (h->ndisks == 0) {
		drv_log(dev, "no usable disk\n");
		return -ENODEV;
	}
	err = drv_irq_attach(dev, DRV_IRQ_ANY, AHCI_IRQ_CPU, ahci_irq, h);
	if (err < 0) {
		ports_stop(h);
		return err;
	}
	interrupts_on(h);
	for (int i = 0; i < h->ndisks; i++) {
		struct ahci_port *p = &h->disk[i];
		name_disk(p);
		drv_log(dev, "port %d: %s, %llu sectors of %d bytes\n", p->no, p->blk.name,
			(unsigned long long)(p->blk.blocks * SECTORS_PER_BLOCK), ATA_SECTOR);
		if (blk_register(&p->blk) < 0)
			pwr(p, PX_IE, 0);              /* no room: the disk stays idle */
	}
	return 0;
}

DRIVER(ahci, 41, .class = DRV_CLASS_BLOCK, .manifest = &ahci_manifest,
       .attach = ahci_attach, .process = true);
