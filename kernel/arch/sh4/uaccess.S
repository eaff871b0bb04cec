/*
 * uaccess.S — copies to and from user memory with fault recovery.
 *
 * A fault inside [uaccess_start, uaccess_end) on a user address is served
 * like a user fault (trap.c -> uaccess_fault in user_arch.c) or, when the
 * page cannot be had, resumes at uaccess_fixup, which returns -EFAULT.
 * Arguments: r4 dst, r5 src, n's low word in r6 (a 64-bit n, below 4 GiB).
 */
	.text
	.balign 4
	.globl uaccess_start, uaccess_end, uaccess_fixup
	.globl arch_copy_user, arch_copy_user_rw, arch_copy_user_str
uaccess_start:
/* The same, src also writable: its first and last byte (1 <= n <= a
 * page, so they reach every page of it) are written back as they are. */
arch_copy_user_rw:
	mov.b	@r5, r0
	mov.b	r0, @r5
	mov	r5, r1
	add	r6, r1
	add	#-1, r1
	mov.b	@r1, r0
	mov.b	r0, @r1
/* 0 or -EFAULT. */
arch_copy_user:
	tst	r6, r6
	bt	2f
1:	mov.b	@r5+, r0
	dt	r6
	mov.b	r0, @r4
	bf/s	1b
	add	#1, r4
2:	rts
	mov	#0, r0

/* Up to n bytes with the NUL: the string's length, or n if no NUL came. */
arch_copy_user_str:
	mov	#0, r1                  /* bytes copied before the NUL */
	tst	r6, r6
	bt	4f
3:	mov.b	@r5+, r0
	mov.b	r0, @r4
	tst	r0, r0
	bt	5f
	add	#1, r1
	add	#1, r4
	cmp/eq	r1, r6
	bf	3b
4:	rts
	mov	r6, r0
5:	rts
	mov	r1, r0
uaccess_end:

uaccess_fixup:
	rts
	mov	#-14, r0                /* -EFAULT */
