/*
 * nvme.h — the controller registers, queue entries and commands of an NVM
 * Express controller (nvme.c), from the NVM Express Base Specification
 * revision 1.4: registers 3.1, queue entries 4.2 and 4.6, admin commands
 * 5, NVM commands 6.  Register offsets are bytes into the memory BAR0;
 * every register is 32-bit or 64-bit (QEMU refuses narrower accesses).
 * Fields are little-endian, as the CPU is.
 */
#ifndef HAKO_NVME_H
#define HAKO_NVME_H

#include <stdint.h>

#define NVME_VENDOR 0x1b36      /* Red Hat (QEMU's devices) */
#define NVME_DEVICE 0x0010      /* QEMU's "nvme" */

/* Controller registers (3.1). */
#define NVME_REG_CAP    0x00    /* Controller Capabilities, 64-bit (3.1.1) */
#define NVME_REG_VS     0x08    /* Version: major 31:16, minor 15:8 (3.1.2) */
#define NVME_REG_INTMS  0x0c    /* Interrupt Mask Set, pin-based/MSI only (3.1.3) */
#define NVME_REG_INTMC  0x10    /* Interrupt Mask Clear (3.1.4) */
#define NVME_REG_CC     0x14    /* Controller Configuration (3.1.5) */
#define NVME_REG_CSTS   0x1c    /* Controller Status (3.1.6) */
#define NVME_REG_AQA    0x24    /* Admin Queue Attributes (3.1.8) */
#define NVME_REG_ASQ    0x28    /* Admin Submission Queue base address, 64-bit (3.1.9) */
#define NVME_REG_ACQ    0x30    /* Admin Completion Queue base address, 64-bit (3.1.10) */
#define NVME_REG_DBS    0x1000  /* doorbells: SQ y tail at 1000h + 2y * stride,
                                 * CQ y head at 1000h + (2y + 1) * stride (3.1.24, 3.1.25) */

/* CAP fields (3.1.1), of the 64-bit value. */
#define NVME_CAP_MQES(c)   ((uint32_t)((c) & 0xffff))       /* largest queue, entries - 1 */
#define NVME_CAP_TO(c)     ((uint32_t)(((c) >> 24) & 0xff)) /* ready timeout, 500 ms units */
#define NVME_CAP_DSTRD(c)  ((uint32_t)(((c) >> 32) & 0xf))  /* doorbell stride: 4 << DSTRD bytes */
#define NVME_CAP_CSS_NVM   (1ull << 37)                     /* NVM command set supported */
#define NVME_CAP_MPSMIN(c) ((uint32_t)(((c) >> 48) & 0xf))  /* smallest page: 4 KiB << MPSMIN */

/* CC fields (3.1.5). */
#define NVME_CC_EN         (1u << 0)       /* enable; 1 -> 0 resets the controller */
#define NVME_CC_CSS_NVM    (0u << 4)       /* I/O command set: NVM */
#define NVME_CC_MPS_4K     (0u << 7)       /* memory page size 4 KiB << 0 */
#define NVME_CC_AMS_RR     (0u << 11)      /* arbitration: round robin */
#define NVME_CC_IOSQES     (6u << 16)      /* I/O SQ entry size 2^6 = 64 bytes */
#define NVME_CC_IOCQES     (4u << 20)      /* I/O CQ entry size 2^4 = 16 bytes */

/* CSTS fields (3.1.6). */
#define NVME_CSTS_RDY      (1u << 0)       /* ready: follows CC.EN once the controller has */
#define NVME_CSTS_CFS      (1u << 1)       /* controller fatal status */

/* AQA (3.1.8): queue sizes in entries - 1. */
#define NVME_AQA(sq, cq)   ((uint32_t)(((cq) - 1) << 16 | ((sq) - 1)))

/* A submission queue entry, 64 bytes (4.2). */
struct nvme_sqe {
	uint32_t cdw0;          /* opcode 7:0, fused 9:8, PRP/SGL 15:14 (0: PRPs), command id 31:16 */
	uint32_t nsid;          /* namespace; 0 for most admin commands */
	uint32_t cdw2, cdw3;    /* reserved */
	uint64_t mptr;          /* metadata pointer (unused) */
	uint64_t prp1;          /* data pointer: the first page (4.3) */
	uint64_t prp2;          /* ... the second page, or a PRP list (unused: one page only) */
	uint32_t cdw10, cdw11, cdw12, cdw13, cdw14, cdw15;   /* command specific */
};
_Static_assert(sizeof(struct nvme_sqe) == 64, "an SQ entry is 64 bytes");

#define NVME_CDW0(opcode, cid) ((uint32_t)(opcode) | (uint32_t)(cid) << 16)

/* A completion queue entry, 16 bytes (4.6). */
struct nvme_cqe {
	uint32_t dw0;           /* command specific result */
	uint32_t dw1;           /* reserved */
	uint32_t dw2;           /* SQ head pointer 15:0, SQ identifier 31:16 */
	uint32_t dw3;           /* command id 15:0, phase tag 16, status field 31:17 (4.6.1) */
};
_Static_assert(sizeof(struct nvme_cqe) == 16, "a CQ entry is 16 bytes");

#define NVME_CQE_CID(dw3)    ((uint16_t)((dw3) & 0xffff))
#define NVME_CQE_PHASE(dw3)  (((dw3) >> 16) & 1)
/* Status code 7:0 and status code type 10:8 of the status field (4.6.1.1,
 * 4.6.1.2); both zero is success.  The top bits (more, do not retry) are not. */
#define NVME_CQE_STATUS(dw3) (((dw3) >> 17) & 0x7ff)
#define NVME_CQE_SQHD(dw2)   ((uint16_t)((dw2) & 0xffff))

/* Admin commands (5). */
#define NVME_ADMIN_CREATE_SQ   0x01   /* Create I/O Submission Queue (5.4) */
#define NVME_ADMIN_CREATE_CQ   0x05   /* Create I/O Completion Queue (5.3) */
#define NVME_ADMIN_IDENTIFY    0x06   /* Identify (5.15) */
#define NVME_ADMIN_SET_FEATURES 0x09  /* Set Features (5.21) */

/* Create I/O Completion Queue: cdw10 size - 1 31:16, queue id 15:0;
 * cdw11 interrupt vector (MSI-X entry) 31:16, interrupts enabled 1,
 * physically contiguous 0 (5.3). */
#define NVME_CQ_IEN            (1u << 1)
#define NVME_Q_PC              (1u << 0)
/* Create I/O Submission Queue: cdw10 as above; cdw11 completion queue id
 * 31:16, priority 2:1, physically contiguous 0 (5.4). */
#define NVME_QSIZE_QID(size, qid) ((uint32_t)((size) - 1) << 16 | (uint32_t)(qid))

/* Identify: cdw10 bits 7:0 say what (5.15.1); the data is 4 KiB. */
#define NVME_CNS_NAMESPACE     0x00   /* the namespace nsid names */
#define NVME_CNS_CONTROLLER    0x01   /* the controller */

/* Identify Controller data, byte offsets. */
#define NVME_IDC_SN            4      /* serial number, 20 ASCII bytes, space padded */
#define NVME_IDC_MN            24     /* model number, 40 ASCII bytes */
#define NVME_IDC_NN            516    /* number of namespaces, 32-bit */

/* Identify Namespace data, byte offsets. */
#define NVME_IDN_NSZE          0      /* namespace size in logical blocks, 64-bit */
#define NVME_IDN_FLBAS         26     /* formatted LBA size: bits 3:0 index the LBA formats */
#define NVME_IDN_LBAF          128    /* LBA formats, 4 bytes each: */
#define NVME_LBAF_LBADS(f)     (((f) >> 16) & 0xff)   /* LBA data size, log2 bytes */

/* Set Features: cdw10 bits 7:0 the feature (5.21.1). */
#define NVME_FEAT_NUM_QUEUES   0x07   /* Number of Queues (5.21.1.7): cdw11 and the result
                                       * dw0 hold CQs - 1 in 31:16 and SQs - 1 in 15:0 */

/* NVM commands (6). */
#define NVME_CMD_WRITE         0x01   /* Write (6.15): cdw10-11 start LBA, cdw12 15:0 LBAs - 1 */
#define NVME_CMD_READ          0x02   /* Read (6.9): the same fields */

#endif
