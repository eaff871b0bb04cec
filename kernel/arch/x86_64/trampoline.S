/*
 * trampoline.S — where an application processor starts after INIT-SIPI.
 *
 * The startup IPI starts the AP in real mode at AP_TRAMPOLINE_PHYS (the
 * SIPI vector is that address >> 12).  smp.c copies this blob there and
 * fills the parameter block at its end; the code climbs to protected mode,
 * turns on long mode with boot.S's page tables (which still hold the
 * identity map this code runs from) and jumps to ap_entry64 in the kernel.
 */
#include <arch/layout.h>

#define T(x) ((x) - trampoline_start + AP_TRAMPOLINE_PHYS)

	.section .rodata
	.code16
	.globl trampoline_start, trampoline_end
	.globl trampoline_cr3, trampoline_stack, trampoline_cpu, trampoline_entry
trampoline_start:
	cli
	cld
	xorw %ax, %ax
	movw %ax, %ds
	lgdtl T(tramp_gdtr)
	movl %cr0, %eax
	orl $1, %eax                      /* PE */
	movl %eax, %cr0
	ljmpl $0x08, $T(tramp32)

	.code32
tramp32:
	movw $0x10, %ax
	movw %ax, %ds
	movw %ax, %ss
	movl %cr4, %eax
	orl $(1 << 5), %eax               /* PAE */
	movl %eax, %cr4
	movl T(trampoline_cr3), %eax
	movl %eax, %cr3
	movl $0xC0000080, %ecx
	rdmsr
	orl $(1 << 8), %eax               /* LME */
	wrmsr
	movl %cr0, %eax
	orl $0x80010000, %eax             /* PG | WP */
	movl %eax, %cr0
	ljmpl $0x18, $T(tramp64)

	.code64
tramp64:
	movw $0x10, %ax
	movw %ax, %ds
	movw %ax, %es
	movw %ax, %ss
	movq T(trampoline_stack), %rsp
	movq T(trampoline_cpu), %rdi
	movq T(trampoline_entry), %rax
	xorl %ebp, %ebp
	jmp *%rax

	.align 8
tramp_gdt:
	.quad 0
	.quad 0x00cf9a000000ffff          /* 0x08: 32-bit code */
	.quad 0x00cf92000000ffff          /* 0x10: data */
	.quad 0x00af9a000000ffff          /* 0x18: 64-bit code */
tramp_gdtr:
	.short tramp_gdtr - tramp_gdt - 1
	.long T(tramp_gdt)

	.align 8
trampoline_cr3:   .quad 0
trampoline_stack: .quad 0
trampoline_cpu:   .quad 0
trampoline_entry: .quad 0
trampoline_end:
