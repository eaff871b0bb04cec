/*
 * arch/fault.h — what a program that touches or runs what it may not is
 * killed with on x86_64 (tests/user/test_kill.c): the kernel's addresses
 * to try and the CPU exception vector each gives, and, for a test this
 * arch cannot run, why (NULL: it runs).
 */
#ifndef HAKO_ARCH_FAULT_H
#define HAKO_ARCH_FAULT_H

#define ARCH_CAUSE_PAGE           14     /* #PF: unmapped, or not writable, or no execute */
#define ARCH_KERNEL_DATA_ADDR     "0xffff800000100000"   /* the direct map */
#define ARCH_KERNEL_TEXT_ADDR     "0xffffffff80100000"   /* the kernel image */
#define ARCH_KERNEL_STACK_ADDR    "0xffffff0000008000"   /* the kernel stacks' area */
#define ARCH_CAUSE_KERNEL_READ    14
#define ARCH_CAUSE_KERNEL_WRITE   14
#define ARCH_CAUSE_KERNEL_STACK   14
#define ARCH_NONCANONICAL_ADDR    "0x8000000000000000"
#define ARCH_CAUSE_NONCANONICAL   13     /* #GP */
#define ARCH_CAUSE_PRIVILEGED     13     /* cli, hlt, wrmsr: #GP */
#define ARCH_CAUSE_FPU            7      /* x87 with CR0.TS: #NM */
#define ARCH_CAUSE_SIMD           6      /* SSE with CR4.OSFXSR clear: #UD */
#define ARCH_CAUSE_BREAKPOINT     13     /* int3 through a DPL-0 gate: #GP */
#define ARCH_CAUSE_UNDEFINED      6      /* ud2: #UD */
#define ARCH_CAUSE_STEP           1      /* TF set into syscall: #DB */
#define ARCH_CAUSE_DIVIDE         0      /* #DE */

#define ARCH_NO_NONCANONICAL      NULL
#define ARCH_NO_DIVIDE_TRAP       NULL
#define ARCH_NO_NO_EXECUTE        NULL

#endif
