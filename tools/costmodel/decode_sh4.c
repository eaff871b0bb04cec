/*
 * decode_sh4.c — the cost model's SH-4 decoder (decode.h): the few 16-bit
 * instructions it acts on, and Hako's region marker, a `bra` over its own
 * word (uapi/hako_region.h).
 */
#include <string.h>

#include "decode.h"
#include "../../kernel/uapi/hako_region.h"

#define SH4_SLEEP 0x001Bu
#define SH4_LDTLB 0x0038u
/* 0000nnnn1xxx0011 with xxx: 000 pref, 001 ocbi, 010 ocbp, 011 ocbwb. */
#define SH4_REG_OP_MASK 0xF0FFu
#define SH4_PREF  0x0083u
#define SH4_OCBI  0x0093u
#define SH4_OCBP  0x00A3u
#define SH4_OCBWB 0x00B3u
/* mov.l Rm, @Rn: 0010nnnnmmmm0010. */
#define SH4_MOVL_STORE_MASK 0xF00Fu
#define SH4_MOVL_STORE      0x2002u

static uint16_t le16(const uint8_t *p)
{
	return (uint16_t)(p[0] | p[1] << 8);
}

/* The marker's eight bytes: bra +2, its slot, the word (low half first). */
static bool marker(const uint8_t *b, size_t n, struct cm_insn *out)
{
	if (n != HAKO_REGION_SH4_BYTES || le16(b) != HAKO_REGION_SH4_BRA)
		return false;
	uint16_t slot = le16(b + 2);
	uint32_t word = (uint32_t)le16(b + 4) | (uint32_t)le16(b + 6) << 16;
	bool store = (slot & SH4_MOVL_STORE_MASK) == SH4_MOVL_STORE;
	if ((word & HAKO_REGION_MAGIC_MASK) != HAKO_REGION_MAGIC || (slot != HAKO_REGION_SH4_NOP && !store))
		return false;
	out->kind = CM_INSN_MARKER;
	out->marker = word;
	out->arg_store = store;
	out->len = HAKO_REGION_SH4_BYTES;
	return true;
}

void cm_decode_sh4(const uint8_t *b, size_t n, struct cm_insn *out)
{
	memset(out, 0, sizeof *out);
	out->reg = CM_REG_NONE;
	if (n < 2 || marker(b, n, out))
		return;
	uint16_t op = le16(b);
	out->len = 2;
	if (op == SH4_SLEEP)
		out->kind = CM_INSN_HLT;
	else if (op == SH4_LDTLB)
		out->kind = CM_INSN_LDTLB;
	else if ((op & SH4_REG_OP_MASK) == SH4_PREF)
		out->kind = CM_INSN_PREF;
	else if ((op & SH4_REG_OP_MASK) == SH4_OCBI || (op & SH4_REG_OP_MASK) == SH4_OCBP ||
		 (op & SH4_REG_OP_MASK) == SH4_OCBWB)
		out->kind = CM_INSN_CACHE_LINE;
	if (out->kind == CM_INSN_PREF || out->kind == CM_INSN_CACHE_LINE)
		out->reg = (int8_t)((op >> 8) & 0xF);
}
