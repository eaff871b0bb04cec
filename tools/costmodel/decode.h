/*
 * decode.h — recognising, from its bytes, the few x86_64 instructions the
 * cost model acts on: writes to CR3 and CR4, INVLPG, INVPCID, WBINVD,
 * INVD, HLT, PAUSE, the port I/O instructions and Hako's region marker
 * (uapi/hako_region.h).  Everything else is CM_INSN_OTHER.  Encodings
 * from the Intel SDM vol. 2 (MOV to CR: 0F 22 /r; INVLPG: 0F 01 /7 with a
 * memory operand; INVPCID: 66 0F 38 82 /r; WBINVD: 0F 09; INVD: 0F 08;
 * PAUSE: F3 90; IN: E4 ib, E5 ib, EC, ED; OUT: E6 ib, E7 ib, EE, EF; INS: 6C, 6D;
 * OUTS: 6E, 6F, each string form with or without a REP prefix).
 *
 * A memory operand is returned as its parts (base, index, scale,
 * displacement, RIP-relative), for the caller to evaluate with the
 * registers it can read; segment overrides are ignored (Hako uses none
 * on these instructions) and so is the 0x67 address-size prefix.
 */
#ifndef COSTMODEL_DECODE_H
#define COSTMODEL_DECODE_H

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
};

/* Classify the instruction at bytes[0..n). */
void cm_decode(const uint8_t *bytes, size_t n, struct cm_insn *out);

/* The address mem names, given the 16 general registers and the next instruction's address. */
uint64_t cm_mem_address(const struct cm_mem_operand *mem, const uint64_t regs[16], uint64_t next_ip);

#endif
