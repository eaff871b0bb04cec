/*
 * layout.h — where things live in Hako's SH-4 address space (QEMU r2d:
 * SH7751R, 64 MiB of SDRAM at physical 0x0c000000).
 *
 * Shared by C and assembly.  The SH-4's 32-bit address space has fixed
 * segments: U0/P0 (0x00000000-0x7fffffff) is translated by the TLB and is
 * the user half; P1 (0x80000000, cached) and P2 (0xa0000000, uncached)
 * window the first 512 MiB of physical memory without the TLB; P3
 * (0xc0000000) is translated and privileged; P4 (0xe0000000) holds the
 * on-chip registers.  RAM is reached through P1, so the direct map and the
 * kernel image (loaded by QEMU's -kernel at 0x0c800000, linked at
 * 0x8c800000) are one window; kernel stacks are mapped in P3.
 *
 * Generic code keeps addresses in uint64_t, and GCC converts a 32-bit
 * pointer to a 64-bit integer by sign extension: the kernel's addresses
 * are written here sign-extended (0xffffffff8c800000 is the pointer
 * 0x8c800000), so a pointer cast to uint64_t and these constants agree.
 */
#ifndef HAKO_ARCH_LAYOUT_H
#define HAKO_ARCH_LAYOUT_H

#define KERNEL_PHYS_BASE 0x0c800000          /* where r2d's -kernel loads */
#define KERNEL_VBASE     0xffffffff80000000  /* P1 */
#define DIRECT_MAP_BASE  0xffffffff80000000  /* P1: physical 0-512 MiB, cached */
#define DIRECT_MAP_SIZE  0x0000000020000000
#define USER_TOP         0x000000007fffe000  /* U0 ends at 2 GiB */

#define BOOT_STACK_SIZE  16384
#define KSTACK_SIZE      16384
/* The top of every thread's kernel stack is kept for the trapframe of an
 * entry from user mode (struct trapframe, rounded up). */
#define KSTACK_ENTRY_FRAME 128
/* Thread kernel stacks: slot i of KSTACK_SLOT bytes in P3 maps only its
 * top KSTACK_SIZE, so the page under every stack is a guard. */
#define KSTACK_AREA_BASE 0xffffffffc0000000
#define KSTACK_SLOT      32768
#define KSTACK_SLOTS     1024                 /* 32 MiB of P3 */
/* 4 MiB of P3 above the stacks that no kernel code maps: the kernel
 * self-tests map pages there (tests/kernel/test_mem.c, test_smp.c). */
#define KERNEL_TEST_VA   0xffffffffd0000000

/* The user programs' ELF class and machine (ELF32, EM_SH: proc/elf.c). */
#define ARCH_ELF_CLASS   1
#define ARCH_ELF_MACHINE 42

#define PAGE_SIZE        4096
#define PAGE_SHIFT       12

/* The 32-bit address a layout constant or a uint64_t kernel address stands for. */
#define SH4_ADDR32(a)    ((unsigned long)(a))

#endif
