/*
 * plugin.c — the QEMU glue of the cost model (README.md): feeds every
 * instruction fetch and data access of every vCPU through that vCPU's
 * modelled TLBs and caches (model.h), applies the guest's TLB and cache
 * flushes, keeps the region markers (regions.h), and writes JSON lines at
 * exit.
 *
 *   -plugin build/costmodel/libcostmodel.so,profile=PATH[,out=PATH][,regs=on][,l2=off][,pcprof=on]
 *           [,epoch=ADDR...][,release=ADDR...][,mhz=N][,exit_port=N][,handler=START:END][,turns=PATH]
 *
 * What is instrumented, per translated block:
 *   - every instruction: a callback that counts it, so partial executions
 *     of a block count exactly what ran (and, told at translation, whether
 *     it lies in the handler=START:END range and, on SH-4, whether it
 *     issues beside the instruction before it); at the first instruction of each
 *     L1i line the block enters, the same callback also looks the fetch up
 *     (a line already entered in the block is an L1i and iTLB hit by
 *     construction, so the other instructions skip it);
 *   - every memory access: a callback with the virtual and physical address;
 *     one to a device (QEMU's "I/O" memory) is priced as a register access
 *     by its direction, the local APIC's page at its own price (model.h);
 *   - port I/O: in and out charge one port access each when they run; ins
 *     and outs one per element, from the memory callback of each element;
 *   - the few other instructions decode.h recognises: a callback that reads
 *     the registers it needs and applies the flush or the marker;
 *   - an instruction at an epoch=ADDR address: a callback that starts an
 *     epoch (epochs.h) labelled with the address, rdi, rsi and rdx;
 *   - an instruction at a release=ADDR address (the guest's lock release
 *     function): a callback that releases the lock in rdi on the
 *     vCPU's virtual clock (vclock.h), as do the sync markers and pause.
 *
 * Which vCPU runs: under -icount with more than one vCPU, QEMU 10.0
 * passes callbacks a wrong vCPU index (it bakes a constant into the
 * translated code when TCG is not in parallel mode, and blocks are shared
 * between vCPUs; we saw 1 and 8 for code that only the boot CPU ran).
 * The plugin therefore ignores that argument.  At the start of every
 * block it asks the running vCPU itself: Hako keeps a pointer to its
 * struct cpu in GS base (in KERNEL_GS_BASE while in user mode), and the
 * struct's id field (kernel/sched/cpu.h) is the CPU number; the pair is
 * read once per CPU and remembered.  Until a CPU has set GS base (the
 * boot path and the AP trampoline) its work counts for the vCPU that
 * ran last.  The same bug makes QEMU 10.0's inline per-vCPU operations
 * write at a wrong (even out-of-range) scoreboard slot, so the plugin
 * uses none: instructions are counted by a callback on each instruction
 * (before it runs, so a faulting instruction counts once per attempt).
 *
 * Determinism: under -icount the vCPUs run in turn on one host thread,
 * every callback happens at the same guest instruction on every run, and
 * the output is sorted, so reruns give byte-identical files.  One thing
 * is host-timed: after the guest writes the exit port (isa-debug-exit,
 * exit_port=N, 0xf4 by default) QEMU's main loop stops the machine when
 * it gets to it, and the other vCPUs may run on meanwhile.  So the
 * plugin takes its final counts at that write and ignores every event
 * after it.
 */
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "qemu_plugin_api.h"
#include "decode.h"
#include "epochs.h"
#include "model.h"
#include "regions.h"
#include "sections.h"
#include "pcprof.h"
#include "turns.h"
#include "options.h"
#include "vclock.h"
#include "sh4.h"
#include "plugin.h"
#include "../../kernel/arch/x86_64/include/arch/layout.h"
#include "../../kernel/uapi/hako_region.h"

CM_EXPORT int qemu_plugin_version = CM_QEMU_PLUGIN_VERSION;

#define GPRS 16

/* The general registers in x86 encoding order, as QEMU's gdbstub names them. */
static const char *const gpr_names[GPRS] = {
	"rax", "rcx", "rdx", "rbx", "rsp", "rbp", "rsi", "rdi",
	"r8", "r9", "r10", "r11", "r12", "r13", "r14", "r15",
};

/* Register handles are the same for every vCPU; reads go to the running one. */
static struct qemu_plugin_register *gpr[GPRS], *cr3_reg, *cr4_reg, *gs_base_reg, *kernel_gs_reg,
	*eflags_reg;
GByteArray *reg_buf;

/* The vCPU running now, and the per-CPU pointers already matched to a CPU number. */
unsigned current;
static uint64_t cpu_keys[64];
static unsigned ncpu_keys;

/* One L1i line entered by a block, and its first instruction's CM_INSN_* flags. */
struct fetch {
	uint64_t va, pa;
	unsigned flags;
};

static struct cm_profile profile;
static struct cm_options opt;          /* the plugin's arguments (options.c) */
static unsigned nvcpus;
struct vcpu *vcpus;
static struct cm_cache l3;
static struct cm_regions *regions;
static struct cm_sections *sections;   /* irqtrace=on: preemption-off sections */
static unsigned fetch_line_shift;
static struct cm_pcprof *pcprof;        /* pcprof=on: instructions per block in global regions */
static int32_t pcprof_region = -1;      /* the global region open now, -1 none */
static struct cm_turns *turns;          /* turns=PATH: a line each time another vCPU runs */
static struct cm_epochs *epochs;
static struct cm_vclock *vclock;
struct cm_counts *final_counts;  /* every vCPU's counts at the exit-port write, or NULL */
bool sh4;                        /* qemu-system-sh4 (sh4.h): no registers, P1/P2, no data TLB */

/* The host address of guest physical 0 in RAM, learnt from code run before paging. */
bool code_delta_known;
uint64_t code_delta;

static pthread_mutex_t trans_lock = PTHREAD_MUTEX_INITIALIZER;

/* Translation-time records live in chunks that are never freed. */
#define CHUNK_BYTES (1u << 20)
static char *chunk;
static size_t chunk_used = CHUNK_BYTES;

static void *chunk_alloc(size_t n)
{
	if (chunk_used + n > CHUNK_BYTES) {
		chunk = malloc(CHUNK_BYTES);
		if (!chunk) {
			fprintf(stderr, "costmodel: out of memory\n");
			abort();
		}
		chunk_used = 0;
	}
	void *p = chunk + chunk_used;
	chunk_used += (n + 15) & ~(size_t)15;
	return p;
}

/* A recognised instruction, shared by every translation of the same bytes at the same address. */
#define SPECIALS_MAX 4096
static struct special *specials[SPECIALS_MAX];
static unsigned nspecials;

const struct special *intern(const struct cm_insn *insn, uint64_t va)
{
	for (unsigned i = 0; i < nspecials; i++)
		if (specials[i]->va == va && memcmp(&specials[i]->insn, insn, sizeof *insn) == 0)
			return specials[i];
	struct special *s = chunk_alloc(sizeof *s);
	memset(s, 0, sizeof *s);
	s->insn = *insn;
	s->va = va;
	if (nspecials < SPECIALS_MAX)
		specials[nspecials++] = s;
	return s;
}

/*
 * The page size and G bit of va.  The plugin cannot read page tables by
 * physical address on QEMU 10.0, so it follows Hako's layout
 * (kernel/arch/x86_64/mmu.c): the direct map of RAM uses 2 MiB pages,
 * device registers and everything else 4 KiB pages, and every kernel
 * (upper-half) mapping is global once CR4.PGE is on.  User 2 MiB pages
 * (the ICA window) are modelled as 4 KiB.  large= replaces the direct map
 * with other ranges (another guest's layout).
 */
static struct cm_page walk_page(uint64_t va, void *ctx)
{
	const struct vcpu *v = ctx;
	bool direct = false;
	for (unsigned i = 0; i < opt.nlarge && !direct; i++)
		direct = va >= opt.large[i].base && va - opt.large[i].base < opt.large[i].size;
	return (struct cm_page){
		.shift = direct && !v->io ? CM_PAGE_2M : CM_PAGE_4K,
		.global = (va >> 63) && (v->core.cr4 & CM_CR4_PGE),
	};
}

/* A register of the running vCPU (little endian, at most 64 bits). */
static uint64_t read_reg(struct qemu_plugin_register *r)
{
	if (!r)
		return 0;
	g_byte_array_set_size(reg_buf, 0);
	int n = qemu_plugin_read_register(r, reg_buf);
	uint64_t value = 0;
	for (int i = n < 8 ? n : 8; i-- > 0; )
		value = value << 8 | reg_buf->data[i];
	return value;
}

static uint64_t mem_operand(const struct special *s)
{
	uint64_t regs[GPRS] = { 0 };
	const struct cm_mem_operand *m = &s->insn.mem;
	if (m->base != CM_REG_NONE)
		regs[m->base] = read_reg(gpr[m->base]);
	if (m->index != CM_REG_NONE)
		regs[m->index] = read_reg(gpr[m->index]);
	return cm_mem_address(m, regs, s->va + s->insn.len);
}

/* The CPU number of the running vCPU, from Hako's per-CPU pointer; current if unknown. */
static unsigned identify(void)
{
	if (!gs_base_reg)
		return current;              /* SH-4: one CPU, no registers */
	uint64_t key = read_reg(gs_base_reg);
	if (!(key >> 63))
		key = read_reg(kernel_gs_reg);
	if (!(key >> 63))
		return current;
	for (unsigned i = 0; i < ncpu_keys; i++)
		if (cpu_keys[i] == key)
			return i < nvcpus ? i : current;
	g_byte_array_set_size(reg_buf, 0);
	if (!qemu_plugin_read_memory_vaddr(key + opt.cpu_id_offset, reg_buf, 4) || reg_buf->len < 4)
		return current;
	uint32_t id;
	memcpy(&id, reg_buf->data, 4);
	if (id >= nvcpus || id >= 64)
		return current;
	cpu_keys[id] = key;
	if (ncpu_keys <= id)
		ncpu_keys = id + 1;
	return id;
}

/* Every vCPU's counts now. */
static struct cm_counts *sync_counts(void)
{
	static struct cm_counts *now;
	if (!now)
		now = calloc(nvcpus, sizeof *now);
	for (unsigned i = 0; i < nvcpus; i++)
		now[i] = vcpus[i].core.n;
	return now;
}

/* A vCPU's cumulative work, for its virtual clock. */
static struct cm_work work_of(unsigned vcpu)
{
	const struct cm_counts *n = &vcpus[vcpu].core.n;
	return (struct cm_work){ cm_cycles(n, &profile), n->v[CM_INSNS] };
}

/* The running vCPU's. */
static struct cm_work work_now(void)
{
	return work_of(current);
}

/* An instruction about to run, with its CM_INSN_* flags. */
static void count_insn(struct vcpu *v, unsigned flags)
{
	bool in = flags & CM_INSN_IN_HANDLER;
	if (in != v->core.in_handler)
		cm_core_in_handler(&v->core, in);
	v->core.n.v[CM_INSNS]++;
	v->core.n.v[CM_PAIRED] += (flags & CM_INSN_PAIRED) != 0;
	if (v->pc_count)
		(*v->pc_count)++;
}

static void on_insn(unsigned int vcpu_ignored, void *ud)
{
	count_insn(&vcpus[current], (unsigned)(uintptr_t)ud);
}

/* The first instruction in a new L1i line. */
static void on_fetch(unsigned int vcpu_ignored, void *ud)
{
	const struct fetch *f = ud;
	struct vcpu *v = &vcpus[current];
	count_insn(v, f->flags);
	v->io = false;
	if (sh4 && !cm_sh4_translated(f->va))
		cm_core_fetch_untranslated(&v->core, f->pa);
	else
		cm_core_fetch(&v->core, f->va, f->pa);
}

/* The first instruction of a block: find out which vCPU runs it. */
static void on_block(unsigned int vcpu_ignored, void *ud)
{
	current = identify();
	const struct fetch *f = ud;
	if (turns && !final_counts)      /* after the exit write the turns are host-timed */
		cm_turns_note(turns, current, f->va, vcpus[current].core.n.v[CM_INSNS]);
	if (pcprof) {
		vcpus[current].pc_count = pcprof_region < 0 ? NULL :
			cm_pcprof_counter(pcprof, (uint32_t)pcprof_region, current, f->va);
	}
	on_fetch(vcpu_ignored, ud);
}

static void on_mem(unsigned int vcpu_ignored, qemu_plugin_meminfo_t info, uint64_t va, void *ud)
{
	struct vcpu *v = &vcpus[current];
	struct qemu_plugin_hwaddr *hw = qemu_plugin_get_hwaddr(info, va);
	uint64_t pa = hw ? qemu_plugin_hwaddr_phys_addr(hw) : va;
	v->io = hw && qemu_plugin_hwaddr_is_io(hw);
	bool store = qemu_plugin_mem_is_store(info);
	if (v->io)
		cm_core_mmio(&v->core, va, pa, store);
	else if (store && ud)            /* a rep stos or movs element (on_special read its count) */
		cm_core_store_string(&v->core, va, pa, v->string_left);
	else if (store)
		cm_core_store(&v->core, va, pa);
	else
		cm_core_data(&v->core, va, pa, false);
}

/* The guest writes the exit port: its counts end here (see the top of the file). */
void on_exit_port(unsigned int vcpu_ignored, void *ud)
{
	if (final_counts)
		return;
	final_counts = malloc(nvcpus * sizeof *final_counts);
	if (final_counts)
		memcpy(final_counts, sync_counts(), nvcpus * sizeof *final_counts);
}

/* in, out: one port access (ud: its enum cm_io), before the instruction runs. */
static void on_port(unsigned int vcpu_ignored, void *ud)
{
	cm_core_io(&vcpus[current].core, (enum cm_io)(uintptr_t)ud, 1);
}

/* An element of ins or outs: its memory side, and the port access that goes with it. */
static void on_port_string(unsigned int vcpu_ignored, qemu_plugin_meminfo_t info, uint64_t va, void *ud)
{
	on_mem(vcpu_ignored, info, va, NULL);
	cm_core_io(&vcpus[current].core, (enum cm_io)(uintptr_t)ud, 1);
}

/* The instruction at an epoch=ADDR address (ud: the address) is about to run. */
static void on_epoch(unsigned int vcpu_ignored, void *ud)
{
	if (final_counts)
		return;
	uint64_t args[CM_EPOCH_ARGS] = { read_reg(gpr[7]), read_reg(gpr[6]), read_reg(gpr[2]) };
	if (cm_epochs_start(epochs, (uint64_t)(uintptr_t)ud, args, sync_counts()) < 0)
		fprintf(stderr, "costmodel: out of memory for epochs\n");
}

static bool is_among(const uint64_t *addrs, unsigned n, uint64_t va)
{
	for (unsigned i = 0; i < n; i++)
		if (addrs[i] == va)
			return true;
	return false;
}

/* The first instruction of a lock release function: the lock is in rdi. */
static void on_release(unsigned int vcpu_ignored, void *ud)
{
	if (final_counts)
		return;
	cm_vclock_release(vclock, current, work_now(), read_reg(gpr[7]));
}

/* pcprof=on: follow the global region open now (the last GLOBAL_BEGIN not yet ended). */
static void pcprof_marker(uint32_t disp)
{
	unsigned op = (disp >> HAKO_REGION_OP_SHIFT) & HAKO_REGION_OP_MASK;
	if (op == HAKO_REGION_GLOBAL_BEGIN)
		pcprof_region = (int32_t)(disp & HAKO_REGION_ID_MASK);
	else if (op == HAKO_REGION_GLOBAL_END)
		pcprof_region = -1;
	else
		return;
	for (unsigned i = 0; i < nvcpus; i++)
		vcpus[i].pc_count = NULL;    /* the next block looks its counter up again */
}

/* A region or sync marker with its arguments (rax and rdx on x86). */
void apply_marker(uint32_t marker, uint64_t arg, uint64_t arg2)
{
	unsigned op = (marker >> HAKO_REGION_OP_SHIFT) & HAKO_REGION_OP_MASK;
	if (op == HAKO_SYNC_HOST_WAIT) {
		host_wait(arg, arg2);
		return;
	}
	if (op >= HAKO_SYNC_POST) {
		uint64_t ns = arg2;          /* SERVICE: ns = instructions at icount shift 0 */
		cm_vclock_marker(vclock, marker, current, work_now(), arg,
				 (struct cm_work){ ns * opt.clock_mhz / 1000, ns });
		return;
	}
	if (pcprof)
		pcprof_marker(marker);
	if (!cm_sections_marker(sections, marker, current, sync_counts(), arg)) {
		cm_regions_marker(regions, marker, current, sync_counts());
		if (((marker >> HAKO_REGION_OP_SHIFT) & HAKO_REGION_OP_MASK) == HAKO_REGION_GLOBAL_BEGIN)
			for (unsigned i = 0; i < nvcpus; i++)   /* every clock up to now first */
				cm_vclock_now(vclock, i, work_of(i));
		cm_vclock_region(vclock, marker, current, work_now());
	}
}

/* Runs before the recognised instruction; the source registers hold the new values. */
void on_special(unsigned int vcpu_ignored, void *ud)
{
	const struct special *s = ud;
	struct vcpu *v = &vcpus[current];
	if (final_counts)
		return;
	switch (s->insn.kind) {
	case CM_INSN_MOV_CR3:
		cm_core_write_cr3(&v->core, read_reg(gpr[s->insn.reg]));
		break;
	case CM_INSN_MOV_CR4:
		cm_core_write_cr4(&v->core, read_reg(gpr[s->insn.reg]));
		break;
	case CM_INSN_INVLPG:
		cm_core_invlpg(&v->core, mem_operand(s));
		break;
	case CM_INSN_INVPCID: {
		uint64_t type = read_reg(gpr[s->insn.reg]), desc[2] = { 0, 0 };
		g_byte_array_set_size(reg_buf, 0);
		if (qemu_plugin_read_memory_vaddr(mem_operand(s), reg_buf, 16) && reg_buf->len >= 16)
			memcpy(desc, reg_buf->data, 16);
		cm_core_invpcid(&v->core, type, (uint16_t)(desc[0] & 0xFFF), desc[1]);
		break;
	}
	case CM_INSN_WBINVD:
	case CM_INSN_INVD:
		cm_core_empty_caches(&v->core, s->insn.kind == CM_INSN_WBINVD);
		break;
	case CM_INSN_MARKER:             /* SH-4's with an argument: on_marker_store */
		apply_marker(s->insn.marker, read_reg(gpr[0]), read_reg(gpr[2]));
		break;
	case CM_INSN_HLT:
		v->halts++;
		break;
	case CM_INSN_REP_STORE:
		v->string_left = string_left(read_reg(gpr[1]), read_reg(eflags_reg), s->insn.size);
		break;
	case CM_INSN_PAUSE:
		cm_vclock_pause(vclock, current, work_now(), s->va);
		break;
	case CM_INSN_PORT_IN:        /* on_port and on_port_string price these */
	case CM_INSN_PORT_OUT:
	case CM_INSN_PORT_INS:
	case CM_INSN_PORT_OUTS:
	case CM_INSN_OTHER:
		break;
	case CM_INSN_LDTLB:          /* the UTLB is the kernel's; the ITLB keeps its copies */
	case CM_INSN_CACHE_LINE:     /* the line is in a register QEMU does not give (sh4.h) */
	case CM_INSN_PREF:
		break;
	}
}

static void on_translate(qemu_plugin_id_t id, struct qemu_plugin_tb *tb)
{
	size_t n = qemu_plugin_tb_n_insns(tb);
	uint64_t last_line = 0;
	int group = -1;
	pthread_mutex_lock(&trans_lock);
	for (size_t i = 0; i < n; i++) {
		struct qemu_plugin_insn *insn = qemu_plugin_tb_get_insn(tb, i);
		uint64_t va = qemu_plugin_insn_vaddr(insn);
		unsigned flags = (sh4 ? pairs_sh4(insn, i, &group) : 0) |
			(va >= opt.handler_start && va < opt.handler_end ? CM_INSN_IN_HANDLER : 0);
		if (i == 0 || va >> fetch_line_shift != last_line) {
			struct fetch *f = chunk_alloc(sizeof *f);
			f->va = va;
			f->flags = flags;
			f->pa = sh4 ? code_phys_sh4(va, qemu_plugin_insn_haddr(insn)) :
				code_phys(va, qemu_plugin_insn_haddr(insn));
			if (i == 0)
				qemu_plugin_register_vcpu_insn_exec_cb(insn, on_block, QEMU_PLUGIN_CB_R_REGS, f);
			else
				qemu_plugin_register_vcpu_insn_exec_cb(insn, on_fetch, QEMU_PLUGIN_CB_NO_REGS, f);
			last_line = va >> fetch_line_shift;
		} else {
			qemu_plugin_register_vcpu_insn_exec_cb(insn, on_insn, QEMU_PLUGIN_CB_NO_REGS,
							       (void *)(uintptr_t)flags);
		}
		if (is_among(opt.release_addrs, opt.nrelease_addrs, va))
			qemu_plugin_register_vcpu_insn_exec_cb(insn, on_release, QEMU_PLUGIN_CB_R_REGS, NULL);
		if (is_among(opt.epoch_addrs, opt.nepoch_addrs, va))
			qemu_plugin_register_vcpu_insn_exec_cb(insn, on_epoch, QEMU_PLUGIN_CB_R_REGS,
							       (void *)(uintptr_t)va);
		struct cm_insn d;
		if (sh4) {
			decode_sh4(insn, i, va, &d);
			translate_sh4(tb, i, n, &d, va);
			continue;
		} else {
			uint8_t bytes[16];
			size_t len = qemu_plugin_insn_data(insn, bytes, sizeof bytes);
			cm_decode(bytes, len < qemu_plugin_insn_size(insn) ? 0 : len, &d);
		}
		if (d.kind == CM_INSN_PORT_OUT && d.port == opt.exit_port)
			qemu_plugin_register_vcpu_insn_exec_cb(insn, on_exit_port, QEMU_PLUGIN_CB_NO_REGS, NULL);
		switch (d.kind) {
		case CM_INSN_PORT_IN:
		case CM_INSN_PORT_OUT:
			qemu_plugin_register_vcpu_insn_exec_cb(insn, on_port, QEMU_PLUGIN_CB_NO_REGS,
				(void *)(uintptr_t)(d.kind == CM_INSN_PORT_IN ? CM_IO_PORT_READ : CM_IO_PORT_WRITE));
			break;
		case CM_INSN_PORT_INS:       /* on_port_string, below */
		case CM_INSN_PORT_OUTS:
		case CM_INSN_OTHER:
			break;
		default:
			qemu_plugin_register_vcpu_insn_exec_cb(insn, on_special, QEMU_PLUGIN_CB_R_REGS,
							       (void *)intern(&d, va));
		}
		if (d.kind == CM_INSN_PORT_INS || d.kind == CM_INSN_PORT_OUTS)
			qemu_plugin_register_vcpu_mem_cb(insn, on_port_string, QEMU_PLUGIN_CB_NO_REGS,
				QEMU_PLUGIN_MEM_RW, (void *)(uintptr_t)(d.kind == CM_INSN_PORT_INS ?
									CM_IO_PORT_READ : CM_IO_PORT_WRITE));
		else
			qemu_plugin_register_vcpu_mem_cb(insn, on_mem, QEMU_PLUGIN_CB_NO_REGS, QEMU_PLUGIN_MEM_RW,
							 (void *)(uintptr_t)(d.kind == CM_INSN_REP_STORE));
	}
	pthread_mutex_unlock(&trans_lock);
}

/* Find the registers by their gdbstub names (README lists them); the first vCPU is enough. */
static void on_vcpu_init(qemu_plugin_id_t id, unsigned int vcpu)
{
	if (vcpu != 0)
		return;
	reg_buf = g_byte_array_new();
	GArray *regs = qemu_plugin_get_registers();
	const qemu_plugin_reg_descriptor *d = (const qemu_plugin_reg_descriptor *)regs->data;
	for (unsigned i = 0; i < regs->len; i++) {
		if (opt.show_regs)
			fprintf(stderr, "costmodel: register %s (%s)\n", d[i].name,
				d[i].feature ? d[i].feature : "-");
		for (int g = 0; g < GPRS; g++)
			if (strcmp(d[i].name, gpr_names[g]) == 0)
				gpr[g] = d[i].handle;
		if (strcmp(d[i].name, "cr3") == 0)
			cr3_reg = d[i].handle;
		else if (strcmp(d[i].name, "cr4") == 0)
			cr4_reg = d[i].handle;
		else if (strcmp(d[i].name, "eflags") == 0)
			eflags_reg = d[i].handle;
		else if (strcmp(d[i].name, "gs_base") == 0)
			gs_base_reg = d[i].handle;
		else if (strcmp(d[i].name, "k_gs_base") == 0)
			kernel_gs_reg = d[i].handle;
	}
	g_array_free(regs, 1);
	if (!sh4 && (!cr3_reg || !cr4_reg || !gs_base_reg || !kernel_gs_reg || !gpr[GPRS - 1]))
		fprintf(stderr, "costmodel: QEMU does not name cr3, cr4, gs_base, k_gs_base and r15\n");
	uint64_t cr4 = read_reg(cr4_reg);
	for (unsigned i = 0; i < nvcpus; i++)
		vcpus[i].core.cr4 = cr4;     /* every vCPU starts from reset */
}

static void on_idle(qemu_plugin_id_t id, unsigned int vcpu)
{
	if (vcpu < nvcpus)
		vcpus[vcpu].idle_entries++;
}

static FILE *out;

static void print_region(const struct cm_region_row *row, void *arg)
{
	char counts[1024];
	cm_counts_json(&row->n, &profile, counts, sizeof counts);
	struct cm_work elapsed = cm_vclock_elapsed(vclock, row->region, row->vcpu);
	fprintf(out, "{\"kind\":\"region\",\"region\":%u,\"vcpu\":%u,\"spans\":%" PRIu64 ",%s"
		",\"elapsed_cycles\":%" PRIu64 ",\"elapsed_insns\":%" PRIu64 "}\n",
		row->region, row->vcpu, row->spans, counts, elapsed.cycles, elapsed.insns);
}

static void print_section(const struct cm_section_row *row, void *arg)
{
	char counts[1024];
	cm_counts_json(&row->longest, &profile, counts, sizeof counts);
	fprintf(out, "{\"kind\":\"section\",\"region\":%u,\"epoch\":%u,\"ctx\":%u,\"vcpu\":%u,"
		"\"spans\":%" PRIu64 ",\"site\":\"0x%" PRIx64 "\",%s}\n", row->region, row->epoch, row->ctx,
		row->vcpu, row->spans, row->site, counts);
}

static void print_pcprof(const struct cm_pcprof_row *row, void *arg)
{
	fprintf(out, "{\"kind\":\"pcprof\",\"region\":%u,\"vcpu\":%u,\"pc\":\"0x%" PRIx64
		"\",\"insns\":%" PRIu64 "}\n", row->region, row->vcpu, row->pc, row->insns);
}

static void print_epoch(const struct cm_epoch_row *row, void *arg)
{
	char counts[1024];
	cm_counts_json(&row->n, &profile, counts, sizeof counts);
	fprintf(out, "{\"kind\":\"epoch\",\"seq\":%u,\"at\":\"0x%" PRIx64 "\",\"args\":[%" PRIu64
		",%" PRIu64 ",%" PRIu64 "],\"vcpu\":%u,%s}\n", row->seq, row->at, row->args[0],
		row->args[1], row->args[2], row->vcpu, counts);
}

static void on_atexit(qemu_plugin_id_t id, void *ud)
{
	struct cm_counts *now = final_counts ? final_counts : sync_counts();
	cm_regions_close(regions, now);
	cm_epochs_close(epochs, now);
	cm_turns_close(turns);
	out = opt.out_path ? fopen(opt.out_path, "w") : stderr;
	if (!out) {
		perror(opt.out_path);
		return;
	}
	char text[2048];
	cm_profile_json(&profile, text, sizeof text);
	fprintf(out, "{\"kind\":\"profile\",%s}\n", text);
	for (unsigned i = 0; i < nvcpus; i++) {
		cm_counts_json(&now[i], &profile, text, sizeof text);
		struct cm_work clock = cm_vclock_now(vclock, i, (struct cm_work){
			cm_cycles(&now[i], &profile), now[i].v[CM_INSNS] });
		fprintf(out, "{\"kind\":\"vcpu\",\"vcpu\":%u,%s,\"halts\":%" PRIu64
			",\"idle_entries\":%" PRIu64 ",\"clock_cycles\":%" PRIu64 ",\"clock_insns\":%" PRIu64
			"}\n", i, text, vcpus[i].halts, vcpus[i].idle_entries, clock.cycles, clock.insns);
	}
	cm_regions_each(regions, print_region, NULL);
	cm_sections_each(sections, print_section, NULL);
	if (pcprof)
		cm_pcprof_each(pcprof, print_pcprof, NULL);
	cm_epochs_each(epochs, print_epoch, NULL);
	fprintf(out, "{\"kind\":\"markers\",\"ignored\":%" PRIu64 ",\"sync_dropped\":%" PRIu64
		",\"device_late\":%" PRIu64 ",%s}\n",
		cm_regions_ignored(regions), cm_vclock_dropped(vclock), cm_vclock_late(vclock),
		host_waits_json(text, sizeof text));
	if (out != stderr)
		fclose(out);
}

/* The arguments (options.c), then the profile they name. */
static int parse_args(int argc, char **argv)
{
	char err[512];
	if (cm_options_parse(argc, argv, &opt, err, sizeof err) < 0 ||
	    cm_profile_load(opt.profile_path, &profile, err, sizeof err) < 0) {
		fprintf(stderr, "costmodel: %s\n", err);
		return -1;
	}
	if (opt.l2_off && cm_profile_disable_l2(&profile) < 0) {
		fprintf(stderr, "costmodel: %s: name too long for l2=off\n", opt.profile_path);
		return -1;
	}
	if (opt.pcprof && !(pcprof = cm_pcprof_new()))
		return -1;
	if (opt.turns_path && !(turns = cm_turns_open(opt.turns_path))) {
		fprintf(stderr, "costmodel: cannot write turns to %s\n", opt.turns_path);
		return -1;
	}
	return 0;
}

CM_EXPORT int qemu_plugin_install(qemu_plugin_id_t id, const qemu_info_t *info, int argc, char **argv)
{
	sh4 = strcmp(info->target_name, "sh4") == 0;
	if (!info->system_emulation || (strcmp(info->target_name, "x86_64") != 0 && !sh4)) {
		fprintf(stderr, "costmodel: needs qemu-system-x86_64 or qemu-system-sh4\n");
		return -1;
	}
	if (parse_args(argc, argv) < 0)
		return -1;
	nvcpus = (unsigned)info->system.max_vcpus;
	vcpus = calloc(nvcpus, sizeof *vcpus);
	regions = cm_regions_new(nvcpus);
	sections = cm_sections_new(nvcpus);
	epochs = cm_epochs_new(nvcpus);
	vclock = cm_vclock_new(nvcpus);
	if (!vcpus || !regions || !sections || !epochs || !vclock || (profile.l3.size && !cm_cache_init(&l3, &profile.l3)))
		return -1;
	for (unsigned i = 0; i < nvcpus; i++)
		if (!cm_core_init(&vcpus[i].core, &profile, profile.l3.size ? &l3 : NULL,
				  walk_page, &vcpus[i]))
			return -1;
	while ((1u << fetch_line_shift) < profile.l1i.line)
		fetch_line_shift++;
	qemu_plugin_register_vcpu_init_cb(id, on_vcpu_init);
	qemu_plugin_register_vcpu_idle_cb(id, on_idle);
	qemu_plugin_register_vcpu_tb_trans_cb(id, on_translate);
	qemu_plugin_register_atexit_cb(id, on_atexit, NULL);
	return 0;
}
