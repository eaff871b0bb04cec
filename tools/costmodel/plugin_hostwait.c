/*
 * plugin_hostwait.c — the plugin's side of HAKO_SYNC_HOST_WAIT
 * (hostwait.h has the rule): the word read from the running vCPU's guest
 * memory through QEMU, host time slept with nanosleep, the counts for the
 * markers line.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

#include "hostwait.h"
#include "plugin.h"

static struct cm_host_waits waits;

/* A 32-bit word of guest memory at a virtual address of the running vCPU. */
static bool read_guest_word(uint64_t va, uint32_t *word, void *ctx)
{
	g_byte_array_set_size(reg_buf, 0);
	if (!qemu_plugin_read_memory_vaddr(va, reg_buf, 4) || reg_buf->len < 4)
		return false;
	memcpy(word, reg_buf->data, 4);
	return true;
}

static void sleep_host(uint64_t us, void *ctx)
{
	struct timespec t = { (time_t)(us / 1000000), (long)(us % 1000000) * 1000 };
	nanosleep(&t, NULL);
}

void host_wait(uint64_t va, uint64_t mask_value)
{
	cm_host_wait(&waits, va, mask_value, read_guest_word, sleep_host, NULL,
		     CM_HOST_WAIT_LIMIT_US, CM_HOST_WAIT_STEP_US);
}

const char *host_waits_json(char *buf, size_t size)
{
	snprintf(buf, size, "\"host_waits\":%" PRIu64 ",\"host_held\":%" PRIu64
		 ",\"host_held_us\":%" PRIu64 ",\"host_timeouts\":%" PRIu64,
		 waits.waits, waits.held, waits.held_us, waits.timeouts);
	return buf;
}
