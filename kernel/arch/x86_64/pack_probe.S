/*
 * pack_probe.S — the phase probe's self-interrupt (pack_arch.c): the TSC,
 * one 32-bit store, the TSC.  Stored to the LAPIC's ICR with the "self"
 * shorthand, the store raises the vector here and the interrupt is taken
 * before the second read, so out[1] - out[0] is its whole cost plus what
 * the same code costs with a plain store.
 *
 * void pack_probe_store(volatile uint32_t *reg, uint32_t value, uint64_t out[2])
 */
	.text
	.globl pack_probe_store
pack_probe_store:
	movq %rdx, %r8
	rdtsc
	shlq $32, %rdx
	orq %rax, %rdx
	movq %rdx, (%r8)
	movl %esi, (%rdi)
	rdtsc
	shlq $32, %rdx
	orq %rax, %rdx
	movq %rdx, 8(%r8)
	ret
