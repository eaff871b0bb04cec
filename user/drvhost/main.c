/*
 * drvhost/main.c — the loop of a driver process (paper 003),
 * shared by every driver (STYLE: one library owns the loop, the driver
 * fills in callbacks and a manifest).  The kernel spawns drv-DRIVER at
 * boot for a device listed in drvproc=, with the device's name as
 * argument.
 *
 * Start (argument "fail-init", from fault injection: end at once, a
 * failed start): learn the device (drv_ctl INFO), check it is this program's
 * driver's, and run the driver's attach — the same function the kernel
 * runs for an in-kernel driver — which maps its registers, allocates its
 * rings and ends with nic_register, i.e. drvproc_register.
 *
 * Loop: drvproc_recv hands over one thing at a time, and the driver's
 * counters go to the kernel with each:
 *   a call     NET_SEND: copy the caller's frame in (drvproc_copyin, the
 *              paper's copy-in), queue it like nic_send does (one reclaim
 *              if every slot is busy), reply with the result;
 *              NET_COPY: the copy-in alone (paper 003's Table 3), reply
 *              with the length; NET_POLL: receive work now, reply 0.
 *   events     IRQ: the driver's two halves, ack then work, then
 *              HAKO_DRV_IRQ_DONE lets the interrupt line through again;
 *              POLL: the receiver has room again, receive work;
 *              TXQ: a frame a kernel sender queued, sent like a call's;
 *              IMR_ON/OFF: the device's interrupt mask;
 *              WILD (fault injection): wild requests — bad pointers, a BAR
 *              and DMA outside the grant, a DMA address not ours, a call
 *              id not received — each of which the kernel must refuse (it
 *              counts them, and any it accepts, itself);
 *              HANG (fault injection): spin for ever, for the watchdog;
 *              BREAK (fault injection): every later send's copy-in asks
 *              for bytes outside the call's buffer, and the kernel's
 *              refusal goes back as the send's result — a driver wrong
 *              but running, which the kernel must notice and kill;
 *              STALL (fault injection): every later send is refused
 *              -EAGAIN — a driver answering but stuck, for the watchdog.
 *              CRASH (fault injection): a write to an address that is not
 *              ours — the page fault in the driver's own code ends it.
 * One thread runs it all, so the driver's two halves and its send never
 * overlap (the kernel's rx_lock/tx_lock have no counterpart here).
 */
#include <stdio.h>
#include <string.h>
#include <hako/sys.h>
#include <drvenv.h>
#include <blk_driver.h>
#include <nic_driver.h>
#include <drvhost.h>

#define TXQ_TRIES 1000               /* a queued frame waits this many reclaims for a slot */
/* Fault injection (CRASH): an address below every program, never mapped (a
 * volatile pointer, so the compiler neither folds nor questions the write). */
static volatile uint32_t *volatile crash_at = (volatile uint32_t *)16;

static struct hako_drvproc_msg msg;
static uint8_t frame[ETH_FRAME_MAX];
static uint64_t copy_off;            /* 0; fault injection (BREAK): outside every call's buffer */
static bool stalled;                 /* fault injection (STALL): every send refused */

/* As the kernel's nic_send: a full transmitter gets one reclaim first. */
static int send_frame(struct nic *n, const void *f, size_t len)
{
	int r = n->ops->send(n, f, len);
	if (r == -EAGAIN) {
		n->ops->tx_work(n, 0);
		r = n->ops->send(n, f, len);
	}
	return r;
}

/* A process may take its time: rx_work again until the ring is empty. */
static void work(struct nic *n, uint32_t status)
{
	for (uint32_t st = status; n->ops->rx_work(n, st); st = 0)
		;
	n->ops->tx_work(n, status);
}

static void call(struct nic *n)
{
	long r = 0;
	if (msg.entry == HAKO_DRVPROC_NET_SEND) {
		size_t len = msg.len;
		r = len < ETH_HLEN || len > ETH_FRAME_MAX ? -EINVAL : sys_drvproc_copyin(msg.call, copy_off, frame, len);
		if (r >= 0)
			r = stalled ? -EAGAIN : send_frame(n, frame, len);
	} else if (msg.entry == HAKO_DRVPROC_NET_COPY) {
		r = msg.len > ETH_FRAME_MAX ? -EINVAL : sys_drvproc_copyin(msg.call, 0, frame, msg.len);
	} else if (msg.entry == HAKO_DRVPROC_NET_POLL) {
		nic_process_room(true);
		work(n, 0);
	} else {
		r = -EINVAL;
	}
	sys_drvproc_reply(msg.call, r);
}

/* Each must fail.  The kernel counts them and their refusals itself (drvproc_ctl STAT
 * wild_requests, wild_refused, wild_accepted): a count kept here could be hit by a flip. */
static void wild_requests(void)
{
	void *bad = (void *)16, *kernel = (void *)0xffff800000100000ull;
	struct hako_drv_grant g = { .bar = 5 };
	struct hako_drv_grant neg = { .bar = -1 };
	struct hako_drv_dma huge = { .bytes = 1ull << 30 }, wild = { .addr = 0x100000 };
	sys_drv_ctl(HAKO_DRV_MMIO, bad);
	sys_drv_ctl(HAKO_DRV_MMIO, &g);
	sys_drv_ctl(HAKO_DRV_PORTS, &neg);
	sys_drv_ctl(HAKO_DRV_DMA_ALLOC, &huge);
	sys_drv_ctl(HAKO_DRV_DMA_ALLOC, kernel);
	sys_drv_ctl(HAKO_DRV_DMA_FREE, &wild);
	sys_drv_ctl(99, &g);
	sys_drvproc_copyin(-1, 0, frame, 64);
	sys_drvproc_copyin(1, 0, kernel, 64);
	sys_drvproc_copyout(1, 0, bad, 64);
	sys_drvproc_reply(-1, 0);
	sys_drvproc_rx(bad, 64);
	sys_drvproc_rx(frame, 3);
}

static void events(struct nic *n)
{
	uint32_t ev = msg.events;
	if (ev & HAKO_DRVPROC_EV_IMR_OFF)
		n->ops->irq_enable(n, false);
	if (ev & HAKO_DRVPROC_EV_IMR_ON)
		n->ops->irq_enable(n, true);
	if (ev & HAKO_DRVPROC_EV_IRQ) {
		uint32_t status = n->ops->ack(n);
		if (status)
			work(n, status);
		sys_drv_ctl(HAKO_DRV_IRQ_DONE, (void *)(uintptr_t)(status != 0));
	}
	if (ev & HAKO_DRVPROC_EV_POLL) {
		nic_process_room(true);
		work(n, 0);
	}
	if (ev & HAKO_DRVPROC_EV_WILD)
		wild_requests();
	if (ev & HAKO_DRVPROC_EV_HANG)
		for (volatile int spin = 1; spin;)
			;
	if (ev & HAKO_DRVPROC_EV_BREAK)
		copy_off = (uint64_t)-EINVAL;    /* what one flipped bit in call() can make of 0 */
	if (ev & HAKO_DRVPROC_EV_STALL)
		stalled = true;
	if (ev & HAKO_DRVPROC_EV_CRASH)
		*crash_at = 1;
	if (ev & HAKO_DRVPROC_EV_TXQ) {
		int r = send_frame(n, msg.data, msg.len);
		for (int i = 0; r == -EAGAIN && i < TXQ_TRIES; i++) {
			drv_relax();
			r = send_frame(n, msg.data, msg.len);
		}
		if (r < 0)
			n->stats.tx_errors++;
	}
}

/* A block device: requests come as EV_BLK, its interrupt as EV_IRQ (blk_process.c). */
static void serve_blk(struct blkdev *d)
{
	for (;;) {
		msg.st = (struct hako_drvproc_nicstat){ 0 };
		long r = sys_drvproc_recv(&msg);
		if (r < 0) {
			printf("%s: drvproc_recv: error %ld\n", d->name, r);
			return;
		}
		if (msg.kind == HAKO_DRVPROC_MSG_CALL) {
			sys_drvproc_reply(msg.call, -EINVAL);    /* a block device has no entries */
		} else {
			if ((msg.events & HAKO_DRVPROC_EV_IRQ) && drvhost_irq())
				sys_drv_ctl(HAKO_DRV_IRQ_DONE, (void *)1);
			if (msg.events & HAKO_DRVPROC_EV_WILD)
				wild_requests();
			if (msg.events & HAKO_DRVPROC_EV_HANG)
				for (volatile int spin = 1; spin;)
					;
		}
		blk_process_serve();             /* EV_BLK, and any left when every slot was busy */
		drvhost_run_timers();
	}
}

static void serve(struct nic *n)
{
	for (;;) {
		msg.st = (struct hako_drvproc_nicstat){ .tx = n->stats.tx, .tx_errors = n->stats.tx_errors,
						     .rx_errors = n->stats.rx_errors,
						     .rx_dropped = n->stats.rx_dropped, .link_up = n->link_up };
		long r = sys_drvproc_recv(&msg);
		if (r < 0) {
			printf("%s: drvproc_recv: error %ld\n", n->name, r);
			return;
		}
		if (msg.kind == HAKO_DRVPROC_MSG_CALL)
			call(n);
		else
			events(n);
		drvhost_run_timers();
	}
}

int main(int argc, char **argv)
{
	if (argc > 2 && strcmp(argv[2], "fail-init") == 0) {
		printf("%s: told to fail its start (fault injection)\n", argv[0]);
		return 1;                        /* before registering: a failed start */
	}
	struct hako_drv_info info;
	long r = sys_drv_ctl(HAKO_DRV_INFO, &info);
	if (r < 0) {
		printf("%s: not a driver process (error %ld)\n", argv[0], r);
		return 1;
	}
	if (strcmp(info.driver, drvhost_driver.name) != 0) {
		printf("%s: device %s is not for driver %s\n", argv[0], info.name, drvhost_driver.name);
		return 1;
	}
	int err = drvhost_driver.attach(drvhost_dev(&info));
	struct nic *n = nic_process_card();
	struct blkdev *b = blk_process_dev();
	if (err < 0 || (!n && !b)) {
		printf("%s: attach failed (error %d)\n", info.name, err);
		return 1;
	}
	if (n)
		serve(n);
	else
		serve_blk(b);
	return 1;
}
