/*
 * drvproc.c — the registry of driver processes (paper 003): which
 * drivers run as processes (the kernel option drvproc=), spawning each at
 * the end of boot and waiting for its registration, drvproc registration,
 * the counters, and a driver process's end.
 *
 * Boot: the driver core (drivers/driver.c) binds a listed driver's devices
 * without granting or attaching them; drvproc_start_all spawns drv-DRIVER
 * with the device's name for each, one after the other, and waits (up to
 * DRVPROC_START_NS of guest time) until it has registered, so the cards keep
 * the order and the indices they have in the kernel (rtl8139 is card 0)
 * and every program finds them when it starts.  A driver process is a
 * child of the kernel, like the program the kernel runs after it.
 *
 * The end: whatever ends a driver process (exit, a fault such as a port
 * outside its grant, kill, the watchdog), proc_end calls drvproc_proc_end
 * before the address space goes: calls in flight fail with -EPIPE, the
 * kernel's queue of frames is dropped (counted), bus mastering and the
 * device's INTx are turned off before the DMA memory is freed, the line
 * it held masked is let through, and the card stays registered but dead
 * (sends fail with -EPIPE) until drvproc_restart.c has started drv-DRIVER
 * again and it has registered once more: the same card, the same index.
 * The counters go on across the restart (drvproc_nic_take_stats adds the
 * ended processes' counters to the new one's).
 */
#include <stdint.h>
#include <string.h>
#include <cmdline.h>
#include <cpu.h>
#include <drvproc.h>
#include <drvswitch.h>
#include <errno.h>
#include <heap.h>
#include <kprintf.h>
#include <pci.h>
#include <proc.h>
#include <thread.h>
#include <time.h>
#include <vm.h>

#define DRVPROC_START_NS 5000000000ull    /* a driver process registers within 5 s */

static struct drvproc *drvprocs[DRVPROC_MAX];
static int ndrvprocs;

/* drvproc=rtl8139,e1000 | all (every network driver) | none. */
bool drvproc_placed(const struct driver *drv)
{
	const char *list = cmdline_get(&kcmdline, "drvproc");
	if (!list)
		return false;
	if (strcmp(list, "all") == 0)
		return drv->class == DRV_CLASS_NET;
	size_t len = strlen(drv->name);
	for (const char *p = list; *p;) {
		const char *end = strchr(p, ',');
		size_t n = end ? (size_t)(end - p) : strlen(p);
		if (n == len && strncmp(p, drv->name, n) == 0)
			return true;
		p += n + (end ? 1 : 0);
	}
	return false;
}

static struct drvproc *drvproc_alloc(struct drv_dev *dev)
{
	struct drvproc *c = kzalloc(sizeof *c);
	if (!c)
		return NULL;
	c->txq = dev ? kzalloc(DRVPROC_TXQ * sizeof *c->txq) : NULL;
	if (dev && !c->txq) {
		kfree(c);
		return NULL;
	}
	c->dev = dev;
	c->grant.next_va = HAKO_DRV_AREA;
	waitq_init(&c->wq, "drvproc", LOCK_WAITQ);
	waitq_init_guarded(&c->reply_wq, &c->wq.lock);
	c->stat.placement = 1;
	return c;
}

static void drvproc_free(struct drvproc *c)
{
	kfree(c->txq);
	kfree(c);
}

/* proc_spawn_with's setup: the process is c's (its service process, its
 * switches counted in c) before its thread runs.  A driver needs no
 * control call (its own calls are checked by drvproc_of_proc). */
static int attach_proc(struct proc *p, void *arg)
{
	struct drvproc *c = arg;
	p->priv = HAKO_PRIV_NONE;
	c->grant.io.ring0 = p->as->supervisor;   /* drvproc_super.c: its threads' entry */
	c->stat.placement = p->as->supervisor ? 3 : 1;
	c->service.io = &c->grant.io;
	proc_set_service(p, &c->service);
	c->proc = p;
	c->pid = p->pid;
	c->stat.pid = p->pid;
	c->flipped = c->wild_window = c->broke_killed = false;
	c->broke = NULL;
	c->send_refusals = 0;
	return 0;
}

/* Start drv-DRIVER DEVICE for c: at boot and at each restart. */
int drvproc_spawn(struct drvproc *c)
{
	char path[HAKO_PATH_MAX];
	ksnprintf(path, sizeof path, "drv-%s", c->dev->driver->name);
	char *argv[] = { path, c->dev->name, "fail-init", NULL };
	int argc = 2;
	if (c->fail_inits > 0) {             /* fault injection: the host ends before registering */
		c->fail_inits--;
		argc = 3;
	}
	argv[argc] = NULL;
	c->start_ns = time_ns();
	int pid = proc_spawn_mode(NULL, path, argc, argv, drvproc_spawn_mode(), attach_proc, c);
	if (pid > 0)
		c->stat.generation++;
	return pid;
}

int drvproc_count(void) { return ndrvprocs; }
struct drvproc *drvproc_get(int i) { return i >= 0 && i < ndrvprocs ? drvprocs[i] : NULL; }

static void start_one(struct drv_dev *dev)
{
	if (ndrvprocs == DRVPROC_MAX) {
		kprintf("drvproc: %s: no room for another driver process\n", dev->name);
		return;
	}
	struct drvproc *c = drvproc_alloc(dev);
	if (!c) {
		kprintf("drvproc: %s: out of memory\n", dev->name);
		return;
	}
	drvprocs[ndrvprocs++] = c;
	c->dead = true;                      /* until it registers */
	int pid = drvproc_spawn(c);
	if (pid < 0) {
		kprintf("drvproc: %s: cannot start drv-%s (error %d)\n", dev->name, dev->driver->name, pid);
		return;
	}
	uint64_t deadline = time_ns() + DRVPROC_START_NS;
	while (!__atomic_load_n(&c->registered, __ATOMIC_ACQUIRE) &&
	       !__atomic_load_n(&c->restart, __ATOMIC_ACQUIRE) && time_ns() < deadline)
		thread_sleep_ns(100000);
	const char *mode = c->stat.placement == 3 ? "supervisor-mode " : "";
	if (c->registered && c->type == HAKO_DRVPROC_NET)
		kprintf("drvproc: %s runs as %sprocess %d (drv-%s), card %d\n", dev->name, mode, pid,
			dev->driver->name, c->nic_index);
	else if (c->registered)
		kprintf("drvproc: %s runs as %sprocess %d (drv-%s), block device %d\n", dev->name, mode,
			pid, dev->driver->name, drvproc_blk_index(c));
	else
		kprintf("drvproc: %s: drv-%s (pid %d) did not register\n", dev->name, dev->driver->name,
			pid);
}

void drvproc_start_all(void)
{
	bool any = false;
	for (int i = 0; i < drv_dev_count(); i++) {
		struct drv_dev *dev = drv_dev_get(i);
		if (dev->in_process) {
			start_one(dev);
			any = true;
		}
	}
	if (any)
		drvproc_restart_start();
}

/* Every service process is a driver process (proc.h's proc_service): the
 * record is c->service. */
struct drvproc *drvproc_of_proc(struct proc *p)
{
	return p && p->service ?
	       (struct drvproc *)((char *)p->service - __builtin_offsetof(struct drvproc, service)) : NULL;
}

struct drvproc *drvproc_of_nic(int nic)
{
	for (int i = 0; i < ndrvprocs; i++)
		if (drvprocs[i]->registered && drvprocs[i]->type == HAKO_DRVPROC_NET &&
		    drvprocs[i]->nic_index == nic)
			return drvprocs[i];
	return NULL;
}

/* Check, then act: a network card with a SEND entry, or a block device; once a process. */
static int check_reg(const struct drvproc *c, const struct hako_drvproc_reg *reg)
{
	enum drv_class class = c->dev->driver->class;
	if (reg->type == HAKO_DRVPROC_BLK)
		return class == DRV_CLASS_BLOCK ? 0 : -EINVAL;
	if (reg->type != HAKO_DRVPROC_NET || class != DRV_CLASS_NET || reg->nentries < 1 ||
	    reg->nentries > HAKO_DRVPROC_ENTRIES)
		return -EINVAL;
	bool send = false;
	for (int i = 0; i < reg->nentries; i++)
		send |= reg->entries[i] == HAKO_DRVPROC_NET_SEND;
	return send ? 0 : -EINVAL;
}

/* A restarted driver registers its device again: the same card or disk. */
static int register_again(struct drvproc *c, const struct hako_drvproc_reg *reg)
{
	if (c->type == HAKO_DRVPROC_NET) {
		if (memcmp(reg->mac, c->nic.mac, ETH_ALEN) != 0)
			return -EIO;
		c->nic.link_up = reg->link_up != 0;
		drvproc_grant_intx(c, true);
	} else {
		int err = drvproc_blk_register(c, reg);   /* checks it is the same device */
		if (err < 0)
			return err;
	}
	spin_lock(&c->wq.lock);
	c->wd_progress = c->progress;
	c->wd_ns = time_ns();
	__atomic_store_n(&c->dead, false, __ATOMIC_RELEASE);
	c->failed_starts = 0;
	if (c->type == HAKO_DRVPROC_NET)
		c->events |= HAKO_DRVPROC_EV_POLL;      /* frames that came while it was away */
	spin_unlock(&c->wq.lock);
	if (c->type == HAKO_DRVPROC_NET)
		kprintf("drvproc: %s registered again (pid %d), card %d\n", c->dev->name, c->pid,
			c->nic_index);
	else
		kprintf("drvproc: %s registered again (pid %d)\n", c->dev->name, c->pid);
	return 0;
}

int drvproc_register(struct drvproc *c, const struct hako_drvproc_reg *reg)
{
	if (!c->dev)
		return -ENODEV;
	int err = check_reg(c, reg);
	if (err < 0)
		return err;
	if (!c->dead)
		return -EBUSY;                   /* this process registered already */
	if (c->registered)
		return reg->type == c->type ? register_again(c, reg) : -EINVAL;
	err = reg->type == HAKO_DRVPROC_NET ? drvproc_nic_register(c, reg) : drvproc_blk_register(c, reg);
	if (err < 0)
		return err;
	c->type = reg->type;
	c->wd_ns = time_ns();
	__atomic_store_n(&c->dead, false, __ATOMIC_RELEASE);
	__atomic_store_n(&c->registered, true, __ATOMIC_RELEASE);
	return 0;
}

void drvproc_proc_end(struct proc *p)
{
	struct drvproc *c = drvproc_of_proc(p);
	if (!c)
		return;
	spin_lock(&c->wq.lock);
	bool served = !c->dead;
	c->proc = NULL;
	__atomic_store_n(&c->dead, true, __ATOMIC_RELEASE);
	drvproc_fail_calls(c);
	spin_unlock(&c->wq.lock);
	drvproc_revoke(c);                  /* the device stops first: no DMA, no interrupt */
	proc_set_service(p, NULL);
	if (!c->dev) {
		drvproc_free(c);                /* a test driver process: nothing refers to it */
		return;
	}
	if (c->type == HAKO_DRVPROC_BLK)
		drvproc_blk_dead(c);
	else
		drvproc_nic_dead(c);
	drvproc_ended(c, p->status, served);
}

static struct proc_exit_hook exit_hook = { .rank = PROC_EXIT_DRVPROC, .fn = drvproc_proc_end };

void drvproc_init(void)
{
	proc_on_exit(&exit_hook);
}

int drvproc_spawn_test(const char *path, uint16_t base, uint16_t size)
{
	struct drvproc *c = drvproc_alloc(NULL);
	if (!c)
		return -ENOMEM;
	c->grant.io = (struct arch_io_grant){ .n = 1, .base = { base }, .size = { size } };
	char *argv[] = { (char *)path, NULL };
	int pid = proc_spawn_with(NULL, path, 1, argv, attach_proc, c);
	if (pid < 0)
		drvproc_free(c);
	return pid;
}

/* ---- counters: both placements ------------------------------------------------ */

static struct hako_drvproc_stat kernel_stat[NIC_MAX];   /* cards driven in the kernel */

struct hako_drvproc_stat *drvproc_kernel_stat(int nic)
{
	return nic >= 0 && nic < NIC_MAX ? &kernel_stat[nic] : NULL;
}

void drvproc_stat(int nic, struct hako_drvproc_stat *out)
{
	struct drvproc *c = drvproc_of_nic(nic);
	struct nic *n = nic_get(nic);
	if (c) {
		*out = c->stat;
		out->gave_up = c->gave_up;       /* the restart state, reported with the counters */
		out->switches_in = __atomic_load_n(&c->service.switches.in, __ATOMIC_RELAXED);
		out->switches_out = __atomic_load_n(&c->service.switches.out, __ATOMIC_RELAXED);
		out->as_switches = __atomic_load_n(&c->service.switches.as, __ATOMIC_RELAXED);
	} else {
		*out = kernel_stat[nic];
		out->placement = drvswitch_card(n) ? 2 : 0;
		out->pid = 0;
		out->irqs = n->stats.irqs;
	}
	out->last_irq_tsc = n->src.last_stamp;
	out->last_done_tsc = n->last_done_tsc;
	out->as_loads = 0;
	for (int i = 0; i < ncpus; i++)
		out->as_loads += cpus[i].as_loads;
}

/* The counters only: what the kernel acts on (the restart state, the
 * generation, the process) is kept. */
void drvproc_stat_reset(int nic)
{
	struct drvproc *c = drvproc_of_nic(nic);
	struct hako_drvproc_stat *s = c ? &c->stat : &kernel_stat[nic];
	int placement = s->placement, pid = s->pid;
	uint64_t generation = s->generation;
	memset(s, 0, sizeof *s);
	if (c)
		memset(&c->service.switches, 0, sizeof c->service.switches);
	s->placement = placement;
	s->pid = pid;
	s->generation = generation;
}
