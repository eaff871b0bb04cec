/*
 * uapi/hako_region.h — region markers for the cost-model plugin
 * (tools/costmodel/): how the guest tells the plugin where a measured
 * stretch of code begins and ends.
 *
 * A marker is the 7-byte no-op `nopl disp32(%rax)` (0F 1F 80, then the
 * displacement little-endian) with the displacement
 *     HAKO_REGION_MAGIC | op << HAKO_REGION_OP_SHIFT | id
 * On hardware and in plain QEMU it does nothing (one instruction); the
 * plugin recognises it and charges what follows to region `id`:
 *   BEGIN         on the vCPU that executed it, until that vCPU executes END
 *   GLOBAL_BEGIN  on every vCPU, until GLOBAL_END
 * The id is part of the instruction, so it is a compile-time constant;
 * the ids in use are in hako_region_ids.h.  Only #defines here: kernel and
 * user programs share this folder, the macros that emit the instruction
 * live with each of them.
 */
#ifndef HAKO_UAPI_REGION_H
#define HAKO_UAPI_REGION_H

#define HAKO_REGION_MAGIC        0x4B480000u   /* "HK" in the top 16 bits */
#define HAKO_REGION_MAGIC_MASK   0xFFFF0000u
#define HAKO_REGION_OP_SHIFT     12
#define HAKO_REGION_OP_MASK      0xFu          /* after the shift */
#define HAKO_REGION_ID_MASK      0xFFFu        /* ids 0 .. 4095 */
#define HAKO_REGION_IDS          4096

#define HAKO_REGION_BEGIN        1
#define HAKO_REGION_END          2
#define HAKO_REGION_GLOBAL_BEGIN 3
#define HAKO_REGION_GLOBAL_END   4

/* The displacement of the marker for (op, id). */
#define HAKO_REGION_DISP(op, id) \
	(HAKO_REGION_MAGIC | ((unsigned)(op) << HAKO_REGION_OP_SHIFT) | \
	 ((unsigned)(id) & HAKO_REGION_ID_MASK))

#endif
