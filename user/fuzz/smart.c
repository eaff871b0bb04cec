/*
 * fuzz/smart.c — mostly valid requests: the calls that take a structure,
 * an own object (ICA, semaphore, device, thread) or come in a sequence
 * get one built here, so they reach past their argument checks; what
 * follows a call (a spawned program waited for, a thread joined, an ICA
 * or semaphore remembered, a request answered); and one process's
 * resources, found at the start and given back at the end.
 */
#include <stddef.h>
#include <string.h>
#include <errno.h>
#include <stdlib.h>
#include <hako.h>
#include "fuzz.h"

#define ONE_MS 1000000ull


static uint64_t R(struct fz_thread *t) { return fz_rnd(&t->rng); }
static uint64_t B(struct fz_thread *t, uint64_t n) { return fz_below(&t->rng, n); }

/* Make nr unless it is left out; what follows it too.  -ENOSYS if left out. */
static long call(struct fz_thread *t, int nr, uint64_t a0, uint64_t a1, uint64_t a2, uint64_t a3)
{
	uint64_t a[6] = { a0, a1, a2, a3, 0, 0 };
	if (fz_refused(nr, a))
		return -ENOSYS;
	long r = fz_call(t, nr, a);
	fz_after(t, nr, a, r);
	return r;
}

/* Somewhere in this thread's buffer, 8-byte aligned, with room for a structure. */
static void *area(struct fz_thread *t)
{
	return t->buf + B(t, 256) * 8;
}

/* A buffer for data the kernel reads or writes: this thread's, the heap window, an ICA. */
static uint64_t data_ptr(struct fz_thread *t)
{
	uint64_t k = B(t, 8);
	if (k < 5)
		return (uint64_t)area(t);
	if (k < 7)
		return fz.heap_floor + B(t, FZ_HEAP_WINDOW / 4096) * 4096;
	uint64_t va = fz.ica_va[B(t, FZ_ICAS)];
	return va ? va : HAKO_ICA_AREA;
}

static int own_ica(struct fz_thread *t) { return fz.icas[B(t, FZ_ICAS)]; }
static int own_sem(struct fz_thread *t) { return fz.sems[B(t, FZ_SEMS)]; }
static int some_tid(struct fz_thread *t)
{
	return B(t, 3) ? fz.worker_tids[B(t, (uint64_t)fz.nworkers)] : 0;
}
static uint64_t some_cpu(struct fz_thread *t) { return B(t, (uint64_t)fz.ncpus); }

static const char *const blk_names[] = {
	"ramdisk0", "testdev0", "ahci0", "nvme0", "nosuch", "ramdisk0-and-more-bytes",
};

static long spawn_one(struct fz_thread *t)
{
	static const char *const progs[] = { fz_hello, "broken-magic", "broken-truncated" };
	const char *path = B(t, 4) ? fz_hello : progs[B(t, 3)];
	char **argv = area(t);
	uint64_t k = B(t, 4);
	if (k == 0)
		argv = NULL;
	else if (k == 1) {                                   /* too many arguments: -E2BIG */
		for (int i = 0; i < HAKO_ARGV_MAX + 1; i++)
			argv[i] = (char *)fz_hello;
		argv[HAKO_ARGV_MAX + 1] = NULL;
	} else {
		argv[0] = (char *)fz_hello;
		argv[1] = k == 2 ? (char *)0xffff800000000000ull : (char *)"0";
		argv[2] = NULL;
	}
	return call(t, SYS_spawn, (uint64_t)path, (uint64_t)argv, 0, 0);
}

static void isoch_round(struct fz_thread *t)
{
	struct hako_isoch *is = area(t);
	memset(is, 0, sizeof *is);
	is->period_ns = (1 + B(t, 10)) * ONE_MS;
	is->budget_ns = 10000 + B(t, is->period_ns / 8);
	is->cpu = (int32_t)(B(t, 8) ? some_cpu(t) : (uint64_t)fz.ncpus + B(t, 3));
	if (call(t, SYS_isoch_ctl, HAKO_ISOCH_CREATE, 0, (uint64_t)is, 0) < 0)
		return;
	if (B(t, 4) && call(t, SYS_isoch_ctl, HAKO_ISOCH_START, 0, 0, 0) == 0 && B(t, 2))
		call(t, SYS_isoch_wait, 0, 0, 0, 0);
	call(t, SYS_isoch_ctl, HAKO_ISOCH_INFO, 0, (uint64_t)area(t), 0);
	if (B(t, 2))
		call(t, SYS_isoch_ctl, HAKO_ISOCH_STOP, 0, 0, 0);
	call(t, SYS_isoch_ctl, HAKO_ISOCH_DESTROY, 0, 0, 0);
}

static long ispc_request_one(struct fz_thread *t)
{
	struct hako_ispc_msg *m = area(t);
	memset(m, 0, sizeof *m);
	m->ctl = own_ica(t);
	m->data = B(t, 2) ? -1 : own_ica(t);
	m->data_bytes = (uint32_t)B(t, 8192);
	int pid = (int)(B(t, 4) == 0 ? 0 : B(t, 2) ? (uint64_t)fz.child_pids[B(t, FZ_MAX_PROCS)] :
			(uint64_t)fz.pid);
	uint64_t flags = HAKO_ISPC_ASYNC | (B(t, 4) ? 0 : HAKO_ISPC_DIRECT) |
			 (B(t, 3) ? 0 : HAKO_ISPC_COPY);
	return call(t, SYS_ispc_request, (uint64_t)pid, (uint64_t)m, flags, 0);
}

static long intr_one(struct fz_thread *t)
{
	uint64_t dev = B(t, (uint64_t)fz.nintr + 1);
	switch (B(t, 4)) {
	case 0:
		return call(t, SYS_intr_ctl, dev, HAKO_INTR_GET, (uint64_t)area(t), 0);
	case 1: {
		struct hako_intr_set *s = area(t);
		memset(s, 0, sizeof *s);
		s->mode = (int32_t)B(t, 3);
		s->n = (uint32_t)(1 + B(t, HAKO_INTR_N_MAX + 1));
		s->flags = B(t, 2) ? HAKO_INTR_TICK : 0;
		s->t_ns = B(t, 2) ? 0 : B(t, ONE_MS);
		s->bound_ns = HAKO_INTR_BOUND_MIN_NS + B(t, ONE_MS);
		return call(t, SYS_intr_ctl, dev, HAKO_INTR_SET, (uint64_t)s, 0);
	}
	case 2:
		return call(t, SYS_intr_ctl, dev, HAKO_INTR_RESET, 0, 0);
	default: {
		struct hako_intr_probe *p = area(t);
		p->op = (int32_t)B(t, 4);
		p->max = (uint32_t)B(t, 256);
		p->buf = (uint64_t)(t->buf + 4096);
		return call(t, SYS_intr_ctl, dev, HAKO_INTR_PROBE, (uint64_t)p, 0);
	}
	}
}

static long nic_one(struct fz_thread *t, int nr)
{
	uint64_t nic = B(t, (uint64_t)fz.nnics + 1);
	uint8_t *f = area(t);
	switch (nr) {
	case SYS_nic_ctl: {
		struct hako_nic_info *in = (struct hako_nic_info *)f;
		in->cpu = (int32_t)(B(t, 8) ? some_cpu(t) : B(t, 2) ? (uint64_t)-1 : 99);
		return call(t, SYS_nic_ctl, nic, B(t, 3), (uint64_t)in, 0);
	}
	case SYS_nic_recv:
		return call(t, SYS_nic_recv, nic, data_ptr(t), B(t, 2048), HAKO_NIC_NONBLOCK);
	case SYS_nic_send:
	case SYS_drvproc_call:
		memset(f, 0xff, 6);                              /* broadcast */
		f[12] = 0x88;
		f[13] = 0xb7;
		if (nr == SYS_nic_send)
			return call(t, SYS_nic_send, nic, (uint64_t)f, 14 + B(t, 1501), 0);
		return call(t, SYS_drvproc_call, nic, 1 + B(t, HAKO_DRVPROC_ENTRIES), (uint64_t)f,
			    B(t, 1600));
	default: {
		if (B(t, 3) == 0)
			return call(t, SYS_nic_traffic, nic, 0, 0, 0);
		struct hako_traffic *s = (struct hako_traffic *)f;
		memset(s, 0, sizeof *s);
		s->dst = (int32_t)B(t, (uint64_t)fz.nnics);
		s->cpu = (int32_t)some_cpu(t);
		s->len = (uint32_t)(60 + B(t, 1455));
		s->per_period = (uint32_t)(1 + B(t, 4));
		s->period_ns = 100000 + B(t, 10 * ONE_MS);
		s->count = 1 + B(t, 200);
		s->burst = (uint32_t)(1 + B(t, 4));
		return call(t, SYS_nic_traffic, nic, (uint64_t)s, 0, 0);
	}
	}
}

static long blk_one(struct fz_thread *t, int nr)
{
	uint64_t dev = B(t, (uint64_t)fz.nblk + 1);
	switch (nr) {
	case SYS_blk_open:
		return call(t, SYS_blk_open, (uint64_t)blk_names[B(t, 6)], 0, 0, 0);
	case SYS_blk_close:
		return call(t, SYS_blk_close, dev, 0, 0, 0);
	case SYS_blk_read:
	case SYS_blk_write: {
		uint64_t blocks = dev == (uint64_t)fz.ramdisk ? fz.ramdisk_blocks - FZ_REPORT_BLOCKS : 256;
		uint64_t len = (1 + B(t, HAKO_BLK_IO_MAX / HAKO_BLK_SIZE)) * HAKO_BLK_SIZE;
		return call(t, nr, dev, B(t, blocks) * HAKO_BLK_SIZE, data_ptr(t), len);
	}
	}
	switch (B(t, 4)) {
	case 0:
		return call(t, SYS_blk_ctl, dev, HAKO_BLK_INFO, (uint64_t)area(t), 0);
	case 1:
		return call(t, SYS_blk_ctl, dev, HAKO_BLK_DELAY, 1 + B(t, FZ_DELAY_US), 0);
	case 2: {
		struct hako_blk_set *s = area(t);
		s->mode = (int32_t)B(t, 3) - 1;
		s->policy = (int32_t)B(t, HAKO_BLK_POLICIES + 1) - 1;
		s->fixed_cpu = (int32_t)(B(t, 4) ? some_cpu(t) : (uint64_t)fz.ncpus);
		s->iop = (int32_t)B(t, 3);
		return call(t, SYS_blk_ctl, dev, HAKO_BLK_SET, (uint64_t)s, 0);
	}
	default:
		return call(t, SYS_blk_ctl, dev, HAKO_BLK_RESET, 0, 0);
	}
}

static long perf_one(struct fz_thread *t)
{
	switch (B(t, 4)) {
	case 0:  return call(t, SYS_perf_ctl, HAKO_PERF_PURGE, 0, 0, 0);
	case 1:  return call(t, SYS_perf_ctl, HAKO_PERF_PREEMPT_GET, (uint64_t)t->buf, 0, 0);
	case 2:  return call(t, SYS_perf_ctl, HAKO_PERF_PREEMPT_RESET, 0, 0, 0);
	default: {
		struct hako_perf_internal *io = area(t);
		io->index = (uint32_t)B(t, 40);
		io->worst = (uint32_t)B(t, 2);
		return call(t, SYS_perf_ctl, HAKO_PERF_INTERNAL, (uint64_t)io, 0, 0);
	}
	}
}

static long drvproc_ctl_one(struct fz_thread *t)
{
	uint64_t id = B(t, (uint64_t)fz.nnics + 1);
	uint64_t op = B(t, 4);
	struct hako_drvproc_inject *in = area(t);
	if (op == HAKO_DRVPROC_INJECT) {
		memset(in, 0, sizeof *in);
		in->kind = (int32_t)B(t, HAKO_INJECT_KINDS + 1);
		in->seed = R(t);
	}
	return call(t, SYS_drvproc_ctl, id, op, (uint64_t)in, 0);
}

/* A mostly valid request for nr; false if nr has no generator here. */
bool fz_smart(struct fz_thread *t, int nr)
{
	switch (nr) {
	case SYS_spawn:        spawn_one(t); return true;
	case SYS_exit:                                       /* a child ends itself now and then */
		if (!fz.runner && B(t, 1000) == 0)
			call(t, SYS_exit, FZ_CHILD_EXIT, 0, 0, 0);
		return true;
	case SYS_kill:                                       /* the first process, a stranger, itself */
		if (!fz.runner && B(t, 400) == 0)
			fz_call(t, SYS_kill, (uint64_t[6]){ (uint64_t)fz.pid });
		else
			call(t, SYS_kill, B(t, 2) ? 1 : 2 + B(t, 1000), 0, 0, 0);
		return true;
	case SYS_brk:
		call(t, SYS_brk, B(t, 8) ? fz.heap_floor + B(t, FZ_HEAP_WINDOW) : 0, 0, 0, 0);
		return true;
	case SYS_thread_create: call(t, nr, (uint64_t)&fz_helper_entry, R(t), 0, 0); return true;
	case SYS_set_affinity:
		call(t, nr, (uint64_t)some_tid(t),
		     B(t, 2) ? 1ull << some_cpu(t) : (1ull << fz.ncpus) - 1, 0, 0);
		return true;
	case SYS_migrate:      call(t, nr, some_cpu(t), 0, 0, 0); return true;
	case SYS_setprio:      call(t, nr, (uint64_t)some_tid(t), 1 + B(t, FZ_PRIO_MAX), 0, 0); return true;
	case SYS_cpustat:      call(t, nr, some_cpu(t), (uint64_t)area(t), 0, 0); return true;
	case SYS_progname:     call(t, nr, B(t, 40), (uint64_t)area(t), B(t, 40), 0); return true;
	case SYS_sem_create:   call(t, nr, B(t, 3), 0, 0, 0); return true;
	case SYS_sem_post:
	case SYS_sem_destroy:  call(t, nr, (uint64_t)own_sem(t), 0, 0, 0); return true;
	case SYS_sem_wait: {
		int id = own_sem(t);                         /* posted first; the manager posts too */
		if (call(t, SYS_sem_post, (uint64_t)id, 0, 0, 0) == 0)
			call(t, SYS_sem_wait, (uint64_t)id, 0, 0, 0);
		return true;
	}
	case SYS_ica_alloc:    call(t, nr, 1 + B(t, 4), (uint64_t)area(t), 0, 0); return true;
	case SYS_ica_free:
	case SYS_ica_paste:
	case SYS_ica_peel:     call(t, nr, (uint64_t)own_ica(t), 0, 0, 0); return true;
	case SYS_ispc_listen:  call(t, nr, B(t, 4) ? 0 : HAKO_ISPC_NAMESERVER, 0, 0, 0); return true;
	case SYS_ispc_request: ispc_request_one(t); return true;
	case SYS_ispc_receive: call(t, nr, (uint64_t)area(t), HAKO_ISPC_NONBLOCK, 0, 0); return true;
	case SYS_ispc_result:
		call(t, nr, B(t, 2) ? (uint64_t)-1 : (uint64_t)own_ica(t), (uint64_t)area(t),
		     HAKO_ISPC_NONBLOCK, 0);
		return true;
	case SYS_ispc_mode:    call(t, nr, B(t, 3) - 1, 0, 0, 0); return true;
	case SYS_intr_ctl:     intr_one(t); return true;
	case SYS_nic_ctl: case SYS_nic_recv: case SYS_nic_send: case SYS_nic_traffic:
	case SYS_drvproc_call:
		nic_one(t, nr);
		return true;
	case SYS_blk_open: case SYS_blk_close: case SYS_blk_ctl: case SYS_blk_read:
	case SYS_blk_write:
		blk_one(t, nr);
		return true;
	case SYS_perf_ctl:     perf_one(t); return true;
	case SYS_isoch_ctl:    isoch_round(t); return true;
	case SYS_drvproc_ctl:     drvproc_ctl_one(t); return true;
	}
	return false;
}

/* ---- what follows a call ------------------------------------------------- */

static void remember(int *slots, uint64_t *vas, int n, int id, uint64_t va)
{
	spin_lock(&fz.lock);
	for (int i = 0; i < n; i++)
		if (slots[i] < 0) {
			slots[i] = id;
			if (vas)
				vas[i] = va;
			id = -1;
			break;
		}
	spin_unlock(&fz.lock);
	if (id >= 0)                                         /* no room: give it back now */
		sys_raw(vas ? SYS_ica_free : SYS_sem_destroy, id, 0, 0, 0, 0, 0);
}

static void forget(int *slots, uint64_t *vas, int n, int id)
{
	spin_lock(&fz.lock);
	for (int i = 0; i < n; i++)
		if (slots[i] == id) {
			slots[i] = -1;
			if (vas)
				vas[i] = 0;
		}
	spin_unlock(&fz.lock);
}

void fz_after(struct fz_thread *t, int nr, const uint64_t *a, long r)
{
	switch (nr) {
	case SYS_spawn:                                      /* hello or nothing: it ends soon */
		if (r > 0)
			call(t, SYS_wait, (uint64_t)r, B(t, 4) ? (uint64_t)area(t) : ~0ull, 0, 0);
		break;
	case SYS_thread_create:
		if (r > 0)
			call(t, SYS_thread_join, (uint64_t)r, 0, 0, 0);
		break;
	case SYS_sem_create:
		if (r >= 0)
			remember(fz.sems, NULL, FZ_SEMS, (int)r, 0);
		break;
	case SYS_sem_destroy:
		if (r == 0)
			forget(fz.sems, NULL, FZ_SEMS, (int)a[0]);
		break;
	case SYS_ica_alloc:
		if (r >= 0) {
			uint64_t va = 0;
			if (a[1] >= (uint64_t)t->buf && a[1] + 8 <= (uint64_t)t->buf + FZ_BUF)
				va = *(const uint64_t *)a[1];
			remember(fz.icas, fz.ica_va, FZ_ICAS, (int)r, va);
		}
		break;
	case SYS_ica_free:
		if (r == 0)
			forget(fz.icas, fz.ica_va, FZ_ICAS, (int)a[0]);
		break;
	case SYS_ispc_receive:                               /* answer what came */
		if (r >= 0 && a[0] >= (uint64_t)t->buf && a[0] + 64 <= (uint64_t)t->buf + FZ_BUF) {
			struct hako_ispc_msg *m = (struct hako_ispc_msg *)a[0];
			m->status = B(t, 2) ? 0 : -(int32_t)B(t, 40);
			call(t, SYS_ispc_reply, a[0], 0, 0, 0);
		}
		break;
	}
}

/* ---- helper threads ------------------------------------------------------ */

/* A short-lived thread: a few calls, then thread_exit with a random code. */
void fz_helper_entry(void *arg)
{
	struct fz_thread h = { .index = -1, .rng = (uint64_t)arg | 1, .counts = NULL,
			       .buf = fz_buffer(FZ_MAX_WORKERS + 1) };
	__atomic_fetch_add(&fz.helpers, 1, __ATOMIC_RELAXED);
	for (uint64_t i = 0, n = B(&h, 8); i < n; i++)
		fz_one_call(&h);
	for (;;)
		sys_thread_exit((int)B(&h, 256));
}

/* ---- the process's resources --------------------------------------------- */

static int count_ok(int nr, int op, void *buf, int max)
{
	int n = 0;
	while (n < max && sys_raw(nr, n, op, (long)buf, 0, 0, 0) >= 0)
		n++;
	return n;
}

void fz_setup(void)
{
	static uint8_t info[4096];
	struct hako_sysinfo si;
	fz.ncpus = sys_sysinfo(&si) == 0 ? si.ncpus : 1;
	fz.pid = (int)sys_getpid();
	fz.nnics = count_ok(SYS_nic_ctl, HAKO_NIC_INFO, info, 8);
	fz.nintr = count_ok(SYS_intr_ctl, HAKO_INTR_GET, info, 16);
	fz.nblk = count_ok(SYS_blk_ctl, HAKO_BLK_INFO, info, 16);
	fz.ramdisk = -1;
	fz.delay_dev = -1;
	for (int i = 0; i < fz.nblk; i++) {
		struct hako_blk_info *bi = (struct hako_blk_info *)info;
		sys_blk_ctl(i, HAKO_BLK_INFO, bi);
		if (strcmp(bi->name, "ramdisk0") == 0 && bi->blocks > FZ_REPORT_BLOCKS) {
			fz.ramdisk = i;
			fz.ramdisk_blocks = bi->blocks;
		}
		if (bi->delay_us && fz.runner) {             /* a fixed-delay device: keep it short */
			fz.delay_dev = i;
			fz.delay_us = bi->delay_us;
			sys_blk_ctl(i, HAKO_BLK_DELAY, (void *)(uint64_t)FZ_DELAY_US);
		}
		sys_blk_open(bi->name);
	}
	for (int i = 0; i < FZ_ICAS; i++)
		fz.icas[i] = -1;
	for (int i = 0; i < FZ_SEMS; i++)
		fz.sems[i] = -1;
	/* The C library's heap gets a reserve it never outgrows; brk stays above it. */
	free(malloc(64 * 1024));
	fz.heap_floor = ((uint64_t)sys_brk(NULL) + 4095) & ~4095ull;
}

void fz_post_sems(void)
{
	for (int i = 0; i < FZ_SEMS; i++)
		if (fz.sems[i] >= 0)
			sys_sem_post(fz.sems[i]);
}

/* Give back what the process holds (the kernel takes the rest at its end). */
void fz_release(struct fz_thread *t)
{
	for (int i = 0; i < FZ_ICAS; i++)
		if (fz.icas[i] >= 0) {
			fz_call(t, SYS_ica_peel, (uint64_t[6]){ (uint64_t)fz.icas[i] });
			fz_call(t, SYS_ica_free, (uint64_t[6]){ (uint64_t)fz.icas[i] });
			fz.icas[i] = -1;
		}
	for (int i = 0; i < FZ_SEMS; i++)
		if (fz.sems[i] >= 0) {
			fz_call(t, SYS_sem_destroy, (uint64_t[6]){ (uint64_t)fz.sems[i] });
			fz.sems[i] = -1;
		}
	for (int i = 0; i < fz.nnics; i++) {
		fz_call(t, SYS_nic_traffic, (uint64_t[6]){ (uint64_t)i, 0 });
		fz_call(t, SYS_nic_ctl, (uint64_t[6]){ (uint64_t)i, HAKO_NIC_CLOSE, 0 });
	}
	for (int i = 0; i < fz.nblk; i++)
		fz_call(t, SYS_blk_close, (uint64_t[6]){ (uint64_t)i });
	fz_call(t, SYS_brk, (uint64_t[6]){ fz.heap_floor });
	if (fz.delay_dev >= 0)                               /* the device's own delay again */
		sys_blk_ctl(fz.delay_dev, HAKO_BLK_DELAY, (void *)fz.delay_us);
}

bool fz_parse_no(const char *list)
{
	fz.no_list = list;
	while (*list) {
		size_t n = strcspn(list, ",");
		bool found = n == 8 && strncmp(list, "nic_open", 8) == 0;
		if (found)
			fz.no[FZ_NO_NIC_OPEN] = true;
		for (int i = 0; i < FZ_NCALLS && !found; i++)
			if (strlen(fz_calls[i].name) == n && strncmp(list, fz_calls[i].name, n) == 0) {
				fz.no[fz_calls[i].nr] = true;
				found = true;
			}
		if (!found)
			return false;
		list += n + (list[n] == ',');
	}
	return true;
}
