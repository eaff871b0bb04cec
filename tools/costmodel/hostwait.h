/*
 * hostwait.h — holding a vCPU until the host has done what the guest
 * is about to look at (HAKO_SYNC_HOST_WAIT, uapi/hako_region.h).
 *
 * Under -icount the guest's clock is its instruction count, but a device
 * model that QEMU runs on its main loop (a disk's completion, in a bottom
 * half) finishes when the host gets to it.  A paced disk (iotest --pace on)
 * looks at its command when the command's service time is up on the
 * guest's clock; if the main loop has not run yet the look finds it busy,
 * and from there on the boot differs from the one before.  At that
 * marker the plugin reads the word the device will write into guest
 * memory and, while it does not read as expected, sleeps: the vCPU
 * thread runs no guest instruction meanwhile (QEMU's single TCG thread
 * runs them without the big lock, so the main loop can take it), and
 * the guest's clock stands still.  The look that follows then sees the
 * same thing in every run.
 *
 * Host time is bounded (CM_HOST_WAIT_LIMIT_US): a word that never comes
 * (a device error that writes elsewhere, a wrong address) is counted as
 * a timeout, and the guest goes on as without the plugin.
 */
#ifndef COSTMODEL_HOSTWAIT_H
#define COSTMODEL_HOSTWAIT_H

#include <stdbool.h>
#include <stdint.h>

#define CM_HOST_WAIT_LIMIT_US 2000000u   /* 2 s of host time, then the guest goes on */
#define CM_HOST_WAIT_STEP_US  20u        /* between two reads of the word */

struct cm_host_waits {
	uint64_t waits;              /* markers seen */
	uint64_t held;               /* ... of which found the word not yet written */
	uint64_t held_us;            /* host time slept in those */
	uint64_t timeouts;           /* ... of which never saw it within the limit */
};

/* Reads the 32-bit word at guest address va; false if it cannot be read. */
typedef bool (*cm_read_word_fn)(uint64_t va, uint32_t *word, void *ctx);
/* Sleeps us microseconds of host time. */
typedef void (*cm_sleep_fn)(uint64_t us, void *ctx);

/*
 * One marker: mask_value is the marker's %rdx, mask << 32 | value.  Reads
 * the word at va until (word & mask) == value, sleeping step_us between
 * reads, at most limit_us in all.  True if it matched (at once or after
 * holding); false on a timeout or an unreadable word (counted a timeout).
 */
bool cm_host_wait(struct cm_host_waits *w, uint64_t va, uint64_t mask_value,
		  cm_read_word_fn read, cm_sleep_fn sleep, void *ctx,
		  uint64_t limit_us, uint64_t step_us);

#endif
