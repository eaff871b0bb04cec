/*
 * ispcbench/copy.c — remapping against copying: the same synchronous
 * request carrying S bytes (64 B .. 1 MiB), once with the data ICA moved
 * (peel + paste, zero copy) and once with HAKO_ISPC_COPY (the kernel
 * copies the S bytes into a fresh ICA for the server and back into the
 * requester's when the result comes).  Both sides read one word of every
 * page the data spans, so a first touch is paid where the mode pays it.
 * Where the two curves cross is where remapping starts to pay.  Each
 * (size, way) has a region of its own.
 */
#include <stdio.h>
#include <hako/sys.h>
#include <arch/tsc.h>
#include "ispcbench.h"

static const uint32_t sizes[] = { 64, 256, 1024, 4096, 16384, 65536, 262144, 1048576 };
#define NSIZES (int)(sizeof sizes / sizeof sizes[0])

_Static_assert(2 * NSIZES <= REGION_NTH_MAX, "a region per size and way");

static int runs_for(uint32_t bytes)
{
	return bytes >= 262144 ? 40 : 300;
}

static int time_size(int server, int size_index, int copy)
{
	uint32_t bytes = sizes[size_index];
	int k = (copy ? NSIZES : 0) + size_index;
	struct samples s;
	struct call c;
	int pages = (int)((bytes + 4095) / 4096), runs = runs_for(bytes), err = 0;
	if (samples_init(&s, (unsigned)runs) < 0 || call_open(&c, pages) < 0)
		return -1;
	c.st->touch = (uint32_t)pages;
	for (int i = 0; i < runs && !err; i++) {
		struct hako_ispc_msg m = { .ctl = c.ctl, .data = c.data, .data_bytes = copy ? bytes : 0 };
		c.st->op = OP_STAMP;
		ispc_region_begin(REGION_ISPC_DATA, k);
		uint64_t t0 = tsc_now();
		long r = sys_ispc_request(server, &m, copy ? HAKO_ISPC_COPY : 0);
		for (int p = 0; p < pages; p++)
			(void)c.data_word[p * 1024];
		uint64_t t1 = tsc_now();
		ispc_region_end(REGION_ISPC_DATA, k);
		if (r < 0 || m.status < 0)
			err = fail(copy ? "copying request" : "remapping request", r < 0 ? r : m.status);
		samples_add(&s, t1 - t0);
	}
	char name[32];
	if (bytes >= 1024)
		snprintf(name, sizeof name, "data_%uk", bytes / 1024);
	else
		snprintf(name, sizeof name, "data_%u", bytes);
	if (!err)
		ispc_report(figure(name, copy ? "copy" : "remap"), &s, "synchronous request + result",
			    ispc_region(REGION_ISPC_DATA + k), s.n);
	call_close(&c);
	samples_free(&s);
	return err;
}

int part_copy(void)
{
	int server = spawn_server(0);
	if (server < 0)
		return -1;
	int err = 0;
	for (int i = 0; i < NSIZES && !err; i++) {
		err = time_size(server, i, 0);
		if (!err)
			err = time_size(server, i, 1);
	}
	stop_server(server);
	return err;
}
