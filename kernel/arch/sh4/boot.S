/*
 * boot.S — the SH-4 kernel's first instructions.
 *
 * QEMU's r2d board starts the flat image at 0xac800000 (P2, uncached)
 * with SR.MD=1, BL=1 and the MMU off.  Here: jump to the image's P1
 * address (cached, where it is linked), set SR (privileged, bank 0, no
 * block, FPU off, every interrupt masked), take the boot stack, zero
 * .bss, point VBR at the exception vectors, translate r2d's boot
 * parameters into a multiboot 1 information block (bootparams.c) and
 * call kmain(MB1_BOOT_MAGIC, its physical address).
 */
#include <arch/layout.h>

	.section .boot.text, "ax"
	.globl _start
_start:
	mov.l	.Lp1_entry, r0
	jmp	@r0
	nop

	.balign 4
.Lp1_entry:
	.long	1f
1:
	mov.l	.Lsr_boot, r0
	ldc	r0, sr
	mov.l	.Lstack_top, r15
	/* zero .bss: [_edata, _end), 4-byte aligned */
	mov.l	.Lbss_start, r1
	mov.l	.Lbss_end, r2
	mov	#0, r0
2:	cmp/hs	r2, r1
	bt	3f
	mov.l	r0, @r1
	bra	2b
	add	#4, r1
3:
	mov.l	.Lvectors, r0
	ldc	r0, vbr
	mov	#0, r14
	mov.l	.Lbuild_bootinfo, r0
	jsr	@r0
	nop
	mov	r0, r5                  /* info_phys */
	mov.l	.Lmb1_magic, r4
	mov.l	.Lkmain, r0
	jsr	@r0
	nop
4:	sleep
	bra	4b
	nop

	.balign 4
.Lsr_boot:	.long	0x400080f0     /* MD, FD, IMASK 15 */
.Lstack_top:	.long	boot_stack_top
.Lbss_start:	.long	_edata
.Lbss_end:	.long	_end
.Lvectors:	.long	sh4_vectors
.Lbuild_bootinfo: .long	sh4_build_bootinfo
.Lmb1_magic:	.long	0x2BADB002
.Lkmain:	.long	kmain

	.section .bss
	.balign 16
	.globl boot_stack_bottom
boot_stack_bottom:
	.space	BOOT_STACK_SIZE
	.globl boot_stack_top
boot_stack_top:
