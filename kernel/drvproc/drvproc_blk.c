/*
 * drvproc_blk.c — the kernel's struct blkdev for a block device whose
 * driver runs as a process (paper 003): a proxy registered like any block
 * device (blk.c), so blk_read/blk_write, iotest and the self-tests work
 * with either placement.
 *
 *   submit   blk_io's request cannot wait here (submit must not sleep, and
 *            a funnelled device submits with interrupts off): it goes into
 *            a bounded queue (DRVPROC_BLKQ requests) and the process is
 *            told (EV_BLK); -EAGAIN when the queue is full, -EIO while no
 *            driver process serves the device.
 *   take     the process takes the oldest waiting request (HAKO_DRV_BLK_TAKE)
 *            into one of DRVPROC_BLK_SLOTS slots: in flight from then on.
 *   data     HAKO_DRV_BLK_DATA copies the request's block between the
 *            kernel's buffer and the process's (its own DMA memory, which
 *            its driver hands the device or copies to and from): before a
 *            write is started, after a read has finished.
 *   done     HAKO_DRV_BLK_DONE completes it (blk_complete) with the
 *            driver's status.
 * The process's buffers are DMA memory beyond the manifest's amount
 * (DRVPROC_BLK_BOUNCE bytes, drvproc_grant.c), so a driver that hands the
 * device the request's address and one that copies the block both work
 * unchanged.  A device interrupt (drv_irq_attach in the process) is
 * forwarded as EV_IRQ; an INTx line stays masked until HAKO_DRV_IRQ_DONE.
 *
 * When the driver process ends (drvproc_proc_end, after drvproc_revoke
 * stopped the device) every request waiting or in flight fails with -EIO:
 * a block request is not killable, so none may be left waiting.  The
 * restarted driver registers the same device again.
 *
 * Locking: c->wq.lock guards the queue and the slots.  A request is
 * completed with no lock held (blk_complete takes the request's own wait
 * queue lock, of the same rank).
 */
#include <stdint.h>
#include <string.h>
#include <blk.h>
#include <drvproc.h>
#include <errno.h>
#include <heap.h>
#include <kprintf.h>
#include <uaccess.h>

struct drvproc_blk {
	struct blkdev blk;                        /* registered in blk.c */
	struct drvproc *c;
	struct blk_req *queue[DRVPROC_BLKQ];      /* waiting, oldest at q_tail */
	uint32_t q_head, q_tail;                  /* free running */
	struct blk_req *slot[DRVPROC_BLK_SLOTS];  /* in flight: taken by the process */
};

static int proxy_submit(struct blkdev *d, struct blk_req *r)
{
	struct drvproc_blk *b = d->priv;
	struct drvproc *c = b->c;
	int err = 0;
	spin_lock(&c->wq.lock);
	if (c->dead)
		err = -EIO;
	else if (b->q_head - b->q_tail == DRVPROC_BLKQ)
		err = -EAGAIN;
	if (err == 0) {
		b->queue[b->q_head++ % DRVPROC_BLKQ] = r;
		c->events |= HAKO_DRVPROC_EV_BLK;
		waitq_wake_one(&c->wq);
	}
	spin_unlock(&c->wq.lock);
	return err;
}

static const struct blkdev_ops proxy_ops = { .submit = proxy_submit };

int drvproc_blk_register(struct drvproc *c, const struct hako_drvproc_reg *reg)
{
	if (reg->blocks == 0 || !memchr(reg->name, 0, sizeof reg->name) || !reg->name[0])
		return -EINVAL;
	struct drvproc_blk *b = c->blk;
	if (b) {                                  /* a restarted driver: the same device again */
		if (strcmp(b->blk.name, reg->name) != 0 || b->blk.blocks != reg->blocks)
			return -EIO;
		b->blk.driver_pid = c->pid;
		return 0;
	}
	b = kzalloc(sizeof *b);
	if (!b)
		return -ENOMEM;
	b->c = c;
	strlcpy(b->blk.name, reg->name, sizeof b->blk.name);
	b->blk.blocks = reg->blocks;
	b->blk.ops = &proxy_ops;
	b->blk.priv = b;
	b->blk.in_process = true;
	b->blk.driver_pid = c->pid;
	int err = blk_register(&b->blk);          /* blk.dev NULL: no interrupt for mpio to move */
	if (err < 0) {
		kfree(b);
		return err;
	}
	c->blk = b;
	return 0;
}

int drvproc_blk_index(const struct drvproc *c) { return c->blk ? c->blk->blk.index : -1; }

int drvproc_blk_take(struct drvproc *c, struct hako_drv_blkreq *out)
{
	struct drvproc_blk *b = c->blk;
	if (!b || c->dead)
		return -EINVAL;
	int err = -EAGAIN;
	spin_lock(&c->wq.lock);
	for (int i = 0; i < DRVPROC_BLK_SLOTS && b->q_tail != b->q_head; i++) {
		if (b->slot[i])
			continue;
		struct blk_req *r = b->queue[b->q_tail++ % DRVPROC_BLKQ];
		b->slot[i] = r;
		*out = (struct hako_drv_blkreq){ .slot = i, .write = r->write, .block = r->block };
		err = 0;
		break;
	}
	if (err < 0 || b->q_tail == b->q_head)    /* none waits, or every slot is busy: */
		c->events &= ~HAKO_DRVPROC_EV_BLK;    /* told again by submit, or at a done */
	c->progress++;
	spin_unlock(&c->wq.lock);
	return err;
}

/* The request in flight in slot, or NULL.  Caller holds c->wq.lock. */
static struct blk_req *in_flight(struct drvproc *c, int slot)
{
	struct drvproc_blk *b = c->blk;
	return b && slot >= 0 && slot < DRVPROC_BLK_SLOTS ? b->slot[slot] : NULL;
}

/*
 * The copy runs without the lock: only the process's one thread takes,
 * copies and completes, so the slot cannot change meanwhile, and the
 * request stays (its issuer waits until it is completed).
 */
int drvproc_blk_data(struct drvproc *c, int slot, bool to_kernel, uint64_t uva)
{
	spin_lock(&c->wq.lock);
	struct blk_req *r = c->dead ? NULL : in_flight(c, slot);
	spin_unlock(&c->wq.lock);
	if (!r || to_kernel == r->write)          /* data goes in for a write, out after a read */
		return -EINVAL;
	if (!user_range_ok(uva, BLK_SIZE))
		return -EFAULT;
	long err = to_kernel ? copy_from_user(r->buf, uva, BLK_SIZE) : copy_to_user(uva, r->buf, BLK_SIZE);
	return err < 0 ? -EFAULT : 0;
}

int drvproc_blk_done(struct drvproc *c, int slot, int status)
{
	if (status > 0 || status < -4095)
		return -EINVAL;
	spin_lock(&c->wq.lock);
	struct blk_req *r = c->dead ? NULL : in_flight(c, slot);
	if (r) {
		c->blk->slot[slot] = NULL;
		c->progress++;
		if (c->blk->q_head != c->blk->q_tail)
			c->events |= HAKO_DRVPROC_EV_BLK;   /* a slot for the next */
	}
	spin_unlock(&c->wq.lock);
	if (!r)
		return -EINVAL;
	blk_complete(r, status);
	return 0;
}

/* drvproc_proc_end, holding nothing, the device stopped: fail every request. */
void drvproc_blk_dead(struct drvproc *c)
{
	struct drvproc_blk *b = c->blk;
	if (!b)
		return;
	struct blk_req *failed[DRVPROC_BLKQ + DRVPROC_BLK_SLOTS];
	int n = 0;
	spin_lock(&c->wq.lock);
	for (int i = 0; i < DRVPROC_BLK_SLOTS; i++)
		if (b->slot[i]) {
			failed[n++] = b->slot[i];
			b->slot[i] = NULL;
		}
	while (b->q_tail != b->q_head)
		failed[n++] = b->queue[b->q_tail++ % DRVPROC_BLKQ];
	c->events = 0;
	b->blk.driver_pid = 0;
	spin_unlock(&c->wq.lock);
	if (c->dev->irq != DRV_IRQ_NONE)
		drv_irq_detach(c->dev);               /* the next process attaches it again */
	for (int i = 0; i < n; i++)
		blk_complete(failed[i], -EIO);
	if (n)
		kprintf("drvproc: %s: %d requests failed with its driver\n", b->blk.name, n);
}

/* ---- the device's interrupt ------------------------------------------------ */

/* In the interrupt: the process runs the driver's handler; INTx stays masked till then. */
static void forward_irq(void *arg)
{
	struct drvproc *c = arg;
	if (c->dev->irq == DRV_IRQ_INTX)
		drv_irq_mask(c->dev, true);
	spin_lock(&c->wq.lock);
	c->stat.irqs++;
	c->events |= HAKO_DRVPROC_EV_IRQ;
	waitq_wake_one(&c->wq);
	spin_unlock(&c->wq.lock);
}

int drvproc_irq_attach(struct drvproc *c, int cpu)
{
	if (!c->dev || !c->dev->pci || c->dev->driver->class != DRV_CLASS_BLOCK)
		return -EINVAL;
	return drv_irq_attach(c->dev, c->dev->driver->manifest->irq, cpu, forward_irq, c);
}

/* HAKO_DRV_IRQ_DONE of a block device: the handler ran; an INTx line goes on. */
int drvproc_blk_irq_done(struct drvproc *c)
{
	if (c->dev->irq == DRV_IRQ_INTX)
		drv_irq_mask(c->dev, false);
	spin_lock(&c->wq.lock);
	c->stat.irq_done++;
	c->progress++;
	spin_unlock(&c->wq.lock);
	return 0;
}
