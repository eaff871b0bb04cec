/*
 * uapi/hako_region.h — region markers for the cost-model plugin
 * (tools/costmodel/): how the guest tells the plugin where a measured
 * stretch of code begins and ends.
 *
 * A marker is the 8-byte no-op `nopl disp32(%rax)` (0F 1F 80 + disp32,
 * little-endian), with disp32 = HAKO_REGION_MAGIC | op << 12 | id.  On
 * hardware and in plain QEMU it does nothing; the plugin recognises it
 * and attributes the instructions, cycles and TLB/cache misses that
 * follow to region `id`:
 *   BEGIN         on the vCPU that executed it, until that vCPU executes END
 *   GLOBAL_BEGIN  on every vCPU, until any vCPU executes GLOBAL_END
 * The id is part of the instruction, so it must be a compile-time
 * constant.  The ids in use are listed in hako_region_ids.h.
 */
#ifndef HAKO_UAPI_REGION_H
#define HAKO_UAPI_REGION_H

#define HAKO_REGION_MAGIC        0x4B480000   /* "HK" in the displacement's top half */
#define HAKO_REGION_BEGIN        1
#define HAKO_REGION_END          2
#define HAKO_REGION_GLOBAL_BEGIN 3
#define HAKO_REGION_GLOBAL_END   4
#define HAKO_REGION_ID_MAX       4095

/* The displacement of the marker for (op, id). */
#define HAKO_REGION_DISP(op, id) \
	(HAKO_REGION_MAGIC | ((op) << 12) | ((id) & HAKO_REGION_ID_MAX))

#endif
