/*
 * core.c — the registry of driver processes ("cores", paper 003): which
 * drivers run as processes (the kernel option drvproc=), spawning each at
 * the end of boot and waiting for its registration, core-registration,
 * the counters, and a core's end.
 *
 * Boot: the driver core (dev/driver.c) binds a listed driver's devices
 * without granting or attaching them; core_start_all spawns drv-DRIVER
 * with the device's name for each, one after the other, and waits (up to
 * CORE_START_NS of guest time) until it has registered, so the cards keep
 * the order and the indices they have in the kernel (rtl8139 is card 0)
 * and every program finds them when it starts.  A driver process is a
 * child of the kernel, like the program the kernel runs after it.
 *
 * The end: whatever ends a driver process (exit, a fault such as a port
 * outside its grant, kill), proc_end calls core_proc_end before the
 * address space goes: calls in flight fail with -EPIPE, bus mastering is
 * turned off before the DMA memory is freed, and the kernel's card stays
 * registered but dead (sends fail, its interrupt line stays held masked).
 * Restarting it is for a later phase (a reincarnation server).
 */
#include <stdint.h>
#include <string.h>
#include <cmdline.h>
#include <cpu.h>
#include <core.h>
#include <errno.h>
#include <heap.h>
#include <kprintf.h>
#include <pci.h>
#include <proc.h>
#include <thread.h>
#include <time.h>

#define CORE_START_NS 5000000000ull    /* a driver process registers within 5 s */

static struct core *cores[CORE_MAX];
static int ncores;

/* drvproc=rtl8139,e1000 | all (every network driver) | none. */
bool core_placed(const struct driver *drv)
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

static struct core *core_alloc(struct drv_dev *dev)
{
	struct core *c = kzalloc(sizeof *c);
	if (!c)
		return NULL;
	c->txq = dev ? kzalloc(CORE_TXQ * sizeof *c->txq) : NULL;
	if (dev && !c->txq) {
		kfree(c);
		return NULL;
	}
	c->dev = dev;
	c->grant.next_va = HAKO_DRV_AREA;
	waitq_init(&c->wq, "core", LOCK_WAITQ);
	waitq_init_guarded(&c->reply_wq, &c->wq.lock);
	c->stat.placement = 1;
	return c;
}

static void core_free(struct core *c)
{
	kfree(c->txq);
	kfree(c);
}

/* proc_spawn_with's setup: the process is c's before its thread runs. */
static int attach_proc(struct proc *p, void *arg)
{
	struct core *c = arg;
	p->core = c;
	c->proc = p;
	c->pid = p->pid;
	c->stat.pid = p->pid;
	struct thread *t = p->threads[0].t;
	t->core = c;
	t->io = &c->grant.io;
	return 0;
}

static int spawn(struct core *c, const char *path, int argc, char *const argv[])
{
	return proc_spawn_with(NULL, path, argc, argv, attach_proc, c);
}

static void start_one(struct drv_dev *dev)
{
	if (ncores == CORE_MAX) {
		kprintf("core: %s: no room for another driver process\n", dev->name);
		return;
	}
	struct core *c = core_alloc(dev);
	if (!c) {
		kprintf("core: %s: out of memory\n", dev->name);
		return;
	}
	char path[HAKO_PATH_MAX];
	ksnprintf(path, sizeof path, "drv-%s", dev->driver->name);
	char *argv[] = { path, dev->name, NULL };
	cores[ncores++] = c;
	int pid = spawn(c, path, 2, argv);
	if (pid < 0) {
		kprintf("core: %s: cannot start %s (error %d)\n", dev->name, path, pid);
		c->dead = true;
		return;
	}
	uint64_t deadline = time_ns() + CORE_START_NS;
	while (!__atomic_load_n(&c->registered, __ATOMIC_ACQUIRE) &&
	       !__atomic_load_n(&c->dead, __ATOMIC_ACQUIRE) && time_ns() < deadline)
		thread_sleep_ns(100000);
	if (c->registered)
		kprintf("core: %s runs as process %d (%s), card %d\n", dev->name, pid, path,
			c->nic_index);
	else
		kprintf("core: %s: %s (pid %d) did not register\n", dev->name, path, pid);
}

void core_start_all(void)
{
	for (int i = 0; i < drv_dev_count(); i++) {
		struct drv_dev *dev = drv_dev_get(i);
		if (dev->in_process)
			start_one(dev);
	}
}

struct core *core_of_proc(struct proc *p) { return p ? p->core : NULL; }

struct core *core_of_nic(int nic)
{
	for (int i = 0; i < ncores; i++)
		if (cores[i]->registered && cores[i]->nic_index == nic)
			return cores[i];
	return NULL;
}

/* Check, then act: a network card with a SEND entry, once. */
int core_register(struct core *c, const struct hako_core_reg *reg)
{
	if (!c->dev)
		return -ENODEV;
	if (reg->type != HAKO_CORE_NET || reg->nentries < 1 || reg->nentries > HAKO_CORE_ENTRIES)
		return -EINVAL;
	bool send = false;
	for (int i = 0; i < reg->nentries; i++)
		send |= reg->entries[i] == HAKO_CORE_NET_SEND;
	if (!send)
		return -EINVAL;
	if (c->registered)
		return -EBUSY;
	int err = core_nic_register(c, reg);
	if (err < 0)
		return err;
	__atomic_store_n(&c->registered, true, __ATOMIC_RELEASE);
	return 0;
}

void core_proc_end(struct proc *p)
{
	struct core *c = p->core;
	if (!c)
		return;
	spin_lock(&c->wq.lock);
	c->proc = NULL;
	__atomic_store_n(&c->dead, true, __ATOMIC_RELEASE);
	core_fail_calls(c);
	spin_unlock(&c->wq.lock);
	core_revoke(c);
	p->core = NULL;
	if (c->dev)
		kprintf("core: %s (pid %d) ended; its device is stopped\n", c->dev->name, p->pid);
	else
		core_free(c);                /* a test core: nothing refers to it */
}

/* The scheduler, at every switch that involves a driver process's thread. */
void core_switched(struct thread *from, struct thread *to, bool as_switch)
{
	struct core *out = from->core, *in = to->core;
	if (out == in)
		return;                      /* between two threads of one driver process */
	if (out)
		__atomic_fetch_add(&out->stat.switches_out, 1, __ATOMIC_RELAXED);
	if (in)
		__atomic_fetch_add(&in->stat.switches_in, 1, __ATOMIC_RELAXED);
	if (as_switch)
		__atomic_fetch_add(&(in ? in : out)->stat.as_switches, 1, __ATOMIC_RELAXED);
}

int core_spawn_test(const char *path, uint16_t base, uint16_t size)
{
	struct core *c = core_alloc(NULL);
	if (!c)
		return -ENOMEM;
	c->grant.io = (struct arch_io_grant){ .n = 1, .base = { base }, .size = { size } };
	char *argv[] = { (char *)path, NULL };
	int pid = spawn(c, path, 1, argv);
	if (pid < 0)
		core_free(c);
	return pid;
}

/* ---- counters: both placements ------------------------------------------------ */

static struct hako_core_stat kernel_stat[NIC_MAX];   /* cards driven in the kernel */

struct hako_core_stat *core_kernel_stat(int nic)
{
	return nic >= 0 && nic < NIC_MAX ? &kernel_stat[nic] : NULL;
}

void core_stat(int nic, struct hako_core_stat *out)
{
	struct core *c = core_of_nic(nic);
	struct nic *n = nic_get(nic);
	if (c) {
		*out = c->stat;
	} else {
		*out = kernel_stat[nic];
		out->placement = 0;
		out->pid = 0;
		out->irqs = n->stats.irqs;
	}
	out->last_irq_tsc = n->src.last_stamp;
	out->last_done_tsc = n->last_done_tsc;
	out->as_loads = 0;
	for (int i = 0; i < ncpus; i++)
		out->as_loads += cpus[i].as_loads;
}

void core_stat_reset(int nic)
{
	struct core *c = core_of_nic(nic);
	struct hako_core_stat *s = c ? &c->stat : &kernel_stat[nic];
	int placement = s->placement, pid = s->pid;
	memset(s, 0, sizeof *s);
	s->placement = placement;
	s->pid = pid;
}
