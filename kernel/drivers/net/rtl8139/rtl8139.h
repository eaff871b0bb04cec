/*
 * rtl8139.h — the register map of the Realtek RTL8139 (rtl8139.c), from
 * the RTL8139C(L) datasheet's register table and register descriptions.
 * Offsets are into the 256-byte register window (BAR1 in memory space,
 * BAR0 the same in I/O space).
 */
#ifndef HAKO_RTL8139_H
#define HAKO_RTL8139_H

#define RTL8139_VENDOR 0x10ec   /* Realtek */
#define RTL8139_DEVICE 0x8139   /* RTL8139, 8139C, 8139C+ */
#define RTL8139_REGS   256      /* bytes of the register window */

/* Registers. */
#define REG_IDR0     0x00   /* ID registers IDR0-5: the MAC address, 6 bytes */
#define REG_TSD0     0x10   /* transmit status of descriptor 0..3 (TSD0-3), 32-bit each */
#define REG_TSAD0    0x20   /* transmit start address of descriptor 0..3 (TSAD0-3) */
#define REG_RBSTART  0x30   /* receive buffer start address (physical, 32-bit) */
#define REG_CR       0x37   /* command register, 8-bit */
#define REG_CAPR     0x38   /* current address of packet read (minus 16), 16-bit */
#define REG_CBR      0x3a   /* current buffer address: the card's write offset */
#define REG_IMR      0x3c   /* interrupt mask register, 16-bit */
#define REG_ISR      0x3e   /* interrupt status register, write 1 to clear, 16-bit */
#define REG_TCR      0x40   /* transmit configuration register */
#define REG_RCR      0x44   /* receive configuration register */
#define REG_MPC      0x4c   /* missed-packet counter, 24 bits, any write clears */
#define REG_CFG9346  0x50   /* 93C46 (EEPROM) command: unlocks the CONFIG registers */
#define REG_CONFIG1  0x52   /* configuration 1: power management, LED modes */
#define REG_MSR      0x58   /* media status register */

#define TSD(i)  (REG_TSD0 + 4 * (i))     /* descriptor i's status */
#define TSAD(i) (REG_TSAD0 + 4 * (i))    /* descriptor i's buffer address */

/* CR bits. */
#define CR_BUFE   0x01      /* receive buffer empty (read only) */
#define CR_TE     0x04      /* transmitter enable */
#define CR_RE     0x08      /* receiver enable */
#define CR_RST    0x10      /* software reset; reads 1 until done */

/* IMR / ISR bits: the same positions in both. */
#define INT_ROK     0x0001  /* receive OK: a frame was received */
#define INT_RER     0x0002  /* receive error (CRC, alignment) */
#define INT_TOK     0x0004  /* transmit OK: a frame was sent */
#define INT_TER     0x0008  /* transmit error (abort, underrun) */
#define INT_RXOVW   0x0010  /* receive buffer overflow: frames lost */
#define INT_LINKCHG 0x0020  /* link change / packet underrun */
#define INT_FOVW    0x0040  /* receive FIFO overflow */
#define INT_SERR    0x8000  /* PCI system error */

/* TSD bits (datasheet "Transmit Status Register"). */
#define TSD_SIZE  0x1fff    /* bits 12-0: bytes to send */
#define TSD_OWN   0x2000    /* DMA to the FIFO done: the buffer is free again */
#define TSD_TUN   0x4000    /* transmit FIFO underrun */
#define TSD_TOK   0x8000    /* transmit OK: frame sent */
#define TSD_TABT  (1u << 30)   /* transmission aborted */

/* RCR bits. */
#define RCR_APM        0x02        /* accept physical match: frames to our MAC */
#define RCR_AB         0x08        /* accept broadcast */
#define RCR_WRAP       0x80        /* write past the ring's end instead of wrapping */
#define RCR_MXDMA_ALL  (7u << 8)   /* MXDMA 111: unlimited receive DMA burst */
#define RCR_RBLEN_8K   (0u << 11)  /* RBLEN 00: ring of 8 KiB + 16 */
#define RCR_RXFTH_NONE (7u << 13)  /* RXFTH 111: no FIFO threshold, DMA whole frames */

/* TCR bits. */
#define TCR_MXDMA_2K   (7u << 8)   /* MXDMA 111: transmit DMA burst 2048 bytes */
#define TCR_IFG_STD    (3u << 24)  /* IFG 11: standard 9.6 us inter-frame gap */

/* Receive packet header status bits (datasheet "Receive Status Register in Rx Packet Header"). */
#define RXS_ROK   0x0001    /* frame received intact */

/* CFG9346 values. */
#define CFG9346_UNLOCK 0xc0 /* EEM 11: CONFIG registers writable */
#define CFG9346_LOCK   0x00 /* EEM 00: normal operation, CONFIG registers read only */

/* MSR bits. */
#define MSR_LINKB      0x04 /* link is down (inverse of link status) */

#endif
