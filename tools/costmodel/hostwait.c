/*
 * hostwait.c — holding a vCPU until a device model has written the word
 * the guest will look at (hostwait.h).
 */
#include "hostwait.h"

bool cm_host_wait(struct cm_host_waits *w, uint64_t va, uint64_t mask_value,
		  cm_read_word_fn read, cm_sleep_fn sleep, void *ctx,
		  uint64_t limit_us, uint64_t step_us)
{
	uint32_t mask = (uint32_t)(mask_value >> 32), value = (uint32_t)mask_value;
	uint64_t slept = 0;
	w->waits++;
	for (;;) {
		uint32_t word;
		if (!read(va, &word, ctx))
			break;
		if ((word & mask) == value) {
			if (slept) {
				w->held++;
				w->held_us += slept;
			}
			return true;
		}
		if (slept >= limit_us)
			break;
		sleep(step_us, ctx);
		slept += step_us;
	}
	if (slept) {
		w->held++;
		w->held_us += slept;
	}
	w->timeouts++;
	return false;
}
