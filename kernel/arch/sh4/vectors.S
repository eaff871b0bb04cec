/*
 * vectors.S — the SH-4's exception entry points at VBR + 0x100 (general
 * exceptions, trapa), VBR + 0x400 (TLB miss) and VBR + 0x600 (interrupts).
 *
 * The CPU enters with SR.BL=1 (a second exception would reset it), SR.RB=1
 * (bank-1 r0-r7), the interrupted pc in SPC, SR in SSR and r15 in SGR.
 * While BL=1 only P1/P4 memory may be touched, and a kernel stack lives
 * in P3, behind the TLB.  So the entry first stores the whole interrupted
 * state into a save area in P1 (entry_area), then switches to bank 0 with
 * BL=0 (interrupts still masked), and copies the area onto the kernel
 * stack as the struct trapframe, where a TLB miss is served as usual.
 * The stack is the interrupted r15 for an entry from the kernel, the
 * thread's kernel stack top (sh4_kstack_top) for one from user mode.
 * The exit runs the same steps backwards and ends in RTE.
 *
 * The TLB-miss handler serves a miss from Hako's tables in bank 1 with
 * BL=1 and no stack: the directory of the user half (sh4_user_dir) or of
 * P3 (sh4_kernel_dir), the page's entry into PTEL, LDTLB (PTEH holds the
 * faulting VPN and the current ASID already), RTE; a miss without a valid
 * entry goes to the general entry as a fault.  Each one served counts in
 * sh4_tlb_misses[] by its class: a user instruction fetch (the address
 * in the page of SPC), else by the address (a user stack, the ICA
 * window, P3's kernel stacks, other user data).  The entry LDTLB
 * writes is MMUCR.URC, set here: at random over the whole UTLB, or in
 * fast mode's partition (utlb.c) a general entry, never-used ones first.  The random choice is the
 * handler's own (xorshift32), not the MMU's counter: QEMU advances URC on
 * each refill of its own software TLB, whose size it adapts by host time,
 * so the counter would make the victims differ from run to run.
 */
#define TF_WORDS 24                    /* sizeof(struct trapframe) / 4 */
/* The classes of a miss, hako_perf.h's HAKO_TLB_MISS_* in its order. */
#define SH4_MISS_CODE    0             /* a user instruction fetch */
#define SH4_MISS_STACK   1             /* user stacks, 0x70000000-0x7fffffff */
#define SH4_MISS_DATA    2             /* the rest of the user half: image, heap */
#define SH4_MISS_ICA     3             /* the ICA window, 0x60000000-0x6fffffff */
#define SH4_MISS_KERNEL  4             /* P3: kernel stacks */
#define SH4_MISS_CLASSES 5

	.text
	.balign 4096
	.globl sh4_vectors
sh4_vectors:
	.space	0x100

/* VBR + 0x100: general exceptions; r1 = EXPEVT. */
general_entry:
	mov.l	.Lexpevt, r0
	bra	entry_common
	mov.l	@r0, r1

	.balign 4
.Lexpevt:	.long	0xff000024

/*
 * The common entry (bank 1, BL=1): r1 = the event code.  Stores, from the
 * end of entry_area down, tea, event, ssr, spc, gbr, macl, mach, pr,
 * r15..r8, r7..r0 of bank 0: struct trapframe's order from its start.
 */
entry_common:
	mov.l	.Larea_end, r7
	mov.l	.Ltea, r0
	mov.l	@r0, r0
	mov.l	r0, @-r7
	mov.l	r1, @-r7
	stc	ssr, r0
	mov.l	r0, @-r7
	stc	spc, r0
	mov.l	r0, @-r7
	stc	gbr, r0
	mov.l	r0, @-r7
	sts	macl, r0
	mov.l	r0, @-r7
	sts	mach, r0
	mov.l	r0, @-r7
	sts	pr, r0
	mov.l	r0, @-r7
	stc	sgr, r0
	mov.l	r0, @-r7
	mov.l	r14, @-r7
	mov.l	r13, @-r7
	mov.l	r12, @-r7
	mov.l	r11, @-r7
	mov.l	r10, @-r7
	mov.l	r9, @-r7
	mov.l	r8, @-r7
	stc	r7_bank, r0
	mov.l	r0, @-r7
	stc	r6_bank, r0
	mov.l	r0, @-r7
	stc	r5_bank, r0
	mov.l	r0, @-r7
	stc	r4_bank, r0
	mov.l	r0, @-r7
	stc	r3_bank, r0
	mov.l	r0, @-r7
	stc	r2_bank, r0
	mov.l	r0, @-r7
	stc	r1_bank, r0
	mov.l	r0, @-r7
	stc	r0_bank, r0
	mov.l	r0, @-r7
	/* The stack: from user mode (SSR.MD clear) the kernel stack's top. */
	stc	ssr, r0
	shll	r0
	shll	r0                      /* T = MD (bit 30) */
	bt	1f
	mov.l	.Lkstack_top, r0
	mov.l	@r0, r15
1:	add	#-(TF_WORDS * 4), r15
	/* Bank 0, unblocked, interrupts masked: the TLB may miss from here. */
	mov.l	.Lsr_kernel_masked, r0
	ldc	r0, sr
	mov.l	.Larea, r1
	mov	r15, r2
	mov	#TF_WORDS, r3
2:	mov.l	@r1+, r0
	dt	r3
	mov.l	r0, @r2
	bf/s	2b
	add	#4, r2
	mov	#0, r14
	mov.l	.Ltrap, r0
	jsr	@r0
	mov	r15, r4

	.globl sh4_trap_return
sh4_trap_return:                        /* r15: the trapframe */
	mov.l	.Lsr_kernel_masked, r0
	ldc	r0, sr
	mov.l	.Larea, r1
	mov	r15, r2
	mov	#TF_WORDS, r3
3:	mov.l	@r2+, r0
	dt	r3
	mov.l	r0, @r1
	bf/s	3b
	add	#4, r1
	/* Bank 1, blocked: only entry_area (P1) from here to RTE. */
	mov.l	.Lsr_blocked, r0
	ldc	r0, sr
	mov.l	.Larea, r7
	mov.l	@r7+, r0
	ldc	r0, r0_bank
	mov.l	@r7+, r0
	ldc	r0, r1_bank
	mov.l	@r7+, r0
	ldc	r0, r2_bank
	mov.l	@r7+, r0
	ldc	r0, r3_bank
	mov.l	@r7+, r0
	ldc	r0, r4_bank
	mov.l	@r7+, r0
	ldc	r0, r5_bank
	mov.l	@r7+, r0
	ldc	r0, r6_bank
	mov.l	@r7+, r0
	ldc	r0, r7_bank
	mov.l	@r7+, r8
	mov.l	@r7+, r9
	mov.l	@r7+, r10
	mov.l	@r7+, r11
	mov.l	@r7+, r12
	mov.l	@r7+, r13
	mov.l	@r7+, r14
	mov.l	@r7+, r15
	mov.l	@r7+, r0
	lds	r0, pr
	mov.l	@r7+, r0
	lds	r0, mach
	mov.l	@r7+, r0
	lds	r0, macl
	mov.l	@r7+, r0
	ldc	r0, gbr
	mov.l	@r7+, r0
	ldc	r0, spc
	mov.l	@r7+, r0
	ldc	r0, ssr
	rte
	nop

	.balign 4
.Larea:		.long	entry_area
.Larea_end:	.long	entry_area + TF_WORDS * 4
.Ltea:		.long	0xff00000c
.Lkstack_top:	.long	sh4_kstack_top
.Lsr_kernel_masked: .long 0x400080f0   /* MD, FD, IMASK 15 */
.Lsr_blocked:	.long	0x700080f0     /* MD, RB, BL, FD, IMASK 15 */
.Ltrap:		.long	trap

/* VBR + 0x400: TLB miss (bank 1, BL=1, no stack). */
	.org	sh4_vectors + 0x400
tlb_miss_entry:
	mov.l	.Lm_tea, r0
	mov.l	@r0, r1                 /* r1: the address */
	mov.l	.Lm_user_dir, r0
	cmp/pz	r1                      /* T: the user half (U0) */
	bt	1f
	mov.l	.Lm_kernel_dir, r0
1:	mov.l	@r0, r2                 /* r2: the directory, 0 if none */
	tst	r2, r2
	bt	tlb_fault
	mov	r1, r0
	shlr16	r0
	shlr2	r0
	shlr2	r0                      /* va >> 20 */
	mov	#-4, r3
	and	r3, r0                  /* (va >> 22) * 4 */
	mov.l	@(r0, r2), r2           /* r2: the page table's P1 address, 0 if none */
	tst	r2, r2
	bt	tlb_fault
	mov	r1, r0
	shlr8	r0
	shlr2	r0                      /* va >> 10 */
	mov.l	.Lm_index_mask, r3
	and	r3, r0                  /* ((va >> 12) & 1023) * 4 */
	mov.l	@(r0, r2), r2           /* r2: the entry */
	mov.l	.Lm_valid, r3
	tst	r3, r2
	bt	tlb_fault
	mov.l	.Lm_ptel_mask, r3
	and	r3, r2
	mov.l	.Lm_ptel, r0
	mov.l	r2, @r0
	/* The entry LDTLB writes (URC): a never-used general entry while there
	 * is one (fast mode's partition only, utlb.c), else one of the general
	 * entries at random (xorshift32 in sh4_utlb_rand): all 64 when the
	 * UTLB is whole, 0-31 in the partition. */
	mov.l	.Lm_general, r0
	mov.l	@r0, r3                 /* r3: general entries, 64 or 32 */
	mov.l	.Lm_fill, r4
	mov.l	@r4, r0                 /* r0: never-used entries taken */
	cmp/hs	r3, r0
	bt	2f
	add	#1, r0
	mov.l	r0, @r4
	bra	3f
	add	#-1, r0                 /* the slot: the next never-used one */
2:	mov.l	.Lm_rand, r4
	mov.l	@r4, r0
	mov	r0, r1
	shll8	r1
	shll2	r1
	shll2	r1
	shll	r1
	xor	r1, r0                  /* x ^= x << 13 */
	mov	r0, r1
	shlr16	r1
	shlr	r1
	xor	r1, r0                  /* x ^= x >> 17 */
	mov	r0, r1
	shll2	r1
	shll2	r1
	shll	r1
	xor	r1, r0                  /* x ^= x << 5 */
	mov.l	r0, @r4
	shlr16	r0
	add	#-1, r3
	and	r3, r0                  /* the slot: high bits modulo the general entries */
3:	mov.l	.Lm_mmucr, r4
	mov.l	@r4, r1
	mov.l	.Lm_urc_clear, r3
	and	r3, r1
	shll8	r0
	shll2	r0
	or	r0, r1
	mov.l	r1, @r4                 /* URC: the slot */
	ldtlb
	/* Drop the four ITLB entries (address array writes, V clear): the
	 * entry just replaced may have a copy there, and whether QEMU reads
	 * that copy depends on its own host-side TLB, not on the guest, so a
	 * stale copy would hide a miss in one run and not in another. */
	mov.l	.Lm_itlb, r4
	mov	#0, r0
	mov	#1, r1
	shll8	r1                      /* r1: one ITLB entry's stride */
	mov.l	r0, @r4
	add	r1, r4
	mov.l	r0, @r4
	add	r1, r4
	mov.l	r0, @r4
	add	r1, r4
	mov.l	r0, @r4
	/* Count the miss in its class (sh4_tlb_misses[], sh4.h): an
	 * instruction fetch (the address in SPC's page), else by the
	 * address's top four bits (sh4_tlb_class_of). */
	mov.l	.Lm_tea, r0
	mov.l	@r0, r1                 /* r1: the address */
	stc	spc, r2
	xor	r1, r2
	mov.l	.Lm_page_mask, r3
	tst	r3, r2                  /* T: the fetch's own page */
	bt/s	4f
	mov	#SH4_MISS_CODE, r0
	mov	r1, r0
	shlr16	r0
	shlr8	r0
	shlr2	r0
	shlr2	r0                      /* va >> 28 */
	mov.l	.Lm_class_of, r3
	mov.b	@(r0, r3), r0
4:	shll2	r0
	mov.l	.Lm_misses, r3
	mov.l	@(r0, r3), r1
	add	#1, r1
	mov.l	r1, @(r0, r3)
	rte
	nop
tlb_fault:
	mov.l	.Lm_expevt, r0
	mov.l	.Lm_entry_common, r2
	jmp	@r2
	mov.l	@r0, r1

	.balign 4
.Lm_tea:	.long	0xff00000c
.Lm_ptel:	.long	0xff000004
.Lm_expevt:	.long	0xff000024
.Lm_user_dir:	.long	sh4_user_dir
.Lm_kernel_dir:	.long	sh4_kernel_dir
.Lm_index_mask:	.long	0x00000ffc
.Lm_valid:	.long	0x00000100
.Lm_ptel_mask:	.long	0x1ffffdff      /* the software bits off */
.Lm_misses:	.long	sh4_tlb_misses
.Lm_page_mask:	.long	0xfffff000
.Lm_class_of:	.long	sh4_tlb_class_of
.Lm_general:	.long	sh4_utlb_general
.Lm_fill:	.long	sh4_utlb_fill
.Lm_rand:	.long	sh4_utlb_rand
.Lm_mmucr:	.long	0xff000010
.Lm_urc_clear:	.long	0xffff03ff
.Lm_itlb:	.long	0xf2000000      /* the ITLB's address array */
.Lm_entry_common: .long	entry_common

/* VBR + 0x600: interrupts; r1 = INTEVT. */
	.org	sh4_vectors + 0x600
interrupt_entry:
	mov.l	.Li_intevt, r0
	mov.l	.Li_entry_common, r2
	jmp	@r2
	mov.l	@r0, r1

	.balign 4
.Li_intevt:	.long	0xff000028
.Li_entry_common: .long	entry_common

	.data
	.balign 4
	.globl sh4_tlb_misses, sh4_user_dir, sh4_kernel_dir, sh4_kstack_top
	.globl sh4_utlb_general, sh4_utlb_fill, sh4_utlb_rand
sh4_tlb_misses:	.space	SH4_MISS_CLASSES * 4
sh4_tlb_class_of:                      /* the class of a data address by its bits 31-28 */
	.byte	SH4_MISS_DATA, SH4_MISS_DATA, SH4_MISS_DATA, SH4_MISS_DATA
	.byte	SH4_MISS_DATA, SH4_MISS_DATA, SH4_MISS_ICA, SH4_MISS_STACK  /* 6: ICAs, 7: stacks */
	.byte	SH4_MISS_DATA, SH4_MISS_DATA, SH4_MISS_DATA, SH4_MISS_DATA  /* P1, P2: no miss */
	.byte	SH4_MISS_KERNEL, SH4_MISS_KERNEL, SH4_MISS_KERNEL, SH4_MISS_KERNEL  /* P3: kernel stacks */
	.balign 4
sh4_utlb_general: .long	64
sh4_utlb_fill:	.long	64
sh4_utlb_rand:	.long	0x2545f491
sh4_user_dir:	.long	0
sh4_kernel_dir:	.long	0
sh4_kstack_top:	.long	0
entry_area:	.space	TF_WORDS * 4

/* sh4_enter_user(tf): leave for user mode through the exit path. */
	.text
	.globl sh4_enter_user
	.balign 4
sh4_enter_user:
	mov.l	.Lu_return, r0
	jmp	@r0
	mov	r4, r15

	.balign 4
.Lu_return:	.long	sh4_trap_return
