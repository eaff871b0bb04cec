/*
 * plugin.h — what the plugin's QEMU glue (plugin.c) shares with its SH-4
 * part (plugin_sh4.c): the per-vCPU state, the recognised instructions,
 * and the few actions both take.  Used by these two files only; the
 * model itself (model.h and the rest) knows nothing of QEMU.
 */
#ifndef COSTMODEL_PLUGIN_H
#define COSTMODEL_PLUGIN_H

#include <stdbool.h>
#include <stdint.h>

#include "qemu_plugin_api.h"
#include "decode.h"
#include "model.h"

struct vcpu {
	struct cm_core core;
	uint64_t idle_entries;
	uint64_t halts;              /* hlt (SH-4: sleep) executed: times it went idle (under icount too) */
	bool io;                     /* the access being modelled is to MMIO (for walk_page) */
	uint64_t *pc_count;          /* pcprof=on: the counter of the block running, or NULL */
	uint64_t string_left;        /* the rep stos/movs running: bytes left to store (x86) */
};

/* What an instruction's counting callback is told (its user data). */
#define CM_INSN_IN_HANDLER 1u        /* in the handler=START:END range */
#define CM_INSN_PAIRED     2u        /* issues beside the instruction before it */

/* A recognised instruction, kept for its callbacks (see intern()). */
struct special {
	struct cm_insn insn;
	uint64_t va;
};

extern struct vcpu *vcpus;
extern unsigned current;               /* the vCPU running now */
extern struct cm_counts *final_counts; /* every vCPU's counts at the exit write, or NULL */
extern GByteArray *reg_buf;            /* scratch for register and memory reads */
extern bool sh4;                       /* qemu-system-sh4 (sh4.h) */
/* The host address of guest physical 0 in RAM, once learnt from code. */
extern bool code_delta_known;
extern uint64_t code_delta;

/* plugin.c: the shared record of a recognised instruction at va (translation time). */
const struct special *intern(const struct cm_insn *insn, uint64_t va);
/* plugin.c: the run's counts end here (the exit port; SH-4's power-off store). */
void on_exit_port(unsigned int vcpu_ignored, void *ud);
/* plugin.c: a region or sync marker with its arguments (rax and rdx on x86). */
void apply_marker(uint32_t marker, uint64_t arg, uint64_t arg2);
/* plugin.c: a recognised instruction is about to run (ud: its struct special). */
void on_special(unsigned int vcpu_ignored, void *ud);

/* plugin_hostwait.c: HAKO_SYNC_HOST_WAIT's marker: hold the vCPU until the
 * guest word at va has (word & mask) == value, mask_value = mask << 32 | value. */
void host_wait(uint64_t va, uint64_t mask_value);
/* plugin_hostwait.c: the markers line's host_* fields, written into buf. */
const char *host_waits_json(char *buf, size_t size);

/* plugin_x86.c: the physical address of x86 code at va (host address haddr). */
uint64_t code_phys(uint64_t va, const void *haddr);
/* plugin_x86.c: the bytes a rep stos/movs element and the rest store upwards
 * from its address, from rcx, eflags (DF) and the element's size; 0 downwards. */
uint64_t string_left(uint64_t rcx, uint64_t eflags, uint8_t size);

/* plugin_sh4.c: the physical address of SH-4 code at va (host address haddr). */
uint64_t code_phys_sh4(uint64_t va, const void *haddr);
/*
 * plugin_sh4.c: CM_INSN_PAIRED when instruction i of tb issues in the same
 * cycle as instruction i - 1 (decode.h's dual issue), else 0; *prev
 * carries the previous instruction's group from one call to the next.
 */
unsigned pairs_sh4(struct qemu_plugin_insn *insn, size_t i, int *prev);
/* plugin_sh4.c: instruction i of tb (va) decoded, with a marker's bytes after it. */
void decode_sh4(struct qemu_plugin_insn *insn, size_t i, uint64_t va, struct cm_insn *d);
/* plugin_sh4.c: instruction i of n's callbacks besides its count and fetch. */
void translate_sh4(struct qemu_plugin_tb *tb, size_t i, size_t n, const struct cm_insn *d, uint64_t va);

#endif
