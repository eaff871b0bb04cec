/*
 * boot.S — the first instructions of Hako on the boot CPU.
 *
 * A loader enters _start32 in 32-bit protected mode with paging off:
 * QEMU's -kernel through the multiboot 1 header (with the "a.out kludge"
 * addresses, so QEMU loads this ELF64 image as flat bytes instead of
 * refusing a 64-bit ELF), or GRUB through the multiboot 2 header.
 * EAX holds the loader's magic and EBX the physical address of its info.
 *
 * We build nothing at run time here: the boot page tables below are
 * assembled already filled in.  They map the first 4 GiB three times —
 * identity (so the next instruction still runs), at DIRECT_MAP_BASE, and
 * the first 1 GiB at KERNEL_VBASE — and the C code replaces them with
 * finer tables in vm_init().
 */
#include <arch/layout.h>

#define KV KERNEL_VBASE
#define PHYS(x) ((x) - KV)

#define MB1_MAGIC  0x1BADB002
#define MB1_FLAGS  ((1 << 0) | (1 << 1) | (1 << 16)) /* align, mem map, addresses */
#define MB2_MAGIC  0xE85250D6

	.section .boot.header, "a"
	.align 4
mb1_header:
	.long MB1_MAGIC
	.long MB1_FLAGS
	.long -(MB1_MAGIC + MB1_FLAGS)
	.long PHYS(mb1_header)           /* header_addr */
	.long PHYS(_kernel_start)        /* load_addr */
	.long PHYS(_edata)               /* load_end_addr */
	.long PHYS(_end)                 /* bss_end_addr */
	.long PHYS(_start32)             /* entry_addr */

	.align 8
mb2_header:
	.long MB2_MAGIC
	.long 0                          /* architecture: i386 protected mode */
	.long mb2_header_end - mb2_header
	.long -(MB2_MAGIC + 0 + (mb2_header_end - mb2_header))
	.align 8
	.short 3, 0                      /* entry address tag */
	.long 12
	.long PHYS(_start32)
	.align 8
	.short 0, 0                      /* end tag */
	.long 8
mb2_header_end:

	.section .boot.text, "ax"
	.code32
	.globl _start32
_start32:
	cli
	cld
	movl %eax, PHYS(boot_magic)
	movl %ebx, PHYS(boot_info)
	movl $PHYS(boot_stack_top), %esp

	/* Long mode available?  CPUID 0x80000001 EDX bit 29. */
	movl $0x80000000, %eax
	cpuid
	cmpl $0x80000001, %eax
	jb no_long_mode
	movl $0x80000001, %eax
	cpuid
	btl $29, %edx
	jnc no_long_mode

	movl $PHYS(boot_pml4), %eax
	movl %eax, %cr3
	movl %cr4, %eax
	orl $(1 << 5), %eax              /* CR4.PAE */
	movl %eax, %cr4
	movl $0xC0000080, %ecx           /* IA32_EFER */
	rdmsr
	orl $(1 << 8), %eax              /* EFER.LME */
	wrmsr
	movl %cr0, %eax
	orl $0x80010001, %eax            /* PG | WP | PE */
	movl %eax, %cr0

	lgdt PHYS(boot_gdtr)
	ljmp $0x08, $PHYS(start64_low)

no_long_mode:
	/* Say why on COM1 and stop: this CPU cannot run Hako. */
	movl $PHYS(no_lm_msg), %esi
1:	lodsb
	testb %al, %al
	jz 2f
	movw $0x3f8, %dx
	outb %al, %dx
	jmp 1b
2:	hlt
	jmp 2b

	.code64
start64_low:
	movw $0x10, %ax
	movw %ax, %ds
	movw %ax, %es
	movw %ax, %ss
	xorw %ax, %ax
	movw %ax, %fs
	movw %ax, %gs
	movabsq $start64_high, %rax
	jmp *%rax

	.section .boot.data, "aw"
no_lm_msg:
	.asciz "hako: this CPU has no long mode\r\n"

	.align 8
boot_gdt:
	.quad 0
	.quad 0x00af9a000000ffff         /* 0x08: 64-bit code */
	.quad 0x00cf92000000ffff         /* 0x10: data */
boot_gdt_end:
boot_gdtr:
	.short boot_gdt_end - boot_gdt - 1
	.long PHYS(boot_gdt)

	.align 4096
	.globl boot_pml4
boot_pml4:
	.quad PHYS(boot_pdpt_low) + 3    /* 0: identity */
	.fill 255, 8, 0
	.quad PHYS(boot_pdpt_low) + 3    /* 256: DIRECT_MAP_BASE */
	.fill 254, 8, 0
	.quad PHYS(boot_pdpt_high) + 3   /* 511: KERNEL_VBASE */

	.align 4096
boot_pdpt_low:
	.quad PHYS(boot_pd) + 0x0000 + 3
	.quad PHYS(boot_pd) + 0x1000 + 3
	.quad PHYS(boot_pd) + 0x2000 + 3
	.quad PHYS(boot_pd) + 0x3000 + 3
	.fill 508, 8, 0

	.align 4096
boot_pdpt_high:
	.fill 510, 8, 0
	.quad PHYS(boot_pd) + 3          /* -2 GiB -> physical 0 */
	.quad 0

	.align 4096
boot_pd:                                 /* 2048 x 2 MiB = 4 GiB */
	.set i, 0
	.rept 2048
	.quad (i << 21) | 0x83           /* present, writable, 2 MiB */
	.set i, i + 1
	.endr

	.globl boot_magic, boot_info
boot_magic:	.long 0
boot_info:	.long 0

	.text
	.code64
start64_high:
	movabsq $boot_stack_top, %rsp
	xorl %ebp, %ebp
	movl boot_magic(%rip), %edi
	movl boot_info(%rip), %esi
	call kmain
3:	cli
	hlt
	jmp 3b

	.section .bss
	.align 16
	.globl boot_stack_bottom, boot_stack_top
boot_stack_bottom:
	.space BOOT_STACK_SIZE
boot_stack_top:
