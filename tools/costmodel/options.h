/*
 * options.h — the plugin's arguments (profile=PATH, out=PATH, epoch=ADDR,
 * ...), parsed into one struct with Hako's defaults, apart from the plugin
 * so the host tests can check them (tools/costmodel/README.md lists them).
 */
#ifndef CM_OPTIONS_H
#define CM_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define CM_LARGE_MAX 4             /* large=BASE:SIZE ranges */
#define CM_EPOCH_ADDRS_MAX 8       /* epoch=ADDR */
#define CM_RELEASE_ADDRS_MAX 4     /* release=ADDR */

struct cm_options {
	const char *profile_path;      /* profile=PATH (required) */
	const char *out_path;          /* out=PATH; NULL: stderr */
	bool show_regs;                /* regs=on */
	bool l2_off;                   /* l2=off */
	bool pcprof;                   /* pcprof=on */
	const char *turns_path;        /* turns=PATH: the vCPUs' turns (turns.h); NULL: none */
	uint64_t cpu_id_offset;        /* cpu_id_offset=N: the CPU number from the GS base */
	struct { uint64_t base, size; } large[CM_LARGE_MAX];   /* large=BASE:SIZE, 2 MiB pages */
	unsigned nlarge;
	uint64_t epoch_addrs[CM_EPOCH_ADDRS_MAX];             /* epoch=ADDR: a new epoch starts */
	unsigned nepoch_addrs;
	uint64_t release_addrs[CM_RELEASE_ADDRS_MAX];         /* release=ADDR: a lock release */
	unsigned nrelease_addrs;
	uint64_t clock_mhz;            /* mhz=N: cycles per µs of a marked service time */
	int32_t exit_port;             /* exit_port=N: the guest's isa-debug-exit port */
	uint64_t handler_start, handler_end;   /* handler=START:END: code counted apart; 0:0 none */
};

/* Hako's defaults, then argv: 0, or -1 with what is wrong in err. */
int cm_options_parse(int argc, char **argv, struct cm_options *o, char *err, size_t errlen);

#endif
