/*
 * uapi/hako_region_ids.h — the region ids in use (hako_region.h), one per
 * measured figure, and markers for ids chosen at run time.
 *
 * A benchmark's result line names its region ("region":ID) and how many
 * operations the region covered ("iters":N); `./hako bench NAME --model
 * PROFILE` divides the region's modelled totals by N.  Ids are 0..4095;
 * keep each program in a block of its own.
 */
#ifndef HAKO_UAPI_REGION_IDS_H
#define HAKO_UAPI_REGION_IDS_H

/* sysbench (user/sysbench): one region per timed loop. */
#define REGION_SYS_NULL_SYSCALL     0x001
#define REGION_SYS_GETPID           0x002
#define REGION_SYS_YIELD            0x003   /* both threads, one CPU */
#define REGION_SYS_PROCESS_SWITCH   0x004   /* _roundtrip and _oneway: one loop */
#define REGION_SYS_PAGE_FAULT       0x005
#define REGION_SYS_SPAWN            0x006   /* global: the child runs on another CPU */
#define REGION_SYS_CROSS_CPU_WAKEUP 0x007   /* global: post on cpu 0, wake-up on cpu 1 */
#define REGION_SYS_PROCESS_SWITCH_PW 0x008  /* process_switch_postwait_*: one loop */

/*
 * ispcbench (user/ispcbench): a block of 64 per mode, the mode's block
 * at REGION_ISPC + mode * REGION_ISPC_MODE_STRIDE (HAKO_ISPC_BASELINE 0,
 * HAKO_ISPC_FAST 1); within it these slots.
 */
#define REGION_ISPC                 0x100
#define REGION_ISPC_MODE_STRIDE     0x40
#define REGION_ISPC_SYSCALL         0x00
#define REGION_ISPC_PASTE           0x01
#define REGION_ISPC_PEEL            0x02
#define REGION_ISPC_FIRST_ACCESS    0x03
#define REGION_ISPC_SWITCH          0x04
#define REGION_ISPC_SERVER_PASTE    0x05    /* the same three in a server process */
#define REGION_ISPC_SERVER_PEEL     0x06
#define REGION_ISPC_SERVER_FIRST    0x07
#define REGION_ISPC_BASIC           0x08    /* + 2 * (4 KiB data) + (asynchronous) */
#define REGION_ISPC_SERVER_RECEIVE  0x0c    /* + (4 KiB data): a server's receive, request queued */
#define REGION_ISPC_SERVER_REPLY    0x0e    /* + (4 KiB data): a server's reply without waiting */
#define REGION_ISPC_RELAY           0x10    /* + 8 * (direct) + depth - 1 */
#define REGION_ISPC_DATA            0x20    /* + 8 * (copy) + size index */
#define REGION_ISPC_FASTPATH        0x30    /* + (4 KiB data): the synchronous round trip, fastpath on */
#define REGION_ISPC_SYNC_REQUEST    0x32    /* + (4 KiB data): client's call -> server has it */
#define REGION_ISPC_SYNC_RETURN     0x34    /* + (4 KiB data): server's reply -> client has it */
#define REGION_ISPC_CALL            0x36    /* + (4 KiB data): ispc_call's round trip, fastpath on */
#define REGION_ISPC_CLOCK           0x38    /* two clock reads alone, the span in every figure */

/*
 * ispcbench's process switch in ISPC traffic (user/ispcbench/switch.c):
 * REGION_ISPC_SWITCH_WS + mode * REGION_ISPC_SWITCH_MODE + figure + the
 * working set's index in its list (0..7).
 */
#define REGION_ISPC_SWITCH_WS       0x180
#define REGION_ISPC_SWITCH_MODE     0x20
#define REGION_ISPC_SWITCH_REQUEST  0x00    /* switch_request_wW: the request's round trip */
#define REGION_ISPC_SWITCH_ISPC     0x08    /* switch_ispc_wW: one way in ISPC traffic */
#define REGION_ISPC_SWITCH_ALONE    0x10    /* switch_alone_wW: the same calls without a switch */

/*
 * drvbench (user/drvbench, paper 003) and the kernel paths it times, a
 * block of 64; placement 0 in the kernel, 1 a driver process (2 and 3:
 * blocks of their own below).
 */
#define REGION_DRVPROC              0x200
#define REGION_DRVPROC_SIZE         0x40
#define REGION_DRVPROC_COPYIN       0x200   /* + 2 * (1514 bytes, not 4) + placement: the copy alone */
#define REGION_DRVPROC_CALL         0x204   /* + placement: drvproc_call NET_SEND, 60 bytes, round trip */
#define REGION_DRVPROC_COPYCALL     0x206   /* + 2 * (1514 bytes) + placement: drvproc_call NET_COPY */
#define REGION_DRVPROC_IRQ          0x20a   /* + placement (global): a frame sent by the kernel
                                             * until the waiting requester has it */
#define REGION_DRVPROC_FRAMES       0x20c   /* + placement (global): the throughput run */
/* The in-kernel driver with drvswitch=on (placement 2), one id per figure: */
#define REGION_DRVPROC_SWITCHED     0x210
#define DRVSW_COPYIN_4              0       /* the copy alone, 4 bytes (kernel) */
#define DRVSW_COPYIN_1514           1       /* the copy alone, 1514 bytes (kernel) */
#define DRVSW_CALL                  2       /* drvproc_call NET_SEND, 60 bytes */
#define DRVSW_COPYCALL_4            3       /* drvproc_call NET_COPY, 4 bytes */
#define DRVSW_COPYCALL_1514         4       /* drvproc_call NET_COPY, 1514 bytes */
#define DRVSW_IRQ                   5       /* (global) a frame until the requester has it */
#define DRVSW_FRAMES                6       /* (global) the throughput run */
/* A driver process in supervisor mode (drvmode=super, placement 3), one id
 * per figure, numbered as DRVSW_*; the copy alone (DRVSW_COPYIN_*) is the
 * kernel's copy for any driver process, REGION_DRVPROC_COPYIN's + 1 and + 3: */
#define REGION_DRVPROC_SUPER        0x218

/* tlbstep (kernel/measure/tlbstep.c): per size index, each pass. */
#define REGION_TLBSTEP_FIRST        0x400   /* first pass after the CR3 reload */
#define REGION_TLBSTEP_AGAIN        0x410   /* the same pages again */

/* iotest (user/iotest, paper 001): one global region per run of a grid,
 * REGION_IOTEST + the run's slot (0..511, iotest_region_global_*); the
 * busy-wait's calibration on one CPU. */
#define REGION_IOTEST               0x800
#define REGION_IOTEST_SLOTS         512
#define REGION_IOTEST_CALIB         0xa00

/*
 * kperf (user/kperf, paper 004): REGION_KPERF + 2 * (system-call number)
 * + (0 best case, 1 worst case), up to 4095; the markers are generated
 * with the call table (build/gen/kperf_calls.h).
 */
#define REGION_KPERF                0xc00   /* after iotest's 0x800..0xa00 */

/*
 * irqtrace=on (kernel/measure/preempt_trace.h): every interrupts-off
 * section and every whole interrupt; a section's BEGIN marker carries its
 * site (the outermost lock's caller) in %rax, every END marker the context
 * (uapi/hako_perf.h), and the plugin keeps each context's longest span in
 * its own vCPU's instructions (tools/costmodel/sections.h).
 */
#define REGION_PREEMPT_SECTION      0xd00
#define REGION_PREEMPT_IRQ          0xd01
#define REGION_PREEMPT_RESET        0xd02   /* BEGIN, %rax = resets so far: a new epoch */

/*
 * kperf's kernel-internal interfaces (kernel/measure/kinternal.c):
 * REGION_KINTERNAL + 2 * (interface index) + (0 best, 1 worst).
 */
#define REGION_KINTERNAL            0xd10
#define REGION_KINTERNAL_SLOTS      16

/* kperf --copy (user/kperf/copy.c, paper 004 Fig. 2): REGION_KPERF_COPY +
 * 2 * (size index) + (0 best, 1 worst), after the 32 ids of REGION_KINTERNAL;
 * its read and zero passes + 10 + 2 * (0 read, 1 zero) + (0 best, 1 worst). */
#define REGION_KPERF_COPY           0xd30

/* isochbench start switch (user/isochbench, paper 004 Tables 3-4), on its
 * bench CPU: START to the first job, STOP, and a thread switch from A's
 * stamp to B's, + (0 periodic to periodic, 1 normal to normal). */
#define REGION_ISOCH_START          0xd40
#define REGION_ISOCH_STOP           0xd41
#define REGION_ISOCH_SWITCH         0xd42

/* kperf's rows with the fastpath on (its rows that are not calls of
 * syscalls.def): + 2 * (0 ispc_request, 1 ispc_call) + (0 best, 1 worst). */
#define REGION_KPERF_FASTPATH       0xd48
#define REGION_KPERF_FASTPATH_ROWS  2

/* vclockcheck (user/vclockcheck, the cost model's clocks checked): one global
 * region per way, + (0 one thread, 1 K in parallel, 2 K serialised by a lock,
 * 3 one thread's reads from a disk). */
#define REGION_VCLOCK               0xd50

/* kperf --copy --bw (user/kperf/bw.c, the lmbench-style passes of the cost
 * model's bandwidth bench): + (0 rd, 1 wr, 2 bcopy, 3 rd4). */
#define REGION_KPERF_BW             0xd58
#define REGION_KPERF_BW_OPS         4

/*
 * region_begin_nth(BASE, K) and region_end_nth(BASE, K): region BASE + K
 * for a K known only at run time, 0 <= K < 16 (another K marks nothing).
 * A switch over sixteen constant markers: a jump and the marker, so keep
 * it outside the timed span.  Needs arch_region_mark.
 */
#define REGION_NTH_MAX 16
#define region_begin_nth(base, k) REGION_NTH_(HAKO_REGION_BEGIN, base, k)
#define region_end_nth(base, k)   REGION_NTH_(HAKO_REGION_END, base, k)
#define region_global_begin_nth(base, k) REGION_NTH_(HAKO_REGION_GLOBAL_BEGIN, base, k)
#define region_global_end_nth(base, k)   REGION_NTH_(HAKO_REGION_GLOBAL_END, base, k)
#define REGION_NTH_(op, base, k) do { \
		switch (k) { REGION_CASES4_(op, base, 0) REGION_CASES4_(op, base, 4) \
			     REGION_CASES4_(op, base, 8) REGION_CASES4_(op, base, 12) } \
	} while (0)
#define REGION_CASES4_(op, base, i) \
	REGION_CASE_(op, base, (i)) REGION_CASE_(op, base, (i) + 1) \
	REGION_CASE_(op, base, (i) + 2) REGION_CASE_(op, base, (i) + 3)
#define REGION_CASE_(op, base, i) case i: arch_region_mark(op, (base) + (i)); break;

#endif
