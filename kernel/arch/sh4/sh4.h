/*
 * sh4.h — SH7751R on-chip registers and helpers for arch/sh4 (internal:
 * generic code never includes it).  Addresses are P4 (0xe0000000 and up),
 * reached without the TLB.
 */
#ifndef HAKO_SH4_H
#define HAKO_SH4_H

#include <stdint.h>

struct trapframe;

/* MMU (P4). */
#define SH4_PTEH    0xff000000u   /* VPN, ASID */
#define SH4_PTEL    0xff000004u
#define SH4_TTB     0xff000008u
#define SH4_TEA     0xff00000cu   /* the address of the last address exception */
#define SH4_MMUCR   0xff000010u
#define SH4_TRA     0xff000020u    /* trapa's immediate << 2 */
#define SH4_EXPEVT  0xff000024u
#define SH4_INTEVT  0xff000028u
#define SH4_CCR     0xff00001cu

#define MMUCR_AT    (1u << 0)     /* translation on */
#define MMUCR_TI    (1u << 2)     /* invalidate every TLB entry */
#define MMUCR_SV    (1u << 8)     /* single virtual memory mode: off (ASIDs used) */
#define MMUCR_SQMD  (1u << 9)

/* The UTLB's address array, written associatively (P4 0xf6000000 | A). */
#define SH4_UTLB_ADDR  0xf6000000u
#define SH4_UTLB_ASSOC 0x00000080u
#define SH4_ITLB_ADDR  0xf2000000u

/* Interrupt controller. */
#define SH4_ICR     0xffd00000u
#define SH4_IPRA    0xffd00004u   /* 15:12 TMU0, 11:8 TMU1, 7:4 TMU2, 3:0 RTC */
#define SH4_IPRB    0xffd00008u
#define SH4_IPRC    0xffd0000cu   /* 7:4 SCIF */

/* Timer unit: three 32-bit down-counters on the peripheral clock. */
#define SH4_TOCR    0xffd80000u
#define SH4_TSTR    0xffd80004u   /* bit n starts channel n */
#define SH4_TCOR(n) (0xffd80008u + 12u * (n))
#define SH4_TCNT(n) (0xffd8000cu + 12u * (n))
#define SH4_TCR(n)  (0xffd80010u + 12u * (n))
#define TCR_UNF     (1u << 8)     /* underflowed */
#define TCR_UNIE    (1u << 5)     /* interrupt on underflow */

/* INTEVT codes of the sources used. */
#define INTEVT_TUNI0 0x400
#define INTEVT_TUNI1 0x420
#define INTEVT_TUNI2 0x440
#define INTEVT_SCIF_ERI 0x700
#define INTEVT_SCIF_RXI 0x720
#define INTEVT_SCIF_BRI 0x740
#define INTEVT_SCIF_TXI 0x760

/* EXPEVT codes. */
#define EXPEVT_TLB_MISS_R   0x040
#define EXPEVT_TLB_MISS_W   0x060
#define EXPEVT_INITIAL_W    0x080
#define EXPEVT_TLB_PROT_R   0x0a0
#define EXPEVT_TLB_PROT_W   0x0c0
#define EXPEVT_ADDR_ERR_R   0x0e0
#define EXPEVT_ADDR_ERR_W   0x100
#define EXPEVT_TRAPA        0x160
#define EXPEVT_ILLEGAL      0x180
#define EXPEVT_SLOT_ILLEGAL 0x1a0

/* The r2d board's FPGA (area 1, through P2): bit 0 of POWOFF powers off. */
#define R2D_FPGA_POWOFF 0xa4000030u

/* The peripheral clock QEMU's SH7750 model gives the TMU and SCIF. */
#define SH4_PCLK_HZ 60000000ull

static inline uint32_t mmio_read32(uint32_t a) { return *(volatile uint32_t *)a; }
static inline uint16_t mmio_read16(uint32_t a) { return *(volatile uint16_t *)a; }
static inline uint8_t mmio_read8(uint32_t a) { return *(volatile uint8_t *)a; }
static inline void mmio_write32(uint32_t a, uint32_t v) { *(volatile uint32_t *)a = v; }
static inline void mmio_write16(uint32_t a, uint16_t v) { *(volatile uint16_t *)a = v; }
static inline void mmio_write8(uint32_t a, uint8_t v) { *(volatile uint8_t *)a = v; }

/* vectors.S: the base the VBR is set to; the TLB misses the handler served
 * (one count per class of address, HAKO_TLB_MISS_CLASSES of them);
 * the UTLB's general entries (64 whole, 32 partitioned: utlb.c), how many
 * of them the handler has filled since the whole UTLB was invalidated (a
 * never-used one is taken first while this is below the general entries),
 * and the state of its random choice of an entry. */
extern char sh4_vectors[];
extern volatile uint32_t sh4_tlb_misses[];   /* by class: hako_perf.h's HAKO_TLB_MISS_* */
extern volatile uint32_t sh4_utlb_general, sh4_utlb_fill, sh4_utlb_rand;
void sh4_utlb_invalidate_all(void);     /* utlb.c: MMUCR.TI, the partition's slots freed */
/* The directories the miss handler walks (P1 addresses; 0: none). */
extern volatile uint32_t sh4_user_dir, sh4_kernel_dir;
/* The top of the kernel stack an entry from user mode lands on. */
extern volatile uint32_t sh4_kstack_top;

void trap(struct trapframe *tf);
void sh4_timer_irq(void);               /* timer.c: TMU0 underflow */
void sh4_serial_irq(void);              /* serial.c: SCIF receive */
void sh4_softirq_init(void);            /* softirq.c: self-raised vectors, held classes */
void sh4_softirq(void);                 /* TMU2 underflow: deliver pending vectors */
void sh4_deliver(int vector);           /* dispatch now, or keep pending while held */
uint32_t sh4_build_bootinfo(void);      /* bootparams.c: r2d's boot parameters as multiboot 1 */

#endif
