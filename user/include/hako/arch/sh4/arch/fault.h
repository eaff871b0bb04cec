/*
 * arch/fault.h — what a program that touches or runs what it may not is
 * killed with on SH-4 (tests/user/test_kill.c): the kernel's addresses to
 * try and the cause each gives (EXPEVT >> 5; a TLB miss the kernel does
 * not serve is reported as 14, the page fault), and, for a test this
 * arch cannot run, why (NULL: it runs).
 */
#ifndef HAKO_ARCH_FAULT_H
#define HAKO_ARCH_FAULT_H

#define ARCH_CAUSE_PAGE           14
#define ARCH_KERNEL_DATA_ADDR     "0x8c000000"   /* P1: the memory, cached */
#define ARCH_KERNEL_TEXT_ADDR     "0x8c800000"   /* P1: the kernel image */
#define ARCH_KERNEL_STACK_ADDR    "0xc0000000"   /* P3: the kernel stacks */
#define ARCH_CAUSE_KERNEL_READ    7      /* address error (read), EXPEVT 0x0e0 */
#define ARCH_CAUSE_KERNEL_WRITE   8      /* address error (write), EXPEVT 0x100 */
#define ARCH_CAUSE_KERNEL_STACK   14     /* QEMU's r2d raises a TLB miss for P3, refused as a page fault */
#define ARCH_NONCANONICAL_ADDR    NULL
#define ARCH_CAUSE_NONCANONICAL   0
#define ARCH_CAUSE_PRIVILEGED     12     /* ldc to SR or VBR, sleep: illegal instruction, 0x180 */
#define ARCH_CAUSE_FPU            64     /* SR.FD set: FPU disable, 0x800 */
#define ARCH_CAUSE_SIMD           64     /* the same FPU */
#define ARCH_CAUSE_BREAKPOINT     11     /* trapa #1: a trap the kernel does not serve, 0x160 */
#define ARCH_CAUSE_UNDEFINED      12
#define ARCH_CAUSE_STEP           12     /* no single-step flag: the undefined instruction after the call */
#define ARCH_CAUSE_DIVIDE         0

#define ARCH_NO_NONCANONICAL      "32-bit addresses: none is non-canonical"
#define ARCH_NO_DIVIDE_TRAP       "no divide instruction: a division by zero (libgcc) does not trap"
#define ARCH_NO_NO_EXECUTE        "the SH-4 TLB has no execute right: readable is executable"

#endif
