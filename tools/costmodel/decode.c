/*
 * decode.c — the cost model's tiny x86_64 decoder (decode.h): legacy
 * prefixes, REX, the 0F-map opcodes it knows, and ModRM/SIB memory
 * operands in 64-bit addressing.
 */
#include <stdbool.h>
#include <string.h>

#include "decode.h"
#include "../../kernel/uapi/hako_region.h"

static bool is_legacy_prefix(uint8_t b)
{
	switch (b) {
	case 0x66: case 0x67: case 0xF0: case 0xF2: case 0xF3:
	case 0x2E: case 0x36: case 0x3E: case 0x26: case 0x64: case 0x65:
		return true;
	}
	return false;
}

static uint32_t le32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

/*
 * The memory operand of the ModRM byte at b[at] (mod != 3) into *m;
 * returns the index just past it, or 0 if the bytes run out.
 */
static size_t decode_mem(const uint8_t *b, size_t n, size_t at, uint8_t rex, struct cm_mem_operand *m)
{
	uint8_t modrm = b[at++], mod = modrm >> 6, rm = modrm & 7;
	*m = (struct cm_mem_operand){ .base = CM_REG_NONE, .index = CM_REG_NONE, .scale = 1 };
	if (rm == 4) {
		if (at >= n)
			return 0;
		uint8_t sib = b[at++], idx = (uint8_t)(((sib >> 3) & 7) | ((rex & 2) << 2));
		m->scale = (uint8_t)(1u << (sib >> 6));
		if (idx != 4)
			m->index = (int8_t)idx;
		if ((sib & 7) == 5 && mod == 0)
			mod = 2;                 /* no base, a disp32 */
		else
			m->base = (int8_t)((sib & 7) | ((rex & 1) << 3));
	} else if (rm == 5 && mod == 0) {
		m->rip = 1;
		mod = 2;
	} else {
		m->base = (int8_t)(rm | ((rex & 1) << 3));
	}
	if (mod == 1) {
		if (at + 1 > n)
			return 0;
		m->disp = (int8_t)b[at];
		return at + 1;
	}
	if (mod == 2) {
		if (at + 4 > n)
			return 0;
		m->disp = (int32_t)le32(b + at);
		return at + 4;
	}
	return at;
}

/*
 * The port I/O instruction whose opcode is op, rest bytes from it to the
 * end of the instruction, port the byte after the opcode: the immediate
 * forms have one byte of port number there, the others none.
 */
static bool port_io(uint8_t op, uint8_t port, size_t rest, struct cm_insn *out)
{
	enum cm_insn_kind kind;
	size_t len = 1;
	switch (op) {
	case 0xE4: case 0xE5: kind = CM_INSN_PORT_IN; len = 2; break;
	case 0xE6: case 0xE7: kind = CM_INSN_PORT_OUT; len = 2; break;
	case 0xEC: case 0xED: kind = CM_INSN_PORT_IN; break;
	case 0xEE: case 0xEF: kind = CM_INSN_PORT_OUT; break;
	case 0x6C: case 0x6D: kind = CM_INSN_PORT_INS; break;
	case 0x6E: case 0x6F: kind = CM_INSN_PORT_OUTS; break;
	default: return false;
	}
	if (rest != len)
		return false;
	out->kind = kind;
	out->port = len == 2 ? port : -1;
	return true;
}

void cm_decode(const uint8_t *b, size_t n, struct cm_insn *out)
{
	memset(out, 0, sizeof *out);
	out->reg = CM_REG_NONE;
	if (n == 7 && b[0] == 0x0F && b[1] == 0x1F && b[2] == 0x80 &&
	    (le32(b + 3) & HAKO_REGION_MAGIC_MASK) == HAKO_REGION_MAGIC) {
		out->kind = CM_INSN_MARKER;
		out->marker = le32(b + 3);
		out->len = 7;
		return;
	}
	if (n == 2 && b[0] == 0xF3 && b[1] == 0x90) {
		out->kind = CM_INSN_PAUSE;
		out->len = 2;
		return;
	}
	size_t at = 0;
	bool opsize = false, rep = false;
	while (at < n && is_legacy_prefix(b[at])) {
		opsize |= b[at] == 0x66;
		rep |= b[at++] == 0xF3;
	}
	uint8_t rex = 0;
	if (at < n && (b[at] & 0xF0) == 0x40)
		rex = b[at++];
	if (rep && at + 1 == n && (b[at] == 0xA4 || b[at] == 0xA5 || b[at] == 0xAA || b[at] == 0xAB)) {
		out->kind = CM_INSN_REP_STORE;   /* movs and stos: a store an element */
		out->size = (b[at] & 1) == 0 ? 1 : (rex & 8) ? 8 : opsize ? 2 : 4;
		out->len = (uint8_t)n;
		return;
	}
	if (at + 1 == n && b[at] == 0xF4) {
		out->kind = CM_INSN_HLT;
		out->len = (uint8_t)n;
		return;
	}
	if (port_io(b[at], at + 1 < n ? b[at + 1] : 0, n - at, out)) {
		out->len = (uint8_t)n;
		return;
	}
	if (at + 2 > n || b[at] != 0x0F)
		return;
	uint8_t op = b[at + 1];
	at += 2;
	if (op == 0x09 || op == 0x08) {
		out->kind = op == 0x09 ? CM_INSN_WBINVD : CM_INSN_INVD;
		out->len = (uint8_t)at;
		return;
	}
	if (at >= n)
		return;
	uint8_t modrm = b[at], reg = (modrm >> 3) & 7;
	if (op == 0x22) {            /* MOV CRn, r64: the ModRM is always a register */
		if (rex & 4)
			return;              /* CR8 and up */
		if (reg == 3 || reg == 4) {
			out->kind = reg == 3 ? CM_INSN_MOV_CR3 : CM_INSN_MOV_CR4;
			out->reg = (int8_t)((modrm & 7) | ((rex & 1) << 3));
			out->len = (uint8_t)(at + 1);
		}
		return;
	}
	if (op == 0x01 && reg == 7 && modrm >> 6 != 3) {
		size_t end = decode_mem(b, n, at, rex, &out->mem);
		if (end) {
			out->kind = CM_INSN_INVLPG;
			out->len = (uint8_t)end;
		}
		return;
	}
	if (op == 0x38 && opsize && at + 1 < n && b[at] == 0x82 && b[at + 1] >> 6 != 3) {
		size_t end = decode_mem(b, n, at + 1, rex, &out->mem);
		if (end) {
			out->kind = CM_INSN_INVPCID;
			out->reg = (int8_t)(((b[at + 1] >> 3) & 7) | ((rex & 4) << 1));
			out->len = (uint8_t)end;
		}
	}
}

uint64_t cm_mem_address(const struct cm_mem_operand *m, const uint64_t regs[16], uint64_t next_ip)
{
	uint64_t a = (uint64_t)(int64_t)m->disp;
	if (m->rip)
		a += next_ip;
	if (m->base != CM_REG_NONE)
		a += regs[m->base];
	if (m->index != CM_REG_NONE)
		a += regs[m->index] * m->scale;
	return a;
}
