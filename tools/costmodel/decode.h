/*
 * decode.h — recognising, from its bytes, the few instructions the cost
 * model acts on, x86_64's (decode.c) and SH-4's (decode_sh4.c).
 * Everything else is CM_INSN_OTHER.
 *
 * x86_64: writes to CR3 and CR4, INVLPG, INVPCID, WBINVD, INVD, HLT,
 * PAUSE, the port I/O instructions and Hako's region marker
 * (uapi/hako_region.h).  Encodings from the Intel SDM vol. 2 (MOV to CR:
 * 0F 22 /r; INVLPG: 0F 01 /7 with a memory operand; INVPCID: 66 0F 38 82
 * /r; WBINVD: 0F 09; INVD: 0F 08; PAUSE: F3 90; IN: E4 ib, E5 ib, EC, ED;
 * OUT: E6 ib, E7 ib, EE, EF; INS: 6C, 6D; OUTS: 6E, 6F, each string form
 * with or without a REP prefix).
 *
 * A memory operand is returned as its parts (base, index, scale,
 * displacement, RIP-relative), for the caller to evaluate with the
 * registers it can read; segment overrides are ignored (Hako uses none
 * on these instructions) and so is the 0x67 address-size prefix.
 *
 * SH-4 (16-bit instructions, SH-4 software manual's instruction codes):
 * sleep 0x001B (as HLT), ldtlb 0x0038, ocbi 0x0n93, ocbp 0x0nA3, ocbwb
 * 0x0nB3, pref 0x0n83, and the region marker (a bra over its word).
 */
#ifndef COSTMODEL_DECODE_H
#define COSTMODEL_DECODE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum cm_insn_kind {
	CM_INSN_OTHER,
	CM_INSN_MARKER,              /* marker = the displacement */
	CM_INSN_MOV_CR3,             /* reg = the source register */
	CM_INSN_MOV_CR4,             /* reg = the source register */
	CM_INSN_INVLPG,              /* mem = the address */
	CM_INSN_INVPCID,             /* reg = the type's register, mem = the descriptor */
	CM_INSN_WBINVD,
	CM_INSN_INVD,
	CM_INSN_HLT,                 /* the vCPU goes idle until an interrupt */
	CM_INSN_PAUSE,               /* a spin-wait hint: a turn of a wait loop */
	CM_INSN_PORT_IN,             /* in: one port read */
	CM_INSN_PORT_OUT,            /* out: one port write */
	CM_INSN_PORT_INS,            /* ins: a port read per element (each a memory store) */
	CM_INSN_PORT_OUTS,           /* outs: a port write per element (each a memory load) */
	CM_INSN_REP_STORE,           /* rep stos, rep movs: size = the element's bytes */
	CM_INSN_LDTLB,               /* SH-4 ldtlb: PTEH/PTEL into the UTLB entry MMUCR.URC names */
	CM_INSN_CACHE_LINE,          /* SH-4 ocbi, ocbp, ocbwb: one operand-cache line, reg = Rn */
	CM_INSN_PREF,                /* SH-4 pref @Rn: a line fetch hint, reg = Rn */
};

#define CM_REG_NONE (-1)

/* base + index * scale + disp, plus the next instruction's address if rip. */
struct cm_mem_operand {
	int8_t base, index;          /* register numbers 0..15 (rax, rcx, ... r15) or CM_REG_NONE */
	uint8_t scale;               /* 1, 2, 4 or 8 */
	uint8_t rip;                 /* RIP-relative */
	int32_t disp;
};

struct cm_insn {
	enum cm_insn_kind kind;
	uint8_t len;                 /* bytes decoded (the whole instruction for these kinds) */
	int8_t reg;
	struct cm_mem_operand mem;
	uint32_t marker;
	int32_t port;                /* in, out with an immediate port: the port; -1 for one in dx */
	bool arg_store;              /* SH-4 marker: its delay slot stores the argument */
	uint8_t size;                /* CM_INSN_REP_STORE: bytes an element, 1, 2, 4 or 8 */
};

/* Classify the instruction at bytes[0..n). */
void cm_decode(const uint8_t *bytes, size_t n, struct cm_insn *out);

/*
 * Classify the SH-4 instruction at bytes[0..n): n is 2 (one instruction,
 * little endian), or HAKO_REGION_SH4_BYTES from a `bra` whose displacement
 * is HAKO_REGION_SH4_BRA's, for the region marker (uapi/hako_region.h):
 * CM_INSN_MARKER when its word has the magic and its delay slot is a nop
 * or a `mov.l Rm, @Rn` (arg_store).  len is 2, or 8 for the marker.
 */
void cm_decode_sh4(const uint8_t *bytes, size_t n, struct cm_insn *out);

/*
 * SH-4 dual issue (SH-4 hardware manual, section 8 "Pipelining",
 * instruction groups and parallel executability): every instruction is in
 * one of six groups, and two consecutive instructions issue in the same
 * cycle when their groups differ and neither is CO; two MT instructions
 * pair too.  The FPU's groups are kept although Hako's code has none.
 */
enum cm_sh4_group {
	CM_SH4_MT,                   /* moves between registers, compares, tst, nop */
	CM_SH4_EX,                   /* integer arithmetic, logic, shifts */
	CM_SH4_BR,                   /* bf, bt (with /s), bra, bsr */
	CM_SH4_LS,                   /* loads, stores, mova, pref, the cache-line ops */
	CM_SH4_FE,                   /* FPU arithmetic */
	CM_SH4_CO,                   /* the rest: issued alone */
};

/* The issue group of the SH-4 instruction op. */
enum cm_sh4_group cm_sh4_group(uint16_t op);

/* second may issue in the same cycle as first (the instruction before it). */
bool cm_sh4_pairs(enum cm_sh4_group first, enum cm_sh4_group second);

/*
 * Issue along a run of instructions, in order: true when op issues in the
 * same cycle as the instruction before it.  *slot is -1 at the start of
 * the run (nothing to pair with) and carries, from one call to the next,
 * the group of an instruction that opened a cycle alone (-1 once that
 * cycle is full).
 */
bool cm_sh4_issue(int *slot, uint16_t op);

/* The address mem names, given the 16 general registers and the next instruction's address. */
uint64_t cm_mem_address(const struct cm_mem_operand *mem, const uint64_t regs[16], uint64_t next_ip);

#endif
