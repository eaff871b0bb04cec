/*
 * vectors.S — the 256 interrupt entry stubs and the common path.
 *
 * Each stub makes the stack look the same (an error code, real or 0, then
 * the vector number), and jumps to trap_common, which saves every general
 * register into a struct trapframe, swaps GS when coming from ring 3,
 * calls trap(tf) and unwinds.  The stub table vector_table[] is what
 * idt.c installs.
 *
 * Device vectors 0x30..0xdf enter through a lean stub (pack_lean_table[],
 * installed by idt.c at boot with the others; no gate changes later).  The
 * stub tests the vector's two bytes in arch_pack_gate (pack_arch.c) with
 * one instruction: if either is set — the vector is not interrupt
 * packaging's, or packaging diverts this interrupt — it jumps to the
 * vector's ordinary stub and the full path above.  Otherwise (kernel/intr/,
 * paper 000) the *registration* saves only the nine registers a C
 * call may clobber, stamps the TSC and calls intr_pack_register(v, tsc),
 * which records the device's volatile data and acknowledges the LAPIC;
 * then it restores those nine and returns.  If the registration answers
 * "divert" (a ring is full), the stub unwinds and takes the full path.
 */
#include <arch/layout.h>
#include "trapframe_asm.h"

/* Exceptions that push an error code themselves. */
#define HAS_ERR(v) ((v) == 8 || ((v) >= 10 && (v) <= 14) || (v) == 17 || (v) == 21 || (v) == 29 || (v) == 30)

	.text
	.code64

	.altmacro
	.macro stub v
	.align 16
vector_\v:
	.if \v == 1
	/*
	 * #DB in ring 0 can only be a single step a program set up (TF) that
	 * fired on the first instruction of syscall_entry, still on the user
	 * stack and GS: this gate has its own IST stack, and the stub just
	 * clears TF and goes on without touching anything per-CPU.
	 */
	testb $3, 8(%rsp)                /* CS of the interrupted code */
	jnz 1f
	andq $~0x100, 16(%rsp)           /* rflags.TF */
	iretq
1:
	.endif
	.if HAS_ERR(\v)
	.else
	pushq $0
	.endif
	pushq $\v
	jmp trap_common
	.endm

	.set v, 0
	.rept 256
	stub %v
	.set v, v + 1
	.endr

trap_common:
	testb $3, 24(%rsp)               /* CS of the interrupted code */
	jz 1f
	swapgs
1:	PUSH_GPRS
	cld
	movq %rsp, %rdi
	/* A frame-pointer link so backtraces walk through the trap. */
	movq 17*8(%rsp), %rax            /* rip */
	pushq %rax
	pushq %rbp
	movq %rsp, %rbp
	call trap
	addq $16, %rsp
	.globl trap_return
trap_return:
	POP_GPRS
	addq $16, %rsp                   /* vector, error */
	testb $3, 8(%rsp)
	jz 2f
	swapgs
2:	iretq

/* Lean registration stubs for the device vectors 0x30..0xdf. */
	.macro lean v
	.align 16
pack_lean_\v:
	testw $0x0101, arch_pack_gate+2*\v(%rip)
	jnz vector_\v
	pushq $0
	pushq $\v
	jmp pack_lean_common
	.endm

	.set v, 0x30
	.rept 0xe0 - 0x30
	lean %v
	.set v, v + 1
	.endr

/* Stack: vector, error 0, then the CPU's frame (rip, cs, rflags, rsp, ss). */
pack_lean_common:
	testb $3, 24(%rsp)               /* CS of the interrupted code */
	jz 1f
	swapgs
1:	pushq %rax
	pushq %rcx
	pushq %rdx
	pushq %rsi
	pushq %rdi
	pushq %r8
	pushq %r9
	pushq %r10
	pushq %r11
	cld
	rdtsc
	shlq $32, %rdx
	orq %rax, %rdx
	movq %rdx, %rsi                  /* the arrival stamp */
	movl 9*8(%rsp), %edi             /* the vector */
	call intr_pack_register
	testl %eax, %eax                 /* pops keep the flags */
	popq %r11
	popq %r10
	popq %r9
	popq %r8
	popq %rdi
	popq %rsi
	popq %rdx
	popq %rcx
	popq %rax
	jnz 3f
	testb $3, 24(%rsp)
	jz 2f
	swapgs
2:	addq $16, %rsp                   /* vector, error */
	iretq
3:	testb $3, 24(%rsp)               /* divert: trap_common swaps GS itself */
	jz 4f
	swapgs
4:	jmp trap_common

	.section .rodata
	.macro vaddr v
	.quad vector_\v
	.endm
	.align 8
	.globl vector_table
vector_table:
	.set v, 0
	.rept 256
	vaddr %v
	.set v, v + 1
	.endr

	.macro leanaddr v
	.quad pack_lean_\v
	.endm
	.globl pack_lean_table              /* entry i: vector 0x30 + i */
pack_lean_table:
	.set v, 0x30
	.rept 0xe0 - 0x30
	leanaddr %v
	.set v, v + 1
	.endr

