/*
 * testdev.c — paper 001's "testdev": a block device that answers every
 * command after a fixed delay (17 ms by default, HAKO_BLK_DELAY sets it),
 * through a real device interrupt, so it takes the same path as a disk
 * without a disk's variance.
 *
 * The hardware is QEMU's second `edu` device (the harness adds two; the
 * first is the self-tests' interrupt source, kernel/drivers/misc/edu/edu.c).
 * The device serves one command at a time, in order: submit queues the
 * request and, if the device is idle, starts a one-shot timer for the
 * delay; when it fires the data moves (to or from the device's store, a
 * region of DMA memory of TESTDEV_BLOCKS blocks), the request joins the
 * finished list and the timer raises the edu's interrupt (EDU_IRQ_RAISE),
 * then starts the next command.  The interrupt, delivered by MSI or INTx
 * to whichever CPU it is routed to (paper 001's question), acknowledges
 * the edu and completes the finished requests there.  So a burst of k
 * requests takes k delays: the device saturates, as the paper's did.
 * Under the cost model (tools/costmodel/vclock.h) submit marks each
 * request with the delay, so the model's clocks see the same service
 * time: the device clock serves requests in turn, one delay each.
 */
#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#include <blk_driver.h>
#include <drvenv.h>
#include <edu.h>

#define TESTDEV_BLOCKS   64             /* the store: 256 KiB */
#define TESTDEV_DELAY_US 17000          /* the paper's ≈17 ms */
#define TESTDEV_QUEUE    64             /* commands waiting or finished, each */
#define TESTDEV_BIT      0x1            /* the edu status bit it raises */

/* edu registers (docs/specs/edu.rst in QEMU): offsets into BAR0. */
#define EDU_IRQ_STATUS 0x24             /* interrupt status: bits raised, not acknowledged */
#define EDU_IRQ_RAISE  0x60             /* raise: bits ORed into the status, interrupt asserted */
#define EDU_IRQ_ACK    0x64             /* acknowledge: bits cleared; INTx drops when none left */
#define EDU_REGS_BYTES 0x1000           /* the registers the driver needs: BAR0's first page */

static const struct drv_manifest testdev_manifest = {
	.ids = { { EDU_VENDOR, EDU_DEVICE } },
	.bar[0] = { DRV_BAR_MMIO, EDU_REGS_BYTES },
	.irq = DRV_IRQ_ANY,
	.dma_bytes = TESTDEV_BLOCKS * BLK_SIZE,
	.max_devices = 1,
};

/* A ring of request pointers. */
struct ring {
	struct blk_req *slot[TESTDEV_QUEUE];
	uint32_t head, tail;
};

static bool ring_put(struct ring *q, struct blk_req *r)
{
	if (q->head - q->tail == TESTDEV_QUEUE)
		return false;
	q->slot[q->head++ % TESTDEV_QUEUE] = r;
	return true;
}

static struct blk_req *ring_take(struct ring *q)
{
	return q->head == q->tail ? NULL : q->slot[q->tail++ % TESTDEV_QUEUE];
}

static struct testdev {
	struct blkdev blk;
	struct drv_dev *dev;
	struct drv_mmio regs;
	struct drv_dma store;
	struct drv_timer timer;
	struct drv_lock lock;        /* the rings and busy; taken in submit, timer and interrupt */
	struct ring waiting, finished;
	bool busy;                   /* the timer runs for waiting's first request */
} td;

/* The device does the command at the head of the queue: the data moves. */
static void serve(struct testdev *t, struct blk_req *r)
{
	uint8_t *block = (uint8_t *)t->store.va + r->block * BLK_SIZE;
	if (r->write)
		memcpy(block, r->buf, BLK_SIZE);
	else
		memcpy(r->buf, block, BLK_SIZE);
}

/* The delay is over: finish the head command, interrupt, start the next. */
static void testdev_timer(void *arg)
{
	struct testdev *t = arg;
	drv_lock(&t->lock);
	struct blk_req *r = ring_take(&t->waiting);
	if (r) {
		serve(t, r);
		ring_put(&t->finished, r);       /* room: finished holds at most what waited */
	}
	t->busy = t->waiting.head != t->waiting.tail;
	if (t->busy)
		drv_timer_start(&t->timer, t->blk.delay_us * 1000);
	drv_unlock(&t->lock);
	if (r)
		drv_write32(&t->regs, EDU_IRQ_RAISE, TESTDEV_BIT);
}

/* On the CPU the interrupt was routed to: acknowledge, complete what finished. */
static void testdev_interrupt(void *arg)
{
	struct testdev *t = arg;
	uint32_t status = drv_read32(&t->regs, EDU_IRQ_STATUS);
	drv_write32(&t->regs, EDU_IRQ_ACK, status);
	for (;;) {
		drv_lock(&t->lock);
		struct blk_req *r = ring_take(&t->finished);
		drv_unlock(&t->lock);
		if (!r)
			break;
		blk_complete(r, 0);
	}
}

static int testdev_submit(struct blkdev *d, struct blk_req *r)
{
	struct testdev *t = d->priv;
	drv_lock(&t->lock);
	if (!ring_put(&t->waiting, r)) {
		drv_unlock(&t->lock);
		return -EBUSY;
	}
	blk_service_time(r, d->delay_us * 1000);
	if (!t->busy) {
		t->busy = true;
		drv_timer_start(&t->timer, d->delay_us * 1000);
	}
	drv_unlock(&t->lock);
	return 0;
}

static int testdev_set_delay(struct blkdev *d, uint64_t us)
{
	__atomic_store_n(&d->delay_us, us, __ATOMIC_RELAXED);   /* from the next command on */
	return 0;
}

static const struct blkdev_ops testdev_ops = { .submit = testdev_submit, .set_delay = testdev_set_delay };

static int testdev_attach(struct drv_dev *dev)
{
	struct testdev *t = &td;
	int err = drv_mmio(dev, 0, &t->regs);
	if (err == 0)
		err = drv_dma_alloc(dev, TESTDEV_BLOCKS * BLK_SIZE, &t->store);
	if (err == 0)
		err = drv_irq_attach(dev, DRV_IRQ_ANY, 0, testdev_interrupt, t);
	if (err < 0)
		return err;
	t->dev = dev;
	drv_lock_init(&t->lock, "testdev");
	drv_timer_init(&t->timer, testdev_timer, t);
	strlcpy(t->blk.name, "testdev0", sizeof t->blk.name);
	t->blk.blocks = TESTDEV_BLOCKS;
	t->blk.delay_us = TESTDEV_DELAY_US;
	t->blk.ops = &testdev_ops;
	t->blk.priv = t;
	t->blk.dev = dev;
	return blk_register(&t->blk);
}

DRIVER(testdev, 45, .class = DRV_CLASS_BLOCK, .manifest = &testdev_manifest, .attach = testdev_attach);
