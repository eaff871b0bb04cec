/*
 * vectors.S — the 256 interrupt entry stubs and the common path.
 *
 * Each stub makes the stack look the same (an error code, real or 0, then
 * the vector number), and jumps to trap_common, which saves every general
 * register into a struct trapframe, swaps GS when coming from ring 3,
 * calls trap(tf) and unwinds.  The stub table vector_table[] is what
 * idt.c installs.
 */
#include "layout.h"
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

