/*
 * plugin_sh4.c — the cost-model plugin on qemu-system-sh4 (sh4.h for the
 * address space, plugin.c for the rest): SH-4 code's physical addresses,
 * its decoding with the region marker's bytes, and the memory callbacks.
 *
 * QEMU 10.0 gives SH-4 plugins no registers (qemu_plugin_get_registers is
 * empty: the target has no gdb XML), so nothing here reads one: a
 * marker's argument comes from the store in its delay slot
 * (kernel/arch/sh4/include/arch/region.h), the ASID from the store to
 * PTEH, and there is one vCPU.
 */
#include <string.h>

#include "plugin.h"
#include "sh4.h"
#include "../../kernel/uapi/hako_region.h"

/* The value a store wrote, widened. */
static uint64_t mem_value(qemu_plugin_meminfo_t info)
{
	qemu_plugin_mem_value v = qemu_plugin_mem_get_value(info);
	switch (v.type) {
	case QEMU_PLUGIN_MEM_VALUE_U8: return v.data.u8;
	case QEMU_PLUGIN_MEM_VALUE_U16: return v.data.u16;
	case QEMU_PLUGIN_MEM_VALUE_U32: return v.data.u32;
	default: return v.data.u64;
	}
}

/*
 * SH-4: no data TLB (sh4.h); a device register's store may change the
 * ITLB's ASID or flush it, and the r2d's power-off store ends the counts.
 * QEMU 10.0's hwaddr lookup fails now and then on SH-4 ("invalid use of
 * qemu_plugin_get_hwaddr"): then P1/P2 give the physical address and P4
 * says what is a register.
 */
static void on_mem_sh4(unsigned int vcpu_ignored, qemu_plugin_meminfo_t info, uint64_t va, void *ud)
{
	struct vcpu *v = &vcpus[current];
	struct qemu_plugin_hwaddr *hw = qemu_plugin_get_hwaddr(info, va);
	uint64_t pa = hw ? qemu_plugin_hwaddr_phys_addr(hw) : cm_sh4_phys(va);
	bool store = qemu_plugin_mem_is_store(info);
	if (!(hw ? qemu_plugin_hwaddr_is_io(hw) : cm_sh4_register(va))) {
		if (store)
			cm_core_store_untranslated(&v->core, pa);
		else
			cm_core_data_untranslated(&v->core, pa);
		return;
	}
	if (store && cm_sh4_register_store(&v->core, va, pa, mem_value(info)))
		on_exit_port(vcpu_ignored, NULL);
	cm_core_mmio_untranslated(&v->core, store);
}

/*
 * SH-4: the delay slot of a marker with an argument stores it
 * (kernel/arch/sh4/include/arch/region.h): the value comes from the store,
 * a second argument from the word after it.
 */
static void on_marker_store(unsigned int vcpu_ignored, qemu_plugin_meminfo_t info, uint64_t va, void *ud)
{
	const struct special *s = ud;
	uint32_t arg2 = 0;
	if (final_counts)
		return;
	g_byte_array_set_size(reg_buf, 0);
	if (((s->insn.marker >> HAKO_REGION_OP_SHIFT) & HAKO_REGION_OP_MASK) == HAKO_SYNC_SERVICE &&
	    qemu_plugin_read_memory_vaddr(va + 4, reg_buf, 4) && reg_buf->len >= 4)
		memcpy(&arg2, reg_buf->data, 4);
	apply_marker(s->insn.marker, mem_value(info), arg2);
}

/* SH-4: P1/P2 code is at va & 0x1fffffff from the first instruction on (the
 * kernel runs there), which gives the host offset for U0 code. */
uint64_t code_phys_sh4(uint64_t va, const void *haddr)
{
	uint64_t h = (uint64_t)(uintptr_t)haddr;
	if (!cm_sh4_translated(va)) {
		uint64_t pa = cm_sh4_phys(va);
		if (!code_delta_known && haddr) {
			code_delta = h - pa;
			code_delta_known = true;
		}
		return pa;
	}
	if (haddr && code_delta_known && h - code_delta < (1ull << 32))
		return h - code_delta;
	return va;
}

/*
 * SH-4: the instruction at index i of tb, decoded; a `bra` that may be a
 * marker is read with the seven bytes after it.  At index 0 the bytes
 * before are looked at too: a block cut between a marker's branch and its
 * delay slot (icount's budget) starts with the argument's store, which
 * is then decoded as the marker (arg_store).
 */
/*
 * The marker's bytes at va + off (off 0 or -2) into b: from the block's
 * host copy when they lie in the page of va (host address h), else read
 * through the guest's MMU (a marker across a page boundary); false if
 * they cannot be read.
 */
static bool marker_bytes(uint64_t va, const uint8_t *h, int off, uint8_t *b)
{
	uint64_t at = va + (uint64_t)(int64_t)off, page = va & ~0xfffull;
	if (h && at >= page && at + HAKO_REGION_SH4_BYTES <= page + 0x1000) {
		memcpy(b, h + off, HAKO_REGION_SH4_BYTES);
		return true;
	}
	g_byte_array_set_size(reg_buf, 0);
	if (!qemu_plugin_read_memory_vaddr(at, reg_buf, HAKO_REGION_SH4_BYTES) ||
	    reg_buf->len < HAKO_REGION_SH4_BYTES)
		return false;
	memcpy(b, reg_buf->data, HAKO_REGION_SH4_BYTES);
	return true;
}

void decode_sh4(struct qemu_plugin_insn *insn, size_t i, uint64_t va, struct cm_insn *d)
{
	uint8_t b[HAKO_REGION_SH4_BYTES];
	const uint8_t *h = qemu_plugin_insn_haddr(insn);
	size_t n = qemu_plugin_insn_data(insn, b, 2);
	cm_decode_sh4(b, n, d);
	if (n == 2 && (b[0] | b[1] << 8) == HAKO_REGION_SH4_BRA) {
		if (marker_bytes(va, h, 0, b))
			cm_decode_sh4(b, HAKO_REGION_SH4_BYTES, d);
	} else if (i == 0 && n == 2 && marker_bytes(va, h, -2, b)) {
		struct cm_insn m;
		cm_decode_sh4(b, HAKO_REGION_SH4_BYTES, &m);
		if (m.kind == CM_INSN_MARKER && m.arg_store)
			*d = m;
	}
}

/*
 * SH-4: the callbacks of instruction i of n besides its count and fetch:
 * the memory model's, and a recognised instruction's.  A marker with an
 * argument acts at its delay slot's store (on_marker_store): the next
 * instruction, or this one when the block starts at the slot; a block
 * that ends at the branch leaves it to the next block's first.
 */
void translate_sh4(struct qemu_plugin_tb *tb, size_t i, size_t n, const struct cm_insn *d,
			  uint64_t va)
{
	struct qemu_plugin_insn *insn = qemu_plugin_tb_get_insn(tb, i);
	qemu_plugin_register_vcpu_mem_cb(insn, on_mem_sh4, QEMU_PLUGIN_CB_NO_REGS, QEMU_PLUGIN_MEM_RW, NULL);
	if (d->kind == CM_INSN_MARKER && d->arg_store) {
		uint8_t b[2] = { 0, 0 };
		qemu_plugin_insn_data(insn, b, 2);
		bool branch = (b[0] | b[1] << 8) == HAKO_REGION_SH4_BRA;
		struct qemu_plugin_insn *slot = !branch ? insn : i + 1 < n ? qemu_plugin_tb_get_insn(tb, i + 1) : NULL;
		if (slot)
			qemu_plugin_register_vcpu_mem_cb(slot, on_marker_store, QEMU_PLUGIN_CB_NO_REGS,
							 QEMU_PLUGIN_MEM_W, (void *)intern(d, va));
	} else if (d->kind == CM_INSN_MARKER || d->kind == CM_INSN_HLT) {
		qemu_plugin_register_vcpu_insn_exec_cb(insn, on_special, QEMU_PLUGIN_CB_NO_REGS,
						       (void *)intern(d, va));
	}
}

/*
 * SH-4 dual issue within a block (decode.h's cm_sh4_issue): a block's
 * first instruction opens a cycle, since the one run before it may be
 * anywhere.
 */
unsigned pairs_sh4(struct qemu_plugin_insn *insn, size_t i, int *prev)
{
	uint8_t b[2];
	if (i == 0)
		*prev = -1;
	if (qemu_plugin_insn_data(insn, b, 2) < 2) {
		*prev = -1;
		return 0;
	}
	return cm_sh4_issue(prev, (uint16_t)(b[0] | b[1] << 8)) ? CM_INSN_PAIRED : 0;
}
