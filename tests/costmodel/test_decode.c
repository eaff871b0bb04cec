/*
 * test_decode.c — the plugin's small x86 decoder (decode.h): the
 * instructions it must recognise, by their bytes, and look-alikes it
 * must leave alone.
 */
#include "check.h"
#include "decode.h"

static enum cm_insn_kind kind_of(const uint8_t *b, size_t n)
{
	struct cm_insn in;
	cm_decode(b, n, &in);
	return in.kind;
}

TEST(hlt_is_recognised_alone_and_after_prefixes)
{
	CHECK(kind_of((const uint8_t[]){ 0xF4 }, 1) == CM_INSN_HLT);
	CHECK(kind_of((const uint8_t[]){ 0x66, 0xF4 }, 2) == CM_INSN_HLT);
	CHECK(kind_of((const uint8_t[]){ 0xF4, 0x90 }, 2) == CM_INSN_OTHER);   /* not one instruction */
	CHECK(kind_of((const uint8_t[]){ 0x90 }, 1) == CM_INSN_OTHER);
}

TEST(pause_is_f3_90_alone)
{
	CHECK(kind_of((const uint8_t[]){ 0xF3, 0x90 }, 2) == CM_INSN_PAUSE);
	CHECK(kind_of((const uint8_t[]){ 0x90 }, 1) == CM_INSN_OTHER);          /* nop */
	CHECK(kind_of((const uint8_t[]){ 0xF3, 0x48, 0x90 }, 3) == CM_INSN_OTHER);
}

TEST(cache_flushes_and_cr_writes)
{
	CHECK(kind_of((const uint8_t[]){ 0x0F, 0x09 }, 2) == CM_INSN_WBINVD);
	CHECK(kind_of((const uint8_t[]){ 0x0F, 0x08 }, 2) == CM_INSN_INVD);
	struct cm_insn in;
	cm_decode((const uint8_t[]){ 0x0F, 0x22, 0xD8 }, 3, &in);     /* mov %rax, %cr3 */
	CHECK(in.kind == CM_INSN_MOV_CR3 && in.reg == 0);
	cm_decode((const uint8_t[]){ 0x41, 0x0F, 0x22, 0xE7 }, 4, &in);   /* mov %r15, %cr4 */
	CHECK(in.kind == CM_INSN_MOV_CR4 && in.reg == 15);
	CHECK(kind_of((const uint8_t[]){ 0x0F, 0x20, 0xD8 }, 3) == CM_INSN_OTHER);   /* a read of cr3 */
}

TEST(marker_carries_its_displacement)
{
	struct cm_insn in;
	cm_decode((const uint8_t[]){ 0x0F, 0x1F, 0x80, 0x07, 0x10, 0x48, 0x4B }, 7, &in);
	CHECK(in.kind == CM_INSN_MARKER && in.marker == 0x4B481007u);
	cm_decode((const uint8_t[]){ 0x0F, 0x1F, 0x80, 0x07, 0x10, 0x00, 0x00 }, 7, &in);
	CHECK(in.kind == CM_INSN_OTHER);                               /* a plain nopl */
}

TEST(port_io_with_an_immediate_names_its_port)
{
	struct cm_insn in;
	cm_decode((const uint8_t[]){ 0xE7, 0xF4 }, 2, &in);           /* out %eax, $0xf4 */
	CHECK(in.kind == CM_INSN_PORT_OUT && in.port == 0xF4);
	cm_decode((const uint8_t[]){ 0xEE }, 1, &in);                 /* out %al, (%dx) */
	CHECK(in.kind == CM_INSN_PORT_OUT && in.port == -1);
	cm_decode((const uint8_t[]){ 0xE4, 0x60 }, 2, &in);           /* in $0x60, %al */
	CHECK(in.kind == CM_INSN_PORT_IN && in.port == 0x60);
}

TEST(rep_stos_and_movs_are_string_stores_with_their_element_size)
{
	struct cm_insn in;
	cm_decode((const uint8_t[]){ 0xF3, 0x48, 0xAB }, 3, &in);     /* rep stosq */
	CHECK(in.kind == CM_INSN_REP_STORE && in.size == 8 && in.len == 3);
	cm_decode((const uint8_t[]){ 0xF3, 0x48, 0xA5 }, 3, &in);     /* rep movsq */
	CHECK(in.kind == CM_INSN_REP_STORE && in.size == 8);
	cm_decode((const uint8_t[]){ 0xF3, 0xA4 }, 2, &in);           /* rep movsb */
	CHECK(in.kind == CM_INSN_REP_STORE && in.size == 1);
	cm_decode((const uint8_t[]){ 0xF3, 0xAB }, 2, &in);           /* rep stosl */
	CHECK(in.kind == CM_INSN_REP_STORE && in.size == 4);
	cm_decode((const uint8_t[]){ 0x66, 0xF3, 0xAB }, 3, &in);     /* rep stosw */
	CHECK(in.kind == CM_INSN_REP_STORE && in.size == 2);
	CHECK(kind_of((const uint8_t[]){ 0x48, 0xAB }, 2) == CM_INSN_OTHER);        /* stosq alone */
	CHECK(kind_of((const uint8_t[]){ 0xF3, 0xA6 }, 2) == CM_INSN_OTHER);        /* repe cmpsb */
	CHECK(kind_of((const uint8_t[]){ 0xF3, 0x90 }, 2) == CM_INSN_PAUSE);
}
