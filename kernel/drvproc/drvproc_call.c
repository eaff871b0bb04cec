/*
 * drvproc_call.c — drvproc calls (paper 003): a caller blocks, the driver
 * process's thread receives the call, runs the entry, copies the caller's
 * data from the caller's address space and replies; the reply wakes the
 * caller, which the scheduler switches back to.  The same loop of the
 * driver (drvproc_recv) also receives the device's forwarded interrupts and
 * the kernel's other requests as events.
 *
 * Like ISPC (ipc/ispc.c) the request waits in a queue of the receiver and
 * the caller sleeps until its reply; unlike it nothing is copied or
 * pasted on the way: the call carries the caller's address and length,
 * and the driver copies exactly what it needs (drvproc_copyin, drvproc_copyout:
 * the caller's page tables are walked and its frames reached through the
 * kernel's direct map, while the driver's address space stays loaded —
 * this is the copy-in of the paper's Table 3).
 *
 * A call lives on its caller's kernel stack until drvproc_reply marks it
 * done; the caller waits without giving up (a kill is seen after the
 * reply), so the driver never touches a call that is gone.  A driver
 * receives one call at a time (c->active).  When the driver process ends,
 * every call in flight is answered -EPIPE, and so is every call while no
 * driver process serves the card (until a restarted one registers).
 * Each NET_SEND ends in exactly one counter: send_ok, send_err or
 * send_epipe (send_epipe_active: the driver had taken it, so the frame
 * may have reached the device).
 *
 * The call protocol a driver keeps: it copies only within the call it
 * received, and it never refuses a NET_SEND as invalid (the kernel checked
 * the frame's length and buffer before the call: sys_nic_send,
 * sys_drvproc_call).  A driver that breaks it has been corrupted (a bit
 * flip can leave it running but wrong, refusing every send) and is
 * marked (c->broke); the restart thread kills it and starts a fresh copy
 * (drvproc_restart.c).  The offending request is still refused and the
 * driver's answer still reaches its caller.
 * A driver that refuses every send for long (none accepted, refusals
 * that are not the caller's -EFAULT going on) is stuck even though it
 * answers: the watchdog counts c->send_refusals (drvproc_restart.c).
 *
 * Locking: c->wq.lock guards the queue, active, events and the transmit
 * queue; callers sleep on c->reply_wq under the same lock.
 */
#include <stdint.h>
#include <string.h>
#include <arch/arch.h>
#include <drvproc.h>
#include <errno.h>
#include <pmm.h>
#include <proc.h>
#include <region.h>
#include <thread.h>
#include <uaccess.h>
#include <vm.h>

long drvproc_call(struct drvproc *c, struct proc *caller, int entry, uint64_t uaddr, uint64_t len)
{
	struct drvproc_call call = { .entry = entry, .caller = caller, .uaddr = uaddr, .len = len,
				  .t0 = arch_tsc() };
	bool send = entry == HAKO_DRVPROC_NET_SEND;
	spin_lock(&c->wq.lock);
	if (send)
		c->stat.send_calls++;
	while (!c->dead && c->q_head - c->q_tail == DRVPROC_CALLS)
		waitq_wait_locked(&c->reply_wq);
	if (c->dead) {
		if (send)
			c->stat.send_epipe++;
		spin_unlock(&c->wq.lock);
		return -EPIPE;
	}
	c->next_call = c->next_call == INT32_MAX ? 1 : c->next_call + 1;
	call.id = c->next_call;
	c->queue[c->q_head++ % DRVPROC_CALLS] = &call;
	if (caller)
		c->stat.calls++;
	else
		c->stat.kernel_calls++;
	waitq_wake_one(&c->wq);
	while (!call.done)
		waitq_wait_locked(&c->reply_wq);
	c->stat.call_tsc_sum += arch_tsc() - call.t0;
	spin_unlock(&c->wq.lock);
	return call.result;
}

/* Caller holds c->wq.lock.  The driver process broke the call protocol: how (for the kill). */
static void broke(struct drvproc *c, const char *how)
{
	if (!c->broke)
		c->broke = how;
}

/* Caller holds c->wq.lock.  The driver answered call: count a frame's fate. */
static void answer(struct drvproc *c, struct drvproc_call *call, long result)
{
	if (call->entry == HAKO_DRVPROC_NET_SEND && result == -EINVAL)
		broke(c, "refused a send the kernel had checked");
	call->result = result;
	call->done = true;
	if (call->entry != HAKO_DRVPROC_NET_SEND)
		return;
	if (result == 0) {
		c->stat.send_ok++;
		c->accepted_gen++;
		c->send_refusals = 0;
	} else {
		c->stat.send_err++;
		if (result != -EFAULT)
			c->send_refusals++;
	}
}

/* Caller holds c->wq.lock.  Every call waiting or received is answered -EPIPE. */
void drvproc_fail_calls(struct drvproc *c)
{
	if (c->active) {
		c->active->result = -EPIPE;
		c->active->done = true;
		if (c->active->entry == HAKO_DRVPROC_NET_SEND) {
			c->stat.send_epipe++;
			c->stat.send_epipe_active++;
		}
		c->active = NULL;
	}
	while (c->q_tail != c->q_head) {
		struct drvproc_call *call = c->queue[c->q_tail++ % DRVPROC_CALLS];
		call->result = -EPIPE;
		call->done = true;
		if (call->entry == HAKO_DRVPROC_NET_SEND)
			c->stat.send_epipe++;
	}
	waitq_wake_all(&c->reply_wq);
	waitq_wake_all(&c->wq);
}

void drvproc_post(struct drvproc *c, uint32_t events)
{
	spin_lock(&c->wq.lock);
	c->events |= events;
	waitq_wake_one(&c->wq);
	spin_unlock(&c->wq.lock);
}

/* The next call, else the events (one queued frame with EV_TXQ), else sleep. */
long drvproc_recv(struct drvproc *c, struct hako_drvproc_msg *m)
{
	spin_lock(&c->wq.lock);
	if (!c->dead && c->type == HAKO_DRVPROC_NET)
		drvproc_nic_take_stats(c, &m->st);
	c->progress++;
	c->wild_window = false;              /* the requests of a WILD event end here */
	long r = 0;
	for (;;) {
		if (c->active) {
			r = -EBUSY;                  /* reply to the call received first */
			break;
		}
		if (c->q_head != c->q_tail) {
			struct drvproc_call *call = c->queue[c->q_tail++ % DRVPROC_CALLS];
			c->active = call;
			m->kind = HAKO_DRVPROC_MSG_CALL;
			m->call = call->id;
			m->entry = call->entry;
			m->len = call->len;
			waitq_wake_all(&c->reply_wq);    /* a caller may wait for queue room */
			break;
		}
		if (c->events & HAKO_DRVPROC_EV_WILD) {    /* alone: what follows are its wild requests */
			c->events &= ~HAKO_DRVPROC_EV_WILD;
			m->kind = HAKO_DRVPROC_MSG_EVENTS;
			m->events = HAKO_DRVPROC_EV_WILD;
			m->len = 0;
			c->stat.wild_events++;
			if (!c->flipped) {
				c->wild_window = true;
				c->stat.wild_checked++;
			}
			break;
		}
		if (c->events) {
			uint32_t ev = c->events & ~HAKO_DRVPROC_EV_TXQ;
			m->len = 0;
			if (c->events & HAKO_DRVPROC_EV_TXQ) {
				int len = drvproc_txq_take(c, m->data);
				if (len > 0) {
					m->len = (uint64_t)len;
					ev |= HAKO_DRVPROC_EV_TXQ;
				}
				if (c->tx_head == c->tx_tail)
					c->events &= ~HAKO_DRVPROC_EV_TXQ;
			}
			c->events &= HAKO_DRVPROC_EV_TXQ;
			if (!ev)
				continue;
			m->kind = HAKO_DRVPROC_MSG_EVENTS;
			m->events = ev;
			break;
		}
		if (thread_current()->killed) {
			r = -EINTR;
			break;
		}
		waitq_wait_killable(&c->wq);
	}
	spin_unlock(&c->wq.lock);
	return r;
}

int drvproc_reply(struct drvproc *c, int id, long result)
{
	spin_lock(&c->wq.lock);
	struct drvproc_call *call = c->active;
	int err = call && call->id == id ? 0 : -EINVAL;
	if (err == 0) {
		answer(c, call, result);
		c->active = NULL;
		c->progress++;
		waitq_wake_all(&c->reply_wq);
	}
	spin_unlock(&c->wq.lock);
	return err;
}

/*
 * Copy between the active call's buffer (offset off, in the caller's
 * address space) and ubuf (the driver's): page by page through the
 * caller's page tables and the direct map; a page the caller cannot
 * reach (or, copying out, write) is -EFAULT.  Each page's frame is held
 * (vm_lookup_get) for its copy: another thread of the caller may shrink
 * its heap or unmap that page meanwhile, and the frame must not go to
 * anyone else while the driver still reads or writes it.
 */
long drvproc_copy(struct drvproc *c, int id, uint64_t off, uint64_t ubuf, uint64_t len, bool in)
{
	spin_lock(&c->wq.lock);
	struct drvproc_call *call = c->active;
	bool ok = call && call->id == id && call->caller;
	struct addrspace *as = ok ? call->caller->as : NULL;
	uint64_t base = ok ? call->uaddr : 0, size = ok ? call->len : 0;
	bool timed = ok && in && call->entry == HAKO_DRVPROC_NET_COPY;   /* the copy-in figures' calls */
	bool inside = off <= size && len <= size - off;
	if (ok && !inside)
		broke(c, "copied outside the call's buffer");
	spin_unlock(&c->wq.lock);
	if (!ok || !inside)
		return -EINVAL;
	uint64_t done = 0, t0 = arch_tsc();
	if (timed && len > 4)
		region_begin(REGION_DRVPROC_COPYIN + 2 + 1);
	else if (timed)
		region_begin(REGION_DRVPROC_COPYIN + 1);
	while (done < len) {
		uint64_t va = base + off + done;
		uint64_t chunk = PAGE_SIZE - (va & (PAGE_SIZE - 1));
		if (chunk > len - done)
			chunk = len - done;
		uint64_t pa;
		unsigned flags;
		if (!vm_lookup_get(as, va & ~(PAGE_SIZE - 1), &pa, &flags))
			break;
		long r = -EFAULT;
		if ((flags & VM_USER) && (in || (flags & VM_WRITE))) {
			void *k = (uint8_t *)phys_to_virt(pa) + (va & (PAGE_SIZE - 1));
			r = in ? copy_to_user(ubuf + done, k, chunk) : copy_from_user(k, ubuf + done, chunk);
		}
		pmm_put(pa);                 /* held for the copy: the caller's other threads may unmap it */
		if (r < 0)
			break;
		done += chunk;
	}
	if (timed && len > 4)
		region_end(REGION_DRVPROC_COPYIN + 2 + 1);
	else if (timed)
		region_end(REGION_DRVPROC_COPYIN + 1);
	if (done < len)
		return -EFAULT;
	c->stat.last_copy_tsc = arch_tsc() - t0;
	if (in)
		c->stat.copyin_bytes += len;
	else
		c->stat.copyout_bytes += len;
	return (long)len;
}
