/*
 * model.c — one modelled core and the cycle formula (model.h).
 */
#include <stdio.h>
#include <string.h>

#include "model.h"

const char *const cm_count_names[CM_NCOUNTS] = {
	[CM_INSNS] = "insns",
	[CM_ITLB_MISS] = "itlb_miss", [CM_DTLB_MISS] = "dtlb_miss",
	[CM_STLB_MISS] = "stlb_miss", [CM_WALKS] = "walks", [CM_WALK_CYCLES] = "walk_cycles",
	[CM_L1I_MISS] = "l1i_miss", [CM_L1D_MISS] = "l1d_miss",
	[CM_L2_MISS] = "l2_miss", [CM_L3_MISS] = "l3_miss", [CM_STREAM_MISS] = "stream_miss", [CM_WB] = "wb",
	[CM_MEM_CYCLES] = "mem_cycles",
	[CM_IO_READS] = "io_reads", [CM_IO_WRITES] = "io_writes", [CM_IO_CYCLES] = "io_cycles",
	[CM_L1I_CYCLES] = "l1i_cycles", [CM_PAIRED] = "paired",
	[CM_HANDLER_INSNS] = "handler_insns", [CM_HANDLER_PAIRED] = "handler_paired",
	[CM_HANDLER_CYCLES] = "handler_cycles",
	[CM_HANDLER_L1I_CYCLES] = "handler_l1i_cycles", [CM_HANDLER_MEM_CYCLES] = "handler_mem_cycles",
};

bool cm_core_init(struct cm_core *c, const struct cm_profile *p, struct cm_cache *l3,
		  cm_walk_fn walk, void *walk_ctx)
{
	memset(c, 0, sizeof *c);
	c->p = p;
	c->l3 = l3;
	c->walk = walk;
	c->walk_ctx = walk_ctx;
	return cm_tlbs_init(&c->tlbs, p) && cm_cache_init(&c->l1i, &p->l1i) &&
	       cm_cache_init(&c->l1d, &p->l1d) && (!p->l2.size || cm_cache_init(&c->l2, &p->l2));
}

void cm_core_free(struct cm_core *c)
{
	cm_tlbs_free(&c->tlbs);
	cm_cache_free(&c->l1i);
	cm_cache_free(&c->l1d);
	cm_cache_free(&c->l2);
}

static void translate(struct cm_core *c, bool fetch, uint64_t va)
{
	enum cm_tlb_result r = cm_tlbs_translate(&c->tlbs, fetch, va, c->pcid, c->walk, c->walk_ctx);
	if (r == CM_TLB_L1)
		return;
	c->n.v[fetch ? CM_ITLB_MISS : CM_DTLB_MISS]++;
	if (r == CM_TLB_STLB) {
		c->n.v[CM_WALK_CYCLES] += c->p->stlb_hit_cycles;
		return;
	}
	c->n.v[CM_STLB_MISS] += c->tlbs.has_stlb;
	c->n.v[CM_WALKS]++;
	c->n.v[CM_WALK_CYCLES] += cm_walk_cost(c->p);
}

/* The L2 as the hierarchy sees it: NULL when the profile has none or it is off. */
static struct cm_cache *l2_of(struct cm_core *c)
{
	return c->p->l2_off || !c->p->l2.size ? NULL : &c->l2;
}

/* Count n write-backs; their cycles, which the caller adds. */
static uint64_t writebacks(struct cm_core *c, uint64_t n)
{
	c->n.v[CM_WB] += n;
	return n * c->p->write.writeback_cycles;
}

/* Add cost to mem_cycles (and to l1i_cycles for a fetch). */
static void charge(struct cm_core *c, enum cm_count l1_miss, uint64_t cost)
{
	c->n.v[CM_MEM_CYCLES] += cost;
	if (l1_miss == CM_L1I_MISS)
		c->n.v[CM_L1I_CYCLES] += cost;
}

/* The core's modelled cycles so far: its clock (model.h). */
static uint64_t now_of(const struct cm_core *c)
{
	return cm_cycles(&c->n, c->p);
}

static uint64_t max64(uint64_t a, uint64_t b)
{
	return a > b ? a : b;
}

/*
 * The memory bus takes a transfer of cycles as soon as it is free and
 * not before `from`; the cycle it ends.
 */
static uint64_t bus_take(struct cm_core *c, uint64_t from, uint64_t cycles)
{
	c->bus_free = max64(c->bus_free, from) + cycles;
	return c->bus_free;
}

/*
 * The cycle a line that missed l1 at pa, asked at cycle asked and held
 * by level, is there (model.h): a lone miss's latency after it is asked,
 * or, for a miss that continues a stream, its stream's next step
 * (stream.h) and, from memory, the bus's line time after the line before.
 */
static uint64_t fill_ready(struct cm_core *c, const struct cm_cache *l1, uint32_t l1_latency,
			   struct cm_streams *streams, uint64_t pa, enum cm_level level, uint64_t asked)
{
	const uint32_t latency[] = {
		[CM_L1] = l1_latency, [CM_L2] = c->p->l2.latency,
		[CM_L3] = c->p->l3.latency, [CM_MEM] = c->p->mem_latency,
	};
	struct cm_stream *s = NULL;
	bool continues = streams && cm_stream_miss(streams, &c->p->stream, pa >> l1->line_shift,
						   c->n.v[CM_INSNS], &s);
	c->n.v[CM_STREAM_MISS] += continues;
	uint32_t lat = latency[level] > l1_latency ? latency[level] - l1_latency : 0;
	uint64_t ready = asked + lat;
	if (continues) {
		ready = cm_stream_ready(&c->p->stream, s, lat, asked);
		if (level == CM_MEM)
			ready = max64(ready, c->bus_free + c->p->stream.mem_line_cycles);
	}
	if (level == CM_MEM)             /* its line's transfer ends when it is there */
		c->bus_free = max64(c->bus_free, ready);
	if (s)
		s->ready = ready;
	return ready;
}

/*
 * Look pa up from l1 down (a store: write, marking its line dirty) and
 * charge the cycles the core waits for it: until its line is there
 * (fill_ready).  Dirty lines the fill pushed to memory take the bus too:
 * the fill is asked after them without a write-back buffer, they follow
 * it with one.  A store that does not allocate waits only until the bus
 * takes it.  A string store that will write the whole line (whole) on a
 * machine with fast strings owns the line at once: nothing is read, only
 * its victims are written.
 */
static void charge_access(struct cm_core *c, struct cm_cache *l1, uint32_t l1_latency,
			  enum cm_count l1_miss, struct cm_streams *streams, uint64_t pa, bool write,
			  bool whole)
{
	uint32_t wb = 0;
	bool allocate = !write || c->p->write.allocate;
	enum cm_level level = write ? cm_hier_store(l1, l2_of(c), c->l3, pa, allocate, &wb)
				    : cm_hier_access(l1, l2_of(c), c->l3, pa, &wb);
	uint64_t wb_cost = writebacks(c, wb);
	if (level == CM_L1)
		return;                      /* a hit fills nothing: no write-back */
	c->n.v[l1_miss]++;
	c->n.v[CM_L2_MISS] += level > CM_L2;
	c->n.v[CM_L3_MISS] += level > CM_L3 && c->l3;
	uint64_t now = now_of(c);
	if (!allocate) {                 /* one write on the bus, no fill, no stream */
		uint64_t taken = max64(c->bus_free, now);
		bus_take(c, now, wb_cost + c->p->write.store_miss_cycles);
		charge(c, l1_miss, taken - now);
		return;
	}
	bool buffered = c->p->write.writeback_buffer;
	uint64_t asked = wb_cost && !buffered ? bus_take(c, now, wb_cost) : now;
	uint64_t ready = whole && c->p->write.fast_strings ? asked   /* an invalidation, no read */
		: fill_ready(c, l1, l1_latency, streams, pa, level, asked);
	if (wb_cost && buffered)
		bus_take(c, ready, wb_cost);
	charge(c, l1_miss, ready > now ? ready - now : 0);
}

void cm_core_fetch(struct cm_core *c, uint64_t va, uint64_t pa)
{
	translate(c, true, va);
	charge_access(c, &c->l1i, c->p->l1i.latency, CM_L1I_MISS, NULL, pa, false, false);
}

void cm_core_data(struct cm_core *c, uint64_t va, uint64_t pa, bool io)
{
	if (io) {
		cm_core_mmio(c, va, pa, false);
		return;
	}
	translate(c, false, va);
	charge_access(c, &c->l1d, c->p->l1d.latency, CM_L1D_MISS, &c->streams, pa, false, false);
}

void cm_core_store_string(struct cm_core *c, uint64_t va, uint64_t pa, uint64_t left)
{
	translate(c, false, va);
	uint64_t line = 1ull << c->l1d.line_shift;
	bool whole = !(pa & (line - 1)) && left >= line;
	charge_access(c, &c->l1d, c->p->l1d.latency, CM_L1D_MISS, &c->streams, pa, true, whole);
}

void cm_core_store(struct cm_core *c, uint64_t va, uint64_t pa)
{
	translate(c, false, va);
	charge_access(c, &c->l1d, c->p->l1d.latency, CM_L1D_MISS, &c->streams, pa, true, false);
}

void cm_core_mmio(struct cm_core *c, uint64_t va, uint64_t pa, bool write)
{
	translate(c, false, va);
	if (pa - CM_LAPIC_BASE < CM_LAPIC_SIZE)
		cm_core_io(c, write ? CM_IO_LAPIC_WRITE : CM_IO_LAPIC_READ, 1);
	else
		cm_core_io(c, write ? CM_IO_MMIO_WRITE : CM_IO_MMIO_READ, 1);
}

void cm_core_fetch_untranslated(struct cm_core *c, uint64_t pa)
{
	charge_access(c, &c->l1i, c->p->l1i.latency, CM_L1I_MISS, NULL, pa, false, false);
}

void cm_core_data_untranslated(struct cm_core *c, uint64_t pa)
{
	charge_access(c, &c->l1d, c->p->l1d.latency, CM_L1D_MISS, &c->streams, pa, false, false);
}

void cm_core_store_untranslated(struct cm_core *c, uint64_t pa)
{
	charge_access(c, &c->l1d, c->p->l1d.latency, CM_L1D_MISS, &c->streams, pa, true, false);
}

void cm_core_mmio_untranslated(struct cm_core *c, bool write)
{
	cm_core_io(c, write ? CM_IO_MMIO_WRITE : CM_IO_MMIO_READ, 1);
}

void cm_core_in_handler(struct cm_core *c, bool in)
{
	if (in == c->in_handler)
		return;
	c->in_handler = in;
	if (in) {
		c->handler_start = c->n;
		return;
	}
	struct cm_counts d = c->n;
	cm_counts_sub(&d, &c->handler_start);
	c->n.v[CM_HANDLER_INSNS] += d.v[CM_INSNS];
	c->n.v[CM_HANDLER_PAIRED] += d.v[CM_PAIRED];
	c->n.v[CM_HANDLER_CYCLES] += cm_cycles(&d, c->p);
	c->n.v[CM_HANDLER_L1I_CYCLES] += d.v[CM_L1I_CYCLES];
	c->n.v[CM_HANDLER_MEM_CYCLES] += d.v[CM_MEM_CYCLES];
}

void cm_core_io(struct cm_core *c, enum cm_io kind, uint64_t count)
{
	const struct cm_io_costs *io = &c->p->io;
	const uint32_t price[] = {
		[CM_IO_PORT_READ] = io->port_read, [CM_IO_PORT_WRITE] = io->port_write,
		[CM_IO_MMIO_READ] = io->mmio_read, [CM_IO_MMIO_WRITE] = io->mmio_write,
		[CM_IO_LAPIC_READ] = io->lapic, [CM_IO_LAPIC_WRITE] = io->lapic,
	};
	bool write = kind == CM_IO_PORT_WRITE || kind == CM_IO_MMIO_WRITE || kind == CM_IO_LAPIC_WRITE;
	c->n.v[write ? CM_IO_WRITES : CM_IO_READS] += count;
	c->n.v[CM_IO_CYCLES] += count * price[kind];
}

/*
 * SDM 4.10.4.1: with CR4.PCIDE clear, a CR3 load drops every non-global
 * entry.  With it set, the new PCID is CR3[11:0], and unless bit 63 of
 * the source is set the load drops that PCID's non-global entries; the
 * old PCID's entries stay.
 */
void cm_core_write_cr3(struct cm_core *c, uint64_t cr3)
{
	if (!(c->cr4 & CM_CR4_PCIDE)) {
		c->pcid = 0;
		cm_tlbs_flush_nonglobal(&c->tlbs);
		return;
	}
	c->pcid = (uint16_t)(cr3 & 0xFFF);
	if (!(cr3 & CM_CR3_NOFLUSH))
		cm_tlbs_flush_pcid(&c->tlbs, c->pcid);
}

/* A change of CR4.PGE, or clearing CR4.PCIDE, drops everything. */
void cm_core_write_cr4(struct cm_core *c, uint64_t cr4)
{
	uint64_t old = c->cr4;
	if (((old ^ cr4) & CM_CR4_PGE) || ((old & CM_CR4_PCIDE) && !(cr4 & CM_CR4_PCIDE)))
		cm_tlbs_flush_all(&c->tlbs);
	if (!(cr4 & CM_CR4_PCIDE))
		c->pcid = 0;
	c->cr4 = cr4;
}

void cm_core_invlpg(struct cm_core *c, uint64_t va)
{
	cm_tlbs_flush_page(&c->tlbs, va, c->pcid, true);
}

/* INVPCID types: 0 one address of a PCID, 1 one PCID, 2 everything, 3 all but globals. */
void cm_core_invpcid(struct cm_core *c, uint64_t type, uint16_t pcid, uint64_t va)
{
	if (type == 0)
		cm_tlbs_flush_page(&c->tlbs, va, pcid, false);
	else if (type == 1)
		cm_tlbs_flush_pcid(&c->tlbs, pcid);
	else if (type == 2)
		cm_tlbs_flush_all(&c->tlbs);
	else if (type == 3)
		cm_tlbs_flush_nonglobal(&c->tlbs);
}

void cm_core_empty_caches(struct cm_core *c, bool write_back)
{
	if (write_back)
		c->n.v[CM_MEM_CYCLES] += writebacks(c, cm_hier_dirty_lines(&c->l1d, l2_of(c), c->l3));
	cm_cache_empty(&c->l1i);
	cm_cache_empty(&c->l1d);
	if (c->p->l2.size)
		cm_cache_empty(&c->l2);
	if (c->l3)
		cm_cache_empty(c->l3);
	cm_streams_reset(&c->streams);
}

uint64_t cm_cycles(const struct cm_counts *n, const struct cm_profile *p)
{
	return (n->v[CM_INSNS] - n->v[CM_PAIRED]) * p->base_cpi_milli / 1000 + n->v[CM_WALK_CYCLES] +
	       n->v[CM_MEM_CYCLES] + n->v[CM_IO_CYCLES];
}

void cm_counts_add(struct cm_counts *a, const struct cm_counts *b)
{
	for (int i = 0; i < CM_NCOUNTS; i++)
		a->v[i] += b->v[i];
}

void cm_counts_sub(struct cm_counts *a, const struct cm_counts *b)
{
	for (int i = 0; i < CM_NCOUNTS; i++)
		a->v[i] -= b->v[i];
}

int cm_counts_json(const struct cm_counts *n, const struct cm_profile *p, char *buf, size_t len)
{
	size_t used = (size_t)snprintf(buf, len, "\"insns\":%llu,\"cycles\":%llu",
				       (unsigned long long)n->v[CM_INSNS],
				       (unsigned long long)cm_cycles(n, p));
	for (int i = CM_INSNS + 1; i < CM_NCOUNTS; i++)
		used += (size_t)snprintf(buf + (used < len ? used : len), used < len ? len - used : 0,
					 ",\"%s\":%llu", cm_count_names[i], (unsigned long long)n->v[i]);
	return (int)used;
}
