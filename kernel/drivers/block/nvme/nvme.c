/*
 * nvme.c — an NVM Express controller (NVMe 1.4; registers in nvme.h) as
 * block device "nvme0": namespace 1, in 4 KiB blocks.  QEMU makes one
 * with `-drive file=IMG,if=none,id=D,format=raw -device
 * nvme,serial=hako0001,drive=D` (1b36:0010); `./hako boot --disk nvme`
 * adds it.
 *
 * Paper 001 asks which CPU issues a device's commands and which takes its
 * interrupt.  NVMe's answer: every CPU does both, for its own requests.
 * Each CPU gets an I/O submission/completion queue pair of its own, and
 * each completion queue an MSI-X vector of its own delivered to that CPU.
 * A request is put on the submitting CPU's queue and its doorbell rung
 * there; the controller posts the completion in that CPU's completion
 * queue and signals that CPU's vector, and the handler completes the
 * request on the CPU that issued it.
 *
 * Locking: one drv_lock per queue pair, taken by submit and by the
 * queue's interrupt handler.  Both run on the queue's own CPU, so the
 * lock only keeps submit and the interrupt on that CPU apart (it turns
 * interrupts off) and is never contended: there is no cross-CPU lock on
 * the I/O path, and each queue's state has cache lines of its own.  (The
 * block layer's per-CPU counters, blkdev.issued/completed, are adjacent
 * words and do share lines.  If the controller grants fewer queues than
 * there are CPUs, CPU c shares queue c % n and the lock is then a real
 * one; QEMU grants 64.)
 *
 * Bring-up (7.6.1): reset (CC.EN = 0, wait for CSTS.RDY = 0), the admin
 * queue pair (AQA/ASQ/ACQ), enable, Identify controller and namespace 1,
 * Set Features Number of Queues, then per CPU an MSI-X vector (entry
 * qid), an I/O CQ using it and an I/O SQ feeding that CQ.  Admin commands
 * are polled during attach; the admin CQ's vector (entry 0) is never
 * attached and stays masked.  A request is one 4 KiB block in one page,
 * so PRP1 alone describes it.
 *
 * Paced completions (uapi/hako_blk.h, HAKO_BLK_PACE): each queue pair
 * has one command in flight, the others wait in its list, and its MSI-X
 * entry stays masked until the command's service time (NVME_MODEL_NS)
 * has passed on the queue's CPU (a timer there); then it is let through
 * and the controller's message, pending since it posted the completion,
 * arrives.  The handler masks it again when the queue is empty.
 *
 * Missing: no timeout for an I/O the controller never completes (QEMU
 * completes all); a CPU with 63 requests in flight refuses the next with
 * -EAGAIN instead of waiting; no shutdown notification; no namespace but 1.
 */
#include <stdint.h>
#include <string.h>
#include <blk_driver.h>
#include <drvenv.h>
#include "nvme.h"

#define NVME_BAR_BYTES   0x4000   /* BAR0: registers, doorbells and QEMU's MSI-X table */
#define NVME_QUEUES_MAX  16       /* I/O queue pairs at most: one per CPU */
#define NVME_ADMIN_DEPTH 16       /* admin queue entries */
#define NVME_IO_DEPTH    64       /* entries per I/O queue: the SQ fills one page */
#define NVME_PAGE        4096
/* DMA pages: admin SQ, admin CQ, Identify data, then an SQ and a CQ per queue pair. */
#define NVME_DMA_PAGES   (3 + 2 * NVME_QUEUES_MAX)
#define NVME_ADMIN_NS    (2000ull * 1000 * 1000)   /* an admin command's time limit */
#define NVME_ADMIN_STEP_US 50     /* an admin command's wait: looked at every 50 µs (admin_wait) */

static const struct drv_manifest nvme_manifest = {
	.ids = { { NVME_VENDOR, NVME_DEVICE } },
	.bar[0] = { DRV_BAR_MMIO, NVME_BAR_BYTES },
	.irq = DRV_IRQ_MSIX,
	.dma_bytes = NVME_DMA_PAGES * NVME_PAGE,
	.max_devices = 1,
};

/* A submission queue and the completion queue it reports to. */
struct nvme_queue {
	struct drv_lock lock;        /* submit vs this queue's interrupt */
	int qid;                     /* 0: admin */
	int cpu;                     /* the CPU whose queue it is; its vector goes there */
	int depth;
	struct nvme_sqe *sq;
	volatile struct nvme_cqe *cq;
	uint64_t sq_addr, cq_addr;   /* where the controller finds them */
	uint32_t sq_db, cq_db;       /* doorbell offsets in BAR0 */
	uint16_t sq_tail, cq_head;
	uint32_t phase;              /* the phase tag a new completion carries */
	int inflight;
	struct blk_req *slot[NVME_IO_DEPTH];   /* by command id */
	struct blk_req *wait_head, *wait_tail; /* paced: waiting for the one in flight, by req->drv */
	struct drv_timer gate;       /* paced: the command in flight's service time is up */
	int gate_looks;              /* ... times it found the command still running */
	struct nvme *ctrl;
} __attribute__((aligned(64)));     /* no cache line shared with another CPU's queue */

static struct nvme {
	struct blkdev blk;
	struct drv_dev *dev;
	struct drv_mmio regs;
	struct drv_dma mem;
	uint64_t cap;
	uint32_t db_stride;
	uint32_t lba_shift;          /* log2 of the namespace's block (LBA) size */
	int nqueues;                 /* I/O queue pairs made */
	struct nvme_queue admin;
	struct nvme_queue io[NVME_QUEUES_MAX];
} nvme;

/* ---- registers and queues ------------------------------------------------ */

static uint64_t read64(const struct drv_mmio *m, uint32_t off)
{
	return drv_read32(m, off) | (uint64_t)drv_read32(m, off + 4) << 32;
}

static void write64(const struct drv_mmio *m, uint32_t off, uint64_t v)
{
	drv_write32(m, off, (uint32_t)v);
	drv_write32(m, off + 4, (uint32_t)(v >> 32));
}

static void *dma_page(struct nvme *n, int page, uint64_t *addr)
{
	*addr = n->mem.addr + (uint64_t)page * NVME_PAGE;
	return (uint8_t *)n->mem.va + (uint64_t)page * NVME_PAGE;
}

/* Queue pair qid in DMA pages sq_page (SQ) and sq_page + 1 (CQ). */
static void queue_init(struct nvme *n, struct nvme_queue *q, int qid, int depth, int sq_page)
{
	q->ctrl = n;
	q->qid = qid;
	q->depth = depth;
	q->sq = dma_page(n, sq_page, &q->sq_addr);
	q->cq = dma_page(n, sq_page + 1, &q->cq_addr);
	q->sq_db = NVME_REG_DBS + (uint32_t)(2 * qid) * n->db_stride;
	q->cq_db = NVME_REG_DBS + (uint32_t)(2 * qid + 1) * n->db_stride;
	q->phase = 1;                /* the queue is zeroed: phase 0 means empty */
	drv_lock_init(&q->lock, "nvme-queue");
}

/* Put cmd at the tail with command id cid and ring the doorbell.
 * Caller holds q->lock (or is alone: attach), and the SQ has room. */
static void sq_push(struct nvme *n, struct nvme_queue *q, struct nvme_sqe *cmd, uint16_t cid)
{
	cmd->cdw0 |= (uint32_t)cid << 16;
	q->sq[q->sq_tail] = *cmd;
	q->sq_tail = (uint16_t)((q->sq_tail + 1) % q->depth);
	drv_barrier();               /* the entry is in memory before the doorbell */
	drv_write32(&n->regs, q->sq_db, q->sq_tail);
}

/* The next completion if the controller has posted one, else NULL.  The
 * phase tag is read first: the rest of the entry is valid once it flips. */
static volatile struct nvme_cqe *cq_peek(struct nvme_queue *q)
{
	volatile struct nvme_cqe *e = &q->cq[q->cq_head];
	if (NVME_CQE_PHASE(e->dw3) != q->phase)
		return NULL;
	drv_barrier();
	return e;
}

static void cq_pop(struct nvme_queue *q)
{
	if (++q->cq_head == q->depth) {
		q->cq_head = 0;
		q->phase ^= 1;
	}
}

/* ---- admin commands (attach only, polled) ----------------------------------- */

/*
 * Wait for the admin queue's next completion: busy-wait a step, then look,
 * until it is there; -ETIMEDOUT after NVME_ADMIN_NS.  QEMU runs a command
 * in its main loop, on a host thread, when the doorbell's write has
 * scheduled it; a poll that looked at once and again and again would
 * spin a number of turns that varies from boot to boot and under icount
 * shift every later instruction of the boot.  A step long enough for QEMU
 * to have finished makes the wait the same every boot; under the cost
 * model the vCPU is held until it has (blk_host_wait), whatever the host's load.
 */
static int admin_wait(struct nvme_queue *q)
{
	for (uint64_t waited = 0;;) {
		drv_delay_us(NVME_ADMIN_STEP_US);
		waited += NVME_ADMIN_STEP_US * 1000ull;
		blk_host_wait(&q->cq[q->cq_head].dw3, 1u << 16, (uint32_t)q->phase << 16);
		if (cq_peek(q))
			return 0;
		if (waited >= NVME_ADMIN_NS)
			return -ETIMEDOUT;
	}
}

/* One admin command, waited for; 0, -EIO (its status), -ETIMEDOUT. */
static int admin_cmd(struct nvme *n, struct nvme_sqe *cmd, uint32_t *result)
{
	struct nvme_queue *q = &n->admin;
	uint16_t cid = q->sq_tail;   /* one command at a time: any id not in use */
	sq_push(n, q, cmd, cid);
	if (admin_wait(q) < 0) {
		drv_log(n->dev, "admin command 0x%x timed out\n", cmd->cdw0 & 0xff);
		return -ETIMEDOUT;
	}
	volatile struct nvme_cqe *e = cq_peek(q);
	uint32_t dw3 = e->dw3, dw0 = e->dw0;
	cq_pop(q);
	drv_write32(&n->regs, q->cq_db, q->cq_head);
	if (NVME_CQE_STATUS(dw3) || NVME_CQE_CID(dw3) != cid) {
		drv_log(n->dev, "admin command 0x%x: status 0x%x\n", cmd->cdw0 & 0xff,
			NVME_CQE_STATUS(dw3));
		return -EIO;
	}
	if (result)
		*result = dw0;
	return 0;
}

static int identify(struct nvme *n, uint32_t cns, uint32_t nsid, uint64_t buf)
{
	struct nvme_sqe cmd = { .cdw0 = NVME_ADMIN_IDENTIFY, .nsid = nsid, .prp1 = buf,
				.cdw10 = cns };
	return admin_cmd(n, &cmd, NULL);
}

static int create_queue_pair(struct nvme *n, struct nvme_queue *q)
{
	struct nvme_sqe cq_cmd = {
		.cdw0 = NVME_ADMIN_CREATE_CQ, .prp1 = q->cq_addr,
		.cdw10 = NVME_QSIZE_QID(q->depth, q->qid),
		.cdw11 = (uint32_t)q->qid << 16 | NVME_CQ_IEN | NVME_Q_PC,   /* vector = MSI-X entry qid */
	};
	struct nvme_sqe sq_cmd = {
		.cdw0 = NVME_ADMIN_CREATE_SQ, .prp1 = q->sq_addr,
		.cdw10 = NVME_QSIZE_QID(q->depth, q->qid),
		.cdw11 = (uint32_t)q->qid << 16 | NVME_Q_PC,                 /* reports to CQ qid */
	};
	int err = admin_cmd(n, &cq_cmd, NULL);
	return err ? err : admin_cmd(n, &sq_cmd, NULL);
}

/* ---- I/O -------------------------------------------------------------------- */

/*
 * The cost model's service time of one 4 KiB transfer (blk_service_time):
 * an Intel SSD DC P3700 (NVMe), "Latency" 20 µs read and write, from its
 * product brief (moderate confidence: a datasheet's typical figure; the
 * model serves one request at a time, the device several).
 */
#define NVME_MODEL_NS 20000

/* Put r in a free command slot of q and ring the doorbell; -EAGAIN if
 * none is free.  Caller holds q->lock.  A paced queue starts the timer of
 * r's service time. */
static int issue(struct nvme *n, struct nvme_queue *q, struct blk_req *r)
{
	uint32_t lbas = BLK_SIZE >> n->lba_shift;
	uint64_t lba = r->block * lbas;
	struct nvme_sqe cmd = {
		.cdw0 = r->write ? NVME_CMD_WRITE : NVME_CMD_READ,
		.nsid = 1,
		.prp1 = r->buf_addr,
		.cdw10 = (uint32_t)lba,
		.cdw11 = (uint32_t)(lba >> 32),
		.cdw12 = lbas - 1,
	};
	int cid = -1;
	if (q->inflight < q->depth - 1)        /* then the SQ has room too */
		for (cid = 0; q->slot[cid]; cid++)
			;
	if (cid < 0)
		return -EAGAIN;
	q->slot[cid] = r;
	q->inflight++;
	sq_push(n, q, &cmd, (uint16_t)cid);
	if (n->blk.paced)
		drv_timer_start(&q->gate, NVME_MODEL_NS);
	return 0;
}

/* Caller holds q->lock.  Issue the waiting requests: one if the queue is
 * paced and empty, none if it is paced and busy, all if it is not paced
 * (pacing turned off with requests waiting). */
static void issue_waiting(struct nvme *n, struct nvme_queue *q)
{
	while (q->wait_head && !(n->blk.paced && q->inflight)) {
		struct blk_req *r = q->wait_head;
		q->wait_head = r->drv;
		if (!q->wait_head)
			q->wait_tail = NULL;
		r->drv = NULL;
		if (issue(n, q, r) < 0)
			blk_complete(r, -EIO);     /* unpaced: 63 in flight already */
	}
}

/*
 * A paced queue's command has had its service time, on the queue's CPU:
 * let the queue's MSI-X entry through.  Under the cost model the vCPU is
 * first held until QEMU's main loop has posted the completion entry (its
 * phase bit flipped), so the look finds it.  If QEMU has not posted the
 * completion yet, the entry stays masked and the queue looks again one
 * service time later: counted, since how many looks it takes depends on
 * the host, and the boot may not repeat from there on.  After
 * BLK_PACE_TRIES looks it lets the message through whenever it comes.
 * (Pacing turned off meanwhile: the entry is let through at once.)
 */
static void gate_open(void *arg)
{
	struct nvme_queue *q = arg;
	struct nvme *n = q->ctrl;
	drv_lock(&q->lock);
	if (n->blk.paced && q->inflight)           /* its completion entry, under the cost model */
		blk_host_wait(&q->cq[q->cq_head].dw3, 1u << 16, (uint32_t)q->phase << 16);
	if (n->blk.paced && q->inflight && !cq_peek(q)) {
		n->blk.paced_late++;
		if (++q->gate_looks < BLK_PACE_TRIES) {
			drv_timer_start(&q->gate, NVME_MODEL_NS);
			drv_unlock(&q->lock);
			return;
		}
	}
	q->gate_looks = 0;
	drv_irq_vector_mask(n->dev, q->qid, false);
	drv_unlock(&q->lock);
}

/*
 * A queue's interrupt, on its CPU: take every completion the controller
 * has posted, complete its request, then tell the controller how far the
 * head has moved (one doorbell write for the lot).
 */
static void nvme_irq(void *arg)
{
	struct nvme_queue *q = arg;
	struct nvme *n = q->ctrl;
	bool moved = false;
	drv_lock(&q->lock);
	for (volatile struct nvme_cqe *e; (e = cq_peek(q)) != NULL; moved = true) {
		uint32_t dw3 = e->dw3;
		uint16_t cid = NVME_CQE_CID(dw3);
		cq_pop(q);
		struct blk_req *r = cid < NVME_IO_DEPTH ? q->slot[cid] : NULL;
		if (!r) {
			drv_log(n->dev, "queue %d: completion for idle command %u\n", q->qid, cid);
			continue;
		}
		q->slot[cid] = NULL;
		q->inflight--;
		blk_complete(r, NVME_CQE_STATUS(dw3) ? -EIO : 0);
	}
	if (moved)
		drv_write32(&n->regs, q->cq_db, q->cq_head);
	if (n->blk.paced && q->inflight == 0)
		drv_irq_vector_mask(n->dev, q->qid, true);   /* held until the next one's time is up */
	issue_waiting(n, q);
	drv_unlock(&q->lock);
}

/* The queue of the CPU we run on, locked.  Its lock turns interrupts off,
 * so once it is held the thread stays on this CPU; taken before that, it
 * may have moved, and then it tries its new CPU's queue. */
static struct nvme_queue *my_queue_locked(struct nvme *n)
{
	for (;;) {
		struct nvme_queue *q = &n->io[drv_cpu() % n->nqueues];
		drv_lock(&q->lock);
		if (q == &n->io[drv_cpu() % n->nqueues])
			return q;
		drv_unlock(&q->lock);
	}
}

static int nvme_submit(struct blkdev *d, struct blk_req *r)
{
	struct nvme *n = d->priv;
	struct nvme_queue *q = my_queue_locked(n);
	bool wait = n->blk.paced && (q->inflight || q->wait_head);
	if (!wait && q->inflight >= q->depth - 1) {  /* the SQ is full */
		drv_unlock(&q->lock);
		return -EAGAIN;
	}
	blk_service_time(r, NVME_MODEL_NS);
	if (wait) {
		r->drv = NULL;                 /* after the one in flight */
		if (q->wait_tail)
			q->wait_tail->drv = r;
		else
			q->wait_head = r;
		q->wait_tail = r;
	} else {
		issue(n, q, r);                /* room checked above */
	}
	drv_unlock(&q->lock);
	return 0;
}

/* Pacing on (uapi/hako_blk.h, HAKO_BLK_PACE): each queue's MSI-X entry
 * held until its command's time is up; off: let through. */
static int nvme_set_pace(struct blkdev *d, bool on)
{
	struct nvme *n = d->priv;
	for (int i = 0; i < n->nqueues; i++) {
		struct nvme_queue *q = &n->io[i];
		drv_lock(&q->lock);
		if (i == 0)
			d->paced = on;         /* under a queue's lock: submit reads it under one */
		if (!on || q->inflight == 0)
			drv_irq_vector_mask(n->dev, q->qid, on);
		drv_unlock(&q->lock);
	}
	return 0;
}

static const struct blkdev_ops nvme_ops = { .submit = nvme_submit, .set_pace = nvme_set_pace };

/* ---- bring-up ----------------------------------------------------------------- */

struct ready_wait { struct nvme *n; uint32_t want; };

static bool ready_is(void *arg)
{
	struct ready_wait *w = arg;
	return (drv_read32(&w->n->regs, NVME_REG_CSTS) & NVME_CSTS_RDY) == w->want;
}

/* CC.EN to en, then wait until CSTS.RDY follows (CAP.TO bounds it). */
static int set_enabled(struct nvme *n, uint32_t cc)
{
	struct ready_wait w = { n, cc & NVME_CC_EN };
	drv_write32(&n->regs, NVME_REG_CC, cc);
	uint64_t limit = (NVME_CAP_TO(n->cap) + 1) * 500ull * 1000 * 1000;
	if (drv_spin_until(ready_is, &w, limit) < 0) {
		drv_log(n->dev, "CSTS.RDY did not become %u (CSTS 0x%x)\n", w.want,
			drv_read32(&n->regs, NVME_REG_CSTS));
		return -ETIMEDOUT;
	}
	return 0;
}

/* Reset, then the admin queue pair, then enable. */
static int start_controller(struct nvme *n)
{
	n->cap = read64(&n->regs, NVME_REG_CAP);
	if (!(n->cap & NVME_CAP_CSS_NVM) || NVME_CAP_MPSMIN(n->cap) != 0 ||
	    NVME_CAP_MQES(n->cap) + 1 < NVME_IO_DEPTH) {
		drv_log(n->dev, "unusable capabilities 0x%lx\n", (unsigned long)n->cap);
		return -ENODEV;
	}
	n->db_stride = 4u << NVME_CAP_DSTRD(n->cap);
	int err = set_enabled(n, 0);
	if (err)
		return err;
	drv_write32(&n->regs, NVME_REG_INTMS, ~0u);   /* no pin interrupt while polling */
	queue_init(n, &n->admin, 0, NVME_ADMIN_DEPTH, 0);
	drv_write32(&n->regs, NVME_REG_AQA, NVME_AQA(NVME_ADMIN_DEPTH, NVME_ADMIN_DEPTH));
	write64(&n->regs, NVME_REG_ASQ, n->admin.sq_addr);
	write64(&n->regs, NVME_REG_ACQ, n->admin.cq_addr);
	return set_enabled(n, NVME_CC_EN | NVME_CC_CSS_NVM | NVME_CC_MPS_4K | NVME_CC_AMS_RR |
			   NVME_CC_IOSQES | NVME_CC_IOCQES);
}

static uint32_t le32_at(const uint8_t *p) { return p[0] | p[1] << 8 | p[2] << 16 | (uint32_t)p[3] << 24; }

/* Controller and namespace 1: the block size and how many 4 KiB blocks. */
static int identify_namespace(struct nvme *n)
{
	uint64_t buf;
	uint8_t *id = dma_page(n, 2, &buf);
	int err = identify(n, NVME_CNS_CONTROLLER, 0, buf);
	if (err)
		return err;
	char model[41], serial[21];
	memcpy(model, id + NVME_IDC_MN, 40);
	memcpy(serial, id + NVME_IDC_SN, 20);
	model[40] = serial[20] = 0;
	for (int i = 39; i >= 0 && model[i] == ' '; i--)
		model[i] = 0;
	for (int i = 19; i >= 0 && serial[i] == ' '; i--)
		serial[i] = 0;
	uint32_t namespaces = le32_at(id + NVME_IDC_NN);
	if (namespaces < 1)
		return -ENODEV;
	err = identify(n, NVME_CNS_NAMESPACE, 1, buf);
	if (err)
		return err;
	uint64_t lbas = le32_at(id + NVME_IDN_NSZE) | (uint64_t)le32_at(id + NVME_IDN_NSZE + 4) << 32;
	uint32_t format = le32_at(id + NVME_IDN_LBAF + 4 * (id[NVME_IDN_FLBAS] & 0xf));
	n->lba_shift = NVME_LBAF_LBADS(format);
	if (n->lba_shift < 9 || n->lba_shift > 12) {
		drv_log(n->dev, "namespace 1: blocks of 2^%u bytes\n", n->lba_shift);
		return -ENODEV;
	}
	n->blk.blocks = (lbas << n->lba_shift) / BLK_SIZE;
	drv_log(n->dev, "%s, serial %s (%u namespaces at most): namespace 1 has %lu blocks of %u bytes\n",
		model, serial, namespaces, (unsigned long)lbas, 1u << n->lba_shift);
	return 0;
}

/* As many I/O queue pairs as CPUs, as far as the controller and its MSI-X
 * table (entry 0 is the admin queue's) allow. */
static int set_queue_count(struct nvme *n)
{
	int want = drv_ncpus() < NVME_QUEUES_MAX ? drv_ncpus() : NVME_QUEUES_MAX;
	uint32_t granted;
	struct nvme_sqe cmd = { .cdw0 = NVME_ADMIN_SET_FEATURES, .cdw10 = NVME_FEAT_NUM_QUEUES,
				.cdw11 = (uint32_t)(want - 1) << 16 | (uint32_t)(want - 1) };
	int err = admin_cmd(n, &cmd, &granted);
	if (err)
		return err;
	int sqs = (int)(granted & 0xffff) + 1, cqs = (int)(granted >> 16) + 1;
	n->nqueues = want < sqs ? want : sqs;
	n->nqueues = n->nqueues < cqs ? n->nqueues : cqs;
	return 0;
}

/* I/O queue pair i (qid i + 1) for CPU i: its MSI-X entry (qid) goes to
 * that CPU, then the CQ, then the SQ. */
static int make_io_queues(struct nvme *n)
{
	for (int i = 0; i < n->nqueues; i++) {
		struct nvme_queue *q = &n->io[i];
		queue_init(n, q, i + 1, NVME_IO_DEPTH, 3 + 2 * i);
		q->cpu = i;
		drv_timer_init(&q->gate, gate_open, q);
		int err = drv_irq_attach_vector(n->dev, q->qid, q->cpu, nvme_irq, q);
		if (err == 0)
			err = create_queue_pair(n, q);
		if (err) {
			drv_log(n->dev, "queue %d: error %d\n", q->qid, err);
			return err;
		}
	}
	return 0;
}

static int nvme_attach(struct drv_dev *dev)
{
	struct nvme *n = &nvme;
	n->dev = dev;
	int err = drv_mmio(dev, 0, &n->regs);
	if (err == 0)
		err = drv_dma_alloc(dev, NVME_DMA_PAGES * NVME_PAGE, &n->mem);
	if (err == 0)
		err = start_controller(n);
	if (err == 0)
		err = identify_namespace(n);
	if (err == 0)
		err = set_queue_count(n);
	if (err == 0)
		err = make_io_queues(n);
	if (err < 0)
		return err;
	drv_log(dev, "%d I/O queue pairs, one per CPU, each with its own MSI-X vector\n",
		n->nqueues);
	strlcpy(n->blk.name, "nvme0", sizeof n->blk.name);
	n->blk.ops = &nvme_ops;
	n->blk.priv = n;
	n->blk.dev = dev;
	return blk_register(&n->blk);
}

DRIVER(nvme, 42, .class = DRV_CLASS_BLOCK, .manifest = &nvme_manifest, .attach = nvme_attach);
