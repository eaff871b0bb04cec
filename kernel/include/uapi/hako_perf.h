/*
 * uapi/hako_perf.h — kernel self-measurement (paper 004): perf_ctl.
 *
 * perf_ctl(HAKO_PERF_PURGE, NULL) writes back and invalidates every cache
 * and flushes the calling CPU's whole TLB, global entries too
 * (arch_purge_caches_and_tlb), and returns 0: what a measurement does
 * before timing a call's worst case (user/kperf).  Pin the thread first:
 * only the calling CPU's TLB is flushed.  Under QEMU icount the purge
 * costs a few instructions and no time; the cost model (--model) sees it.
 * arg must be NULL (-EINVAL otherwise, and for an unknown op).
 */
#ifndef HAKO_UAPI_PERF_H
#define HAKO_UAPI_PERF_H

#define HAKO_PERF_PURGE 1

#endif
