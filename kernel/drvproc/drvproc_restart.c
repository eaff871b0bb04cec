/*
 * drvproc_restart.c — faults and restart of driver processes (paper 003):
 * the kernel's reincarnation thread, the watchdog, and
 * fault injection.
 *
 * Restart is in the kernel, not in a server process: the kernel already
 * spawns the drivers at boot (drvproc.c), holds everything to revoke (the
 * grants, the proxy card, the calls in flight) and is where a process's
 * end is seen (proc_end → drvproc_proc_end); a server would need a new
 * "tell me when it dies" call and would itself need restarting.
 *
 * The thread "drvproc-restart" runs while any driver process exists.  It
 * wakes every DRVPROC_WATCH_NS (a sleep on a kernel timer) and for each driver process:
 *   ended      drvproc_proc_end has taken everything back (drvproc.c) and
 *              drvproc_ended marked it: collect the zombie, wait out the
 *              back-off, spawn drv-DRIVER DEVICE again from the initrd.
 *              The new process attaches (the driver resets the card) and
 *              registers: the same card, the same index (drvproc_register).
 *              A driver that ends DRVPROC_GIVE_UP times in a row before it
 *              registers is not started again (a message says so); the
 *              back-off doubles from DRVPROC_BACKOFF_NS with each such end.
 *   starting   a started process that has not registered in DRVPROC_START_NS
 *              is killed (then the above).
 *   serving    the watchdog: work is pending (a call queued or taken and
 *              not answered, events not received, a forwarded interrupt
 *              not finished) and the driver has made no progress (no
 *              drvproc_recv, drvproc_reply or IRQ_DONE) for DRVPROC_WATCHDOG_NS:
 *              it is killed with a message naming it, then restarted.
 *              So is a driver that broke the call protocol (c->broke, set
 *              in drvproc_call.c: a copy outside the call's buffer, a
 *              checked send refused as invalid), at the next look.
 *              And one that answers but refuses every send: no send
 *              accepted for DRVPROC_WATCHDOG_NS while at least
 *              STUCK_REFUSALS more were refused (not the caller's -EFAULT).
 *
 * Fault injection (drvproc_ctl HAKO_DRVPROC_INJECT, from a program that is not a
 * driver): TEXT and DATA flip one bit in the driver process's memory
 * through the direct map — every page of a process is its own copy
 * (proc_load copies the ELF image from the initrd), so the initrd and
 * other processes are untouched; WILD, HANG, BREAK and STALL are events the
 * driver host acts on (user/drvhost/main.c): wild requests the kernel must
 * refuse, an endless loop the watchdog must end, copies from outside each
 * call's buffer (a driver left running but wrong, which the kernel must
 * kill for breaking the call protocol) and every send refused (a driver
 * answering but stuck, for the watchdog); FAIL_INIT has the next
 * starts end before registering (an argument to the host), which is how
 * the back-off and giving up are tested.  drvproc_ctl RESTART starts a
 * driver given up again.
 *
 * Locking: the thread reads a driver process's state under c->wq.lock and calls
 * proc_kill/proc_wait/drvproc_spawn holding nothing.  A flip holds c->wq.lock
 * so the process's address space cannot go meanwhile (drvproc_proc_end takes
 * that lock before vm_destroy).
 */
#include <stdint.h>
#include <string.h>
#include <drvproc.h>
#include <errno.h>
#include <kprintf.h>
#include <pmm.h>
#include <proc.h>
#include <thread.h>
#include <time.h>
#include <vm.h>

#define DRVPROC_WATCH_NS     20000000ull     /* the thread's period */
#define DRVPROC_WATCHDOG_NS  500000000ull    /* no progress with work pending: killed */
#define DRVPROC_START_NS     5000000000ull   /* a started driver registers within this */
#define DRVPROC_BACKOFF_NS   10000000ull     /* first wait after an end before registering */
#define DRVPROC_GIVE_UP      5               /* ends in a row before registering: no more */
#define STUCK_REFUSALS       8               /* sends refused within the watchdog's time, none
                                              * accepted: the driver is stuck */
#define FLIP_TRIES        64              /* pages looked at for one flip */
#define STACK_PAGES       4               /* the top of the main stack is data too */

static struct thread *restarter;

static const char *name_of(struct drvproc *c) { return c->dev->name; }

/* drvproc_proc_end (in proc_end, holding nothing): count the end, ask for a restart. */
void drvproc_ended(struct drvproc *c, int status, bool served)
{
	const char *how;
	if (!(status & HAKO_STATUS_KILLED)) {
		c->stat.exits++;
		how = "exited";
	} else if ((status & 0xff) == HAKO_CAUSE_KILL) {
		c->stat.kills++;
		how = "was killed";
	} else {
		c->stat.crashes++;
		how = "crashed";
	}
	if (!served)
		c->failed_starts++;
	uint64_t wait = c->failed_starts ? DRVPROC_BACKOFF_NS << (c->failed_starts - 1) : 0;
	c->restart_ns = time_ns() + wait;
	c->ended_pid = c->pid;
	if (c->type == HAKO_DRVPROC_BLK)
		kprintf("drvproc: %s (pid %d, generation %lu) %s\n", name_of(c), c->pid,
			c->stat.generation, how);
	else
		kprintf("drvproc: %s (pid %d, generation %lu) %s; %lu frames dropped from its queue, "
			"%lu unconfirmed so far\n", name_of(c), c->pid, c->stat.generation, how,
			c->stat.txq_dropped, c->stat.tx_unconfirmed);
	__atomic_store_n(&c->restart, true, __ATOMIC_RELEASE);
}

static void reincarnate(struct drvproc *c, uint64_t now)
{
	if (c->ended_pid) {
		int status;
		proc_wait(NULL, c->ended_pid, &status);   /* the kernel's zombie: its table slot */
		c->ended_pid = 0;
	}
	if (c->failed_starts >= DRVPROC_GIVE_UP) {
		kprintf("drvproc: %s: ended %d times in a row before registering; not started again\n",
			name_of(c), c->failed_starts);
		c->gave_up = true;
		__atomic_store_n(&c->restart, false, __ATOMIC_RELEASE);
		return;
	}
	if (now < c->restart_ns)
		return;
	__atomic_store_n(&c->restart, false, __ATOMIC_RELEASE);
	int pid = drvproc_spawn(c);
	if (pid < 0) {
		kprintf("drvproc: %s: cannot start drv-%s again (error %d)\n", name_of(c),
			c->dev->driver->name, pid);
		c->failed_starts++;
		c->restart_ns = now + (DRVPROC_BACKOFF_NS << (c->failed_starts - 1));
		__atomic_store_n(&c->restart, true, __ATOMIC_RELEASE);
		return;
	}
	c->stat.restarts++;
	kprintf("drvproc: %s restarted as process %d (generation %lu)\n", name_of(c), pid,
		c->stat.generation);
}

/* A serving driver: kill it when it broke the call protocol (drvproc_call.c), or when it
 * sits on pending work without progress. */
static void watch(struct drvproc *c, uint64_t now)
{
	spin_lock(&c->wq.lock);
	bool pending = c->active || c->q_head != c->q_tail || c->events || c->irq_t0;
	uint64_t progress = c->progress;
	int pid = c->pid;
	bool live = c->proc && !c->dead;
	const char *broke = live && !c->broke_killed ? c->broke : NULL;
	if (broke)
		c->broke_killed = true;
	uint64_t refusals = c->send_refusals, send_ok = c->stat.send_ok;
	spin_unlock(&c->wq.lock);
	if (!live)
		return;
	if (broke) {
		kprintf("drvproc: %s (pid %d) broke the call protocol (%s): killed\n", name_of(c),
			pid, broke);
		c->stat.protocol_kills++;
		proc_kill(NULL, pid);
		return;
	}
	if (!refusals || send_ok != c->wd_send_ok || refusals < c->wd_refusals) {
		c->wd_send_ok = send_ok;
		c->wd_refusals = refusals;
		c->wd_send_ns = now;
	} else if (now - c->wd_send_ns >= DRVPROC_WATCHDOG_NS &&
		   refusals - c->wd_refusals >= STUCK_REFUSALS) {
		kprintf("drvproc: %s (pid %d): refused every send for %lu ms (%lu in a row): killed by "
			"the watchdog\n", name_of(c), pid, (now - c->wd_send_ns) / 1000000, refusals);
		c->stat.watchdog_kills++;
		c->wd_send_ns = now;
		c->wd_refusals = refusals;
		proc_kill(NULL, pid);
		return;
	}
	if (!pending || progress != c->wd_progress) {
		c->wd_progress = progress;
		c->wd_ns = now;
		return;
	}
	if (now - c->wd_ns < DRVPROC_WATCHDOG_NS)
		return;
	kprintf("drvproc: %s (pid %d): work pending and no progress for %lu ms: killed by the "
		"watchdog\n", name_of(c), pid, (now - c->wd_ns) / 1000000);
	c->stat.watchdog_kills++;
	c->wd_ns = now;
	proc_kill(NULL, pid);
}

/* Started but not registered within DRVPROC_START_NS: killed (it counts as a failed start). */
static void watch_start(struct drvproc *c, uint64_t now)
{
	if (!c->proc || !c->dead || now - c->start_ns < DRVPROC_START_NS)
		return;
	kprintf("drvproc: %s (pid %d) did not register in %lu ms: killed\n", name_of(c), c->pid,
		(uint64_t)(DRVPROC_START_NS / 1000000));
	c->start_ns = now;
	proc_kill(NULL, c->pid);
}

static void restart_loop(void *arg)
{
	for (;;) {
		thread_sleep_ns(DRVPROC_WATCH_NS);
		uint64_t now = time_ns();
		for (int i = 0; i < drvproc_count(); i++) {
			struct drvproc *c = drvproc_get(i);
			if (!c->dev)
				continue;
			if (__atomic_load_n(&c->restart, __ATOMIC_ACQUIRE))
				reincarnate(c, now);
			else if (c->dead)
				watch_start(c, now);
			else
				watch(c, now);
		}
	}
}

void drvproc_restart_start(void)
{
	if (restarter)
		return;
	restarter = thread_spawn("drvproc-restart", restart_loop, NULL, PRIO_DEFAULT);
	if (!restarter)
		kprintf("drvproc: no reincarnation thread: driver processes are not restarted\n");
}

/* ---- fault injection ------------------------------------------------------------- */

static uint64_t next_rand(uint64_t *x)
{
	*x ^= *x << 13;
	*x ^= *x >> 7;
	*x ^= *x << 17;
	return *x;
}

/* A page of p for kind (TEXT: executable; DATA: writable), or 0.  Caller holds c->wq.lock. */
static uint64_t pick_page(struct proc *p, int kind, uint64_t *rnd, uint64_t *pa)
{
	uint64_t image = (p->heap_base - HAKO_USER_IMAGE_BASE) / PAGE_SIZE;
	uint64_t heap = (p->brk - p->heap_base + PAGE_SIZE - 1) / PAGE_SIZE;
	for (int i = 0; i < FLIP_TRIES; i++) {
		uint64_t r = next_rand(rnd), va;
		if (kind == HAKO_INJECT_TEXT || r % 4 < 2)
			va = HAKO_USER_IMAGE_BASE + (r >> 8) % image * PAGE_SIZE;
		else if (r % 4 == 2 && heap)
			va = p->heap_base + (r >> 8) % heap * PAGE_SIZE;
		else
			va = HAKO_USER_STACK_TOP - (1 + (r >> 8) % STACK_PAGES) * PAGE_SIZE;
		unsigned flags;
		if (!vm_lookup(p->as, va, pa, &flags))   /* a program's page (VM_USER unless supervisor) */
			continue;
		bool text = (flags & VM_EXEC) && !(flags & VM_WRITE);
		if (kind == HAKO_INJECT_TEXT ? text : (flags & VM_WRITE) != 0)
			return va;
	}
	return 0;
}

static int flip(struct drvproc *c, struct hako_drvproc_inject *spec)
{
	uint64_t rnd = spec->seed | 1;
	int err = -ESRCH;
	spin_lock(&c->wq.lock);
	struct proc *p = c->proc;
	uint64_t pa, va = p ? pick_page(p, spec->kind, &rnd, &pa) : 0;
	if (va) {
		uint64_t r = next_rand(&rnd);
		uint64_t off = r % PAGE_SIZE;
		uint8_t *byte = (uint8_t *)phys_to_virt(pa) + off;
		*byte ^= (uint8_t)(1u << ((r >> 12) % 8));
		spec->va = va + off;
		c->flipped = true;               /* its wild requests are no longer checked */
		err = 0;
	}
	spin_unlock(&c->wq.lock);
	return err;
}

/* Check, then act: a card whose driver is a process, a kind we know. */
int drvproc_inject(int nic, struct hako_drvproc_inject *spec)
{
	struct drvproc *c = drvproc_of_nic(nic);
	if (!c)
		return -ENODEV;                  /* its driver is in the kernel */
	if (spec->kind < 0 || spec->kind >= HAKO_INJECT_KINDS)
		return -EINVAL;
	if (__atomic_load_n(&c->dead, __ATOMIC_ACQUIRE))
		return -ESRCH;                   /* no driver process now (restarting) */
	int err = 0;
	if (spec->kind == HAKO_INJECT_FAIL_INIT && (spec->seed < 1 || spec->seed > 16))
		return -EINVAL;
	if (spec->kind == HAKO_INJECT_TEXT || spec->kind == HAKO_INJECT_DATA)
		err = flip(c, spec);
	else if (spec->kind == HAKO_INJECT_FAIL_INIT)
		c->fail_inits = (int)spec->seed;
	else if (spec->kind == HAKO_INJECT_WILD)
		drvproc_post(c, HAKO_DRVPROC_EV_WILD);
	else if (spec->kind == HAKO_INJECT_HANG)
		drvproc_post(c, HAKO_DRVPROC_EV_HANG);
	else if (spec->kind == HAKO_INJECT_CRASH)
		drvproc_post(c, HAKO_DRVPROC_EV_CRASH);
	else
		drvproc_post(c, spec->kind == HAKO_INJECT_BREAK ? HAKO_DRVPROC_EV_BREAK : HAKO_DRVPROC_EV_STALL);
	if (err == 0)
		__atomic_fetch_add(&c->stat.injected[spec->kind], 1, __ATOMIC_RELAXED);
	return err;
}

/* drvproc_ctl RESTART: a driver given up is started again (its count of failed starts cleared). */
int drvproc_restart_given_up(int nic)
{
	struct drvproc *c = drvproc_of_nic(nic);
	if (!c)
		return -ENODEV;
	if (!c->gave_up || c->proc)
		return -EBUSY;
	c->gave_up = false;
	c->failed_starts = 0;
	c->restart_ns = 0;
	kprintf("drvproc: %s: started again on request\n", name_of(c));
	__atomic_store_n(&c->restart, true, __ATOMIC_RELEASE);
	return 0;
}
