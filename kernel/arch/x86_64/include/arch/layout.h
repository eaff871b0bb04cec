/*
 * layout.h — where things live in Hako's x86_64 address space.
 *
 * Shared by C and assembly.  Physical memory is identity-mapped once, at
 * DIRECT_MAP_BASE, in every address space; the kernel image itself is linked
 * at KERNEL_VBASE + its physical load address (the top 2 GiB, which
 * -mcmodel=kernel requires).  The lower half belongs to user processes.
 */
#ifndef HAKO_ARCH_LAYOUT_H
#define HAKO_ARCH_LAYOUT_H

#define KERNEL_PHYS_BASE 0x100000            /* loaded at 1 MiB */
#define KERNEL_VBASE     0xffffffff80000000  /* -mcmodel=kernel window */
#define DIRECT_MAP_BASE  0xffff800000000000  /* all RAM, PML4 slot 256 */
#define DIRECT_MAP_SIZE  0x0000008000000000  /* 512 GiB: one PML4 slot */
#define USER_TOP         0x00007fffffffe000

#define AP_TRAMPOLINE_PHYS 0x8000            /* real-mode start page of APs */
#define BOOT_STACK_SIZE  16384
#define KSTACK_SIZE      16384
/* The top of every thread's kernel stack is kept for the trapframe of an
 * entry from ring 3 (struct trapframe, 176 bytes, rounded up), so a user
 * thread can build its first one there while running below it. */
#define KSTACK_ENTRY_FRAME 192
/*
 * Thread kernel stacks live in their own window, PML4 slot 510: slot i
 * spans KSTACK_SLOT bytes and maps only its top KSTACK_SIZE, so the page
 * under every stack is unmapped and an overflow faults there.
 */
#define KSTACK_AREA_BASE 0xffffff0000000000
#define KSTACK_SLOT      32768
#define KSTACK_SLOTS     4096                 /* 128 MiB of address space */
/* 4 MiB in PML4 slot 257 that no kernel code maps: the kernel self-tests
 * map pages there (tests/kernel/test_mem.c, test_smp.c). */
#define KERNEL_TEST_VA   0xffff808000000000

/* The user programs' ELF class and machine (ELF64, EM_X86_64: proc/elf.c). */
#define ARCH_ELF_CLASS   2
#define ARCH_ELF_MACHINE 62

#define PAGE_SIZE        4096
#define PAGE_SHIFT       12

#endif
