/*
 * syscall_entry.S — the way into the kernel from ring 3 (`syscall`) and
 * the two ways back (`sysret`, `iretq`), and the user-access primitives
 * whose faults are turned into -EFAULT.
 *
 * On `syscall` the CPU leaves the user rip in rcx and rflags in r11,
 * loads the kernel CS/SS from STAR and clears the rflags bits in SFMASK
 * (IF, DF, TF, AC), but keeps the user stack.  syscall_entry moves to the
 * thread's kernel stack (gs:16), builds a struct trapframe exactly like
 * an interrupt would (so fault reports, kill and thread start all see one
 * format), turns interrupts back on and calls the handler from the table
 * (syscall_table) with the arguments still in their registers (the words
 * calls, numbered last, with their r12..r15 in the frame too and
 * interrupts left off); after it,
 * with interrupts off again, a pending switch or kill is left to
 * syscall_exit_work.  What the table walk here does not handle (a number
 * outside the table) goes to syscall_dispatch(tf); with irqtrace=on, LSTAR
 * names syscall_entry_traced, which sends every call there.
 *
 * Back to user mode by sysret when the frame still holds a canonical
 * user rip; otherwise by iretq (sysret with a non-canonical rcx faults in
 * ring 0 on Intel CPUs).
 */
#include <arch/layout.h>
#include <syscall_handlers.h>          /* SYSCALL_COUNT */
#include "trapframe_asm.h"
#include "arch_cpu.h"

#define VECTOR_SYSCALL 256              /* not a real vector: marks a syscall frame */
#define TF_RBP (5*8)                    /* rbp's slot in the frame (PUSH_GPRS) */
#define TF_RAX (8*8)                    /* rax's */

	/* The kernel stack and the frame, both entries' first steps. */
	.macro SYSCALL_FRAME
	swapgs
	movq %rsp, %gs:8                 /* user rsp, for a moment */
	movq %gs:16, %rsp                /* this thread's kernel stack */
	pushq $SEL_UDATA                 /* ss */
	pushq %gs:8                      /* rsp */
	pushq %r11                       /* rflags */
	pushq $SEL_UCODE                 /* cs */
	pushq %rcx                       /* rip */
	pushq $0                         /* error */
	pushq $VECTOR_SYSCALL
	PUSH_SYSCALL_GPRS
	.endm

	/* The table's handler for the number in rax, called with the
	 * arguments in their registers (the fourth moves from r10 to rcx),
	 * under the frame-pointer link with interrupts on; irqs=off: with
	 * interrupts left off and no link (a backtrace ends at rbp 0: the
	 * words calls spare the three instructions); interrupts off after it. */
	.macro TABLE_CALL irqs=on
	.ifc \irqs,on
	SYSCALL_FRAME_LINK
	sti
	.else
	xorl %ebp, %ebp                  /* backtraces end here */
	.endif
	movq %r10, %rcx
	leaq (%rax,%rax,2), %rax         /* SYSCALL_ENTRY_SIZE is 3 words */
	call *syscall_table(,%rax,8)
	cli
	.ifc \irqs,on
	addq $16, %rsp
	.endif
	.endm

	/* The slots PUSH_SYSCALL_GPRS left, from the registers. */
	.macro STORE_R12_R15
	movq %r12, 3*8(%rsp)
	movq %r13, 2*8(%rsp)
	movq %r14, 1*8(%rsp)
	movq %r15, (%rsp)
	.endm

	.text
	.code64
	.globl syscall_entry, syscall_entry_traced, syscall_return_checks
syscall_entry:
	SYSCALL_FRAME
	/* The table walked here, the arguments still in their registers
	 * (the fourth moves from r10 to rcx); dispatch.c's syscall_dispatch
	 * takes numbers outside the table (and every call of
	 * syscall_entry_traced, below). */
	cmpq $SYSCALL_FIRST_WORDS, %rax
	jae 7f
	TABLE_CALL
	/* The result stays in rax: the frame's slot gets it only on the ways
	 * that read the frame (3: and 5:). */
	/* The checks every call's return makes, the result in rax and rsp
	 * at the frame; arch/switch.h's arch_switch_to_user comes here too,
	 * for a thread it resumes straight from its words call. */
syscall_return_checks:
	movq %gs:0, %rcx
	cmpb $0, CPU_NEED_RESCHED(%rcx)  /* a switch is due */
	jne 3f
	movq %gs:CPU_CURRENT, %rcx
	cmpb $0, THREAD_KILLED(%rcx)     /* or the thread leaves */
	jne 3f
6:	movq 17*8(%rsp), %rcx            /* the rip to return to */
	shrq $47, %rcx                   /* canonical user address: bits 63..47 clear */
	jnz 5f                           /* no: the iretq path copes with anything */
	/* rbx and r12..r15 are as they came (callee-saved in the C code);
	 * rcx and r11 become rip and rflags; rbp is the frame link's. */
	movq TF_RBP(%rsp), %rbp
	addq $TF_RAX+8, %rsp             /* r15, r14, r13, r12, r11, rbp, rbx, rcx, rax */
	POP_GPRS_FROM_RDX
	addq $16, %rsp                   /* vector, error */
	movq (%rsp), %rcx                /* rip */
	movq 16(%rsp), %r11              /* rflags */
	movq 24(%rsp), %rsp              /* user stack */
	swapgs
	sysretq

	/* The words calls (SYSCALL_FIRST_WORDS up): their r12..r15 go into
	 * the frame too, where a server call that resumes this thread
	 * straight to user mode finds them (arch_switch_to_user); the ways
	 * out that return from here have them in the registers as well.
	 * They are called with interrupts off: their dedicated paths keep
	 * them off, their general paths turn them on (ipc/ispc_call.c). */
7:	cmpq $SYSCALL_COUNT, %rax
	jae 2f
	STORE_R12_R15
	TABLE_CALL irqs=off
	jmp syscall_return_checks

2:	STORE_R12_R15                    /* a words call's, and harmless for the rest */
	CALL_SYSCALL_DISPATCH
1:	movq TF_RAX(%rsp), %rax          /* the result, in the frame on these ways */
	jmp 6b

/* With irqtrace=on LSTAR names this entry instead (user_arch.c's
 * syscall_entry_user): every call goes through syscall_dispatch, which
 * charges the call's interrupts-off sections to it. */
syscall_entry_traced:
	SYSCALL_FRAME
	jmp 2b

5:	movq %rax, TF_RAX(%rsp)          /* the result */
	STORE_R12_R15
	jmp trap_return

3:	movq %rax, TF_RAX(%rsp)          /* the result, where the exit work finds it */
	CALL_LINKED syscall_exit_work
	jmp 1b

/*
 * arch_enter_user(tf): leave for ring 3 with the registers in *tf, which
 * sits at the top of the current kernel stack.  Never returns.
 */
	.globl arch_enter_user
arch_enter_user:
	cli
	movq %rdi, %rsp
	jmp trap_return

/*
 * long arch_copy_user(void *dst, const void *src, size_t n)
 *   0, or -EFAULT (-14) if a page fault in the copy could not be served.
 * long arch_copy_user_str(char *dst, const char *src, size_t n)
 *   length of the string (without its NUL) if it ends within n bytes,
 *   n if it does not (dst then holds n bytes, unterminated), or -EFAULT.
 * long arch_copy_user_rw(void *dst, const void *src, uint64_t n)
 *   arch_copy_user from user memory that must also be writable: -EFAULT
 *   if the first or the last byte of src..src+n (1 <= n <= a page, so
 *   those two reach every page of it) cannot be written.  Each of the two
 *   gets a locked `or` of 0 first: a write that leaves its value as it
 *   is, even if another thread writes it meanwhile.
 * Callers check the user range first; these only survive faults.  With
 * SMAP on, stac/clac open user memory to the kernel for these instructions.
 */
	.globl arch_copy_user, arch_copy_user_str, arch_copy_user_rw
	.globl uaccess_start, uaccess_end, uaccess_fixup
uaccess_start:
arch_copy_user_rw:
	stac
	lock orb $0, (%rsi)
	lock orb $0, -1(%rsi,%rdx)
	jmp 1f

arch_copy_user:
	stac
1:	movq %rdx, %rcx
	shrq $3, %rcx
	rep movsq                        /* eight bytes a step, then the rest */
	movq %rdx, %rcx
	andq $7, %rcx
	rep movsb
	clac
	xorl %eax, %eax
	ret

arch_copy_user_str:
	stac
	xorl %eax, %eax
2:	cmpq %rdx, %rax
	je 3f
	movb (%rsi,%rax), %cl
	movb %cl, (%rdi,%rax)
	testb %cl, %cl
	jz 3f
	incq %rax
	jmp 2b
3:	clac
	ret
uaccess_end:

uaccess_fixup:
	clac
	movq $-14, %rax
	ret
