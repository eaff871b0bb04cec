/*
 * e1000.h — the register map and descriptor formats of the Intel 82540EM
 * (e1000.c), from the PCI/PCI-X Family of Gigabit Ethernet Controllers
 * Software Developer's Manual (8254x SDM): register summary table 13-2,
 * register descriptions 13.4, descriptors 3.2.3 and 3.3.3.  Offsets are
 * bytes into the 128 KiB memory BAR0; every register is 32-bit.
 */
#ifndef HAKO_E1000_H
#define HAKO_E1000_H

#include <stdint.h>

#define E1000_VENDOR 0x8086     /* Intel */
#define E1000_DEVICE 0x100e     /* 82540EM (QEMU's "e1000") */
#define E1000_REGS   0x20000    /* bytes of the register BAR */

/* Registers. */
#define REG_CTRL   0x0000   /* device control (SDM 13.4.1) */
#define REG_STATUS 0x0008   /* device status (13.4.2) */
#define REG_EERD   0x0014   /* EEPROM read (13.4.4) */
#define REG_ICR    0x00c0   /* interrupt cause read; reading clears it (13.4.17) */
#define REG_ITR    0x00c4   /* interrupt throttling, 256 ns units, 0 = off (13.4.18) */
#define REG_IMS    0x00d0   /* interrupt mask set (write) / read (13.4.20) */
#define REG_IMC    0x00d8   /* interrupt mask clear (13.4.21) */
#define REG_RCTL   0x0100   /* receive control (13.4.22) */
#define REG_TCTL   0x0400   /* transmit control (13.4.33) */
#define REG_TIPG   0x0410   /* transmit inter-packet gap (13.4.34) */
#define REG_RDBAL  0x2800   /* receive descriptor base, low 32 bits */
#define REG_RDBAH  0x2804   /* receive descriptor base, high 32 bits */
#define REG_RDLEN  0x2808   /* receive ring length in bytes (multiple of 128) */
#define REG_RDH    0x2810   /* receive head: next descriptor the card fills */
#define REG_RDT    0x2818   /* receive tail: first descriptor the card may not use */
#define REG_RDTR   0x2820   /* receive interrupt delay timer (0 = none) */
#define REG_TDBAL  0x3800   /* transmit descriptor base, low 32 bits */
#define REG_TDBAH  0x3804   /* transmit descriptor base, high 32 bits */
#define REG_TDLEN  0x3808   /* transmit ring length in bytes (multiple of 128) */
#define REG_TDH    0x3810   /* transmit head: next descriptor the card sends */
#define REG_TDT    0x3818   /* transmit tail: one past the last one queued */
#define REG_MTA    0x5200   /* multicast table array, 128 words */
#define REG_RAL0   0x5400   /* receive address 0, low: MAC bytes 0-3 */
#define REG_RAH0   0x5404   /* receive address 0, high: MAC bytes 4-5, AV */

/* CTRL bits. */
#define CTRL_ASDE   (1u << 5)    /* auto speed detection enable */
#define CTRL_SLU    (1u << 6)    /* set link up */
#define CTRL_RST    (1u << 26)   /* device reset, self-clearing */
#define CTRL_PHYRST (1u << 31)   /* PHY reset */

/* STATUS bits. */
#define STATUS_LU   (1u << 1)    /* link up */

/* EERD bits (82540: word address from bit 8, data from bit 16). */
#define EERD_START  (1u << 0)    /* start a read */
#define EERD_DONE   (1u << 4)    /* read finished, data valid */

/* Interrupt causes: the same bits in ICR, IMS and IMC. */
#define INT_TXDW    (1u << 0)    /* a transmit descriptor was written back */
#define INT_LSC     (1u << 2)    /* link status change */
#define INT_RXDMT0  (1u << 4)    /* free receive descriptors fell below threshold */
#define INT_RXO     (1u << 6)    /* receiver overrun: a frame was lost */
#define INT_RXT0    (1u << 7)    /* receiver timer: frames are waiting */

/* RCTL bits. */
#define RCTL_EN     (1u << 1)    /* receiver enable */
#define RCTL_BAM    (1u << 15)   /* broadcast accept mode */
#define RCTL_BSIZE_2048 (0u << 16)   /* BSIZE 00: 2 KiB buffers (with BSEX clear) */
#define RCTL_SECRC  (1u << 26)   /* strip the Ethernet CRC (FCS) */

/* TCTL bits. */
#define TCTL_EN     (1u << 1)    /* transmitter enable */
#define TCTL_PSP    (1u << 3)    /* pad short packets */
#define TCTL_CT     (0x0fu << 4) /* collision threshold, recommended 0x0f */
#define TCTL_COLD   (0x40u << 12)   /* collision distance, 64-byte times: full duplex */

/* TIPG for the 82540 on copper (13.4.34): IPGT 10, IPGR1 8, IPGR2 6. */
#define TIPG_VALUE  (10u | 8u << 10 | 6u << 20)

/* RAH bits. */
#define RAH_AV      (1u << 31)   /* address valid: the filter uses this entry */

/* Descriptor bits. */
#define RXD_DD      0x01         /* rx status: descriptor done */
#define RXD_EOP     0x02         /* rx status: last descriptor of the frame */
#define TXD_EOP     0x01         /* tx cmd: end of packet */
#define TXD_IFCS    0x02         /* tx cmd: insert the FCS */
#define TXD_RS      0x08         /* tx cmd: report status (write DD back) */
#define TXD_DD      0x01         /* tx status: descriptor done */
#define TXD_EC_LC   0x06         /* tx status: excess collisions, late collision */

struct rx_desc {                 /* legacy receive descriptor (SDM 3.2.3) */
	uint64_t addr;               /* buffer address */
	uint16_t length;             /* bytes the card wrote */
	uint16_t csum;               /* packet checksum */
	uint8_t status;              /* RXD_* */
	uint8_t errors;              /* nonzero: the frame is damaged */
	uint16_t special;            /* VLAN tag */
} __attribute__((packed));

struct tx_desc {                 /* legacy transmit descriptor (SDM 3.3.3) */
	uint64_t addr;               /* buffer address */
	uint16_t length;             /* bytes to send */
	uint8_t cso;                 /* checksum offset (unused) */
	uint8_t cmd;                 /* TXD_EOP, TXD_IFCS, TXD_RS */
	uint8_t status;              /* TXD_DD, TXD_EC_LC */
	uint8_t css;                 /* checksum start (unused) */
	uint16_t special;            /* VLAN tag */
} __attribute__((packed));

#endif
