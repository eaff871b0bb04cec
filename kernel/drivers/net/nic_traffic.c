/*
 * nic_traffic.c — the kernel's timed sender: frames from one card, evenly
 * spaced (per_period frames per period, `burst` back to back at each
 * step), sent from a one-shot timer on a chosen CPU.  With both cards on
 * one QEMU hub (`--net hub`) nothing from the host enters, so under
 * icount a run repeats exactly; this is the traffic of intrbench and of
 * the flood self-test.
 *
 * Each frame carries struct hako_traffic_hdr: a sequence number and the
 * TSC when it went to the card.  A step whose transmit slots are all busy
 * counts `busy` and tries again at the next step: frames come late, never
 * missing.  A step that runs a whole spacing late (its CPU overloaded)
 * does not catch up: the next one is a spacing after it, so the sender
 * never keeps its CPU in the timer interrupt.  The sender stops at its count, on nic_traffic(nic, NULL), or
 * when the process that started it ends.
 *
 * Locking: traffic_lock orders starting and stopping; the timer function
 * runs on the sender's CPU and is the only writer of the counters.
 * The system call (nic_traffic) is in syscall/sys_nic.c.
 */
#include <stdbool.h>
#include <stdint.h>
#include <string.h>
#include <arch/arch.h>
#include <cpu.h>
#include <errno.h>
#include <nic.h>
#include <nic_user.h>
#include <smp.h>
#include <spinlock.h>
#include <time.h>

#define MIN_SPACING_NS 2000ull           /* at most 500k steps a second */
#define MAX_COUNT      10000000ull

struct traffic {
	volatile bool running;
	bool claimed;                        /* a start or stop is under way (traffic_lock) */
	int owner;
	struct nic *tx;
	uint32_t len, burst;
	uint64_t spacing;                    /* TSC ticks between steps */
	volatile uint64_t left, sent, busy;
	uint32_t seq;
	struct timer timer;
	uint8_t frame[ETH_FRAME_MAX];
};

static struct traffic senders[NIC_MAX];
static struct spinlock traffic_lock = SPINLOCK_INIT("nic-traffic", LOCK_NIC_TRAFFIC);

static void put_le(uint8_t *p, uint64_t v, int bytes)
{
	for (int i = 0; i < bytes; i++)
		p[i] = (uint8_t)(v >> (8 * i));
}

/* The timer: up to burst frames, then the next step one spacing later. */
static void step(struct timer *t, void *arg)
{
	struct traffic *tr = arg;
	struct hako_traffic_hdr *h = (struct hako_traffic_hdr *)tr->frame;
	for (uint32_t k = 0; k < tr->burst && tr->left; k++) {
		put_le(h->seq, tr->seq, 4);
		put_le(h->tsc, arch_tsc(), 8);
		if (nic_send(tr->tx, tr->frame, tr->len) == -EAGAIN) {
			tr->busy++;
			break;
		}
		tr->seq++;
		tr->sent++;
		tr->left--;
	}
	uint64_t next = t->deadline + tr->spacing, now = arch_tsc();
	if (tr->left)
		timer_arm(t, next > now ? next : now + tr->spacing);   /* late: no catching up */
	else
		tr->running = false;
}

static void start_here(void *arg)
{
	struct traffic *tr = arg;
	timer_arm(&tr->timer, arch_tsc() + tr->spacing);
}

static int check(const struct hako_traffic *sp)
{
	if (sp->reserved || sp->dst < 0 || sp->dst >= nic_count() || sp->cpu < 0 ||
	    sp->cpu >= ncpus || sp->len < ETH_FRAME_MIN || sp->len > ETH_FRAME_MAX ||
	    sp->per_period < 1 || sp->per_period > 1000 || sp->burst < 1 || sp->burst > 16 ||
	    sp->count < 1 || sp->count > MAX_COUNT || sp->period_ns < 10000 ||
	    sp->period_ns > 1000000000ull || sp->period_ns / sp->per_period < MIN_SPACING_NS)
		return -EINVAL;
	return 0;
}

/* Stop tr (traffic_lock not held: the timer may be running elsewhere).  With
 * left at 0 a step re-arms at most once more, and the second cancel takes that. */
static void stop(struct traffic *tr)
{
	tr->left = 0;
	if (tr->tx) {                        /* started once: the timer is initialised */
		timer_cancel_sync(&tr->timer);
		timer_cancel(&tr->timer);
	}
	tr->running = false;
}

/*
 * One start or stop at a time per card: each re-initialises the sender and
 * its timer outside traffic_lock (a start waits for a call on another CPU),
 * so a second one meanwhile, say from another thread of the owner, would
 * arm or reset the timer under the first and break a CPU's timer list.
 * The card is claimed under the lock; a start or stop finding it claimed
 * gets -EBUSY.  Returns 0 with the card claimed, or the error.
 */
static int claim(struct traffic *tr, int pid, int err_not_owner)
{
	spin_lock(&traffic_lock);
	int err = tr->claimed ? -EBUSY : tr->running && tr->owner != pid ? err_not_owner : 0;
	if (err == 0)
		tr->claimed = true;
	spin_unlock(&traffic_lock);
	return err;
}

static void unclaim(struct traffic *tr)
{
	spin_lock(&traffic_lock);
	tr->claimed = false;
	spin_unlock(&traffic_lock);
}

/* Check sp, then (re)start card i's sender for pid: -EBUSY if another's
 * runs or another start or stop of it is under way. */
int nic_traffic_start(int i, const struct hako_traffic *sp, int pid)
{
	struct traffic *tr = &senders[i];
	int err = check(sp);
	if (err < 0)
		return err;
	err = claim(tr, pid, -EBUSY);
	if (err < 0)
		return err;
	tr->owner = pid;
	stop(tr);
	struct nic *tx = nic_get(i), *dst = nic_get(sp->dst);
	struct hako_traffic_hdr *h = (struct hako_traffic_hdr *)tr->frame;
	memset(tr->frame, 0, sizeof tr->frame);
	memcpy(h->dst, dst->mac, ETH_ALEN);
	memcpy(h->src, tx->mac, ETH_ALEN);
	h->type[0] = HAKO_TRAFFIC_TYPE >> 8;
	h->type[1] = HAKO_TRAFFIC_TYPE & 0xff;
	tr->tx = tx;
	tr->len = sp->len;
	tr->burst = sp->burst;
	tr->spacing = ns_to_tsc(sp->period_ns / sp->per_period);
	tr->seq = 0;
	tr->sent = tr->busy = 0;
	tr->left = sp->count;
	tr->running = true;
	timer_init(&tr->timer, step, tr);
	push_off();                          /* the timer goes on sp->cpu */
	if (sp->cpu == cpu_id())
		start_here(tr);
	else
		smp_call_mask(1ull << sp->cpu, start_here, tr, true);
	pop_off();
	unclaim(tr);
	return 0;
}

/* At pid's end: its senders stop (after a start or stop under way ends). */
void nic_traffic_stop_owner(int pid)
{
	for (int i = 0; i < nic_count(); i++) {
		struct traffic *tr = &senders[i];
		if (tr->owner != pid)
			continue;
		int err;
		while ((err = claim(tr, pid, -EPERM)) == -EBUSY)
			arch_spin_hint();
		if (err == 0) {
			if (tr->owner == pid && tr->running)
				stop(tr);
			unclaim(tr);
		}
	}
}

void nic_traffic_info(int i, struct hako_nic_info *out)
{
	out->traffic_sent = senders[i].sent;
	out->traffic_left = senders[i].left;
	out->traffic_busy = senders[i].busy;
}

/* Stop card i's sender: -EPERM if it runs for another process, -EBUSY
 * while another start or stop of it is under way. */
int nic_traffic_stop(int i, int pid)
{
	struct traffic *tr = &senders[i];
	int err = claim(tr, pid, -EPERM);
	if (err < 0)
		return err;
	stop(tr);
	unclaim(tr);
	return 0;
}
