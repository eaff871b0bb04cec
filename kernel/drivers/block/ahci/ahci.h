/*
 * ahci.h — the register map and memory structures of an AHCI host bus
 * adapter (ahci.c), from the Serial ATA AHCI 1.3.1 specification (section
 * numbers below), the Register Host-to-Device FIS of Serial ATA 3.x
 * (10.5.5) and the ATA command set (ACS-3: IDENTIFY DEVICE, READ/WRITE DMA
 * EXT).  Offsets are bytes into ABAR (BAR5); every register is 32-bit.
 */
#ifndef HAKO_AHCI_H
#define HAKO_AHCI_H

#include <stdint.h>

#define AHCI_VENDOR      0x8086      /* Intel */
#define AHCI_DEV_ICH9    0x2922      /* 82801IR ICH9 6-port AHCI (QEMU's "ahci", q35's 00:1f.2) */
#define AHCI_ABAR        5           /* the BAR holding the HBA registers (2.1.11) */

/* Generic host control (3.1). */
#define HBA_CAP          0x00        /* host capabilities (3.1.1) */
#define HBA_GHC          0x04        /* global host control (3.1.2) */
#define HBA_IS           0x08        /* interrupt status: one bit per port, write 1 clears (3.1.3) */
#define HBA_PI           0x0c        /* ports implemented, one bit each (3.1.4) */
#define HBA_VS           0x10        /* AHCI version (3.1.5) */
#define HBA_CAP2         0x24        /* host capabilities extended (3.1.10) */
#define HBA_BOHC         0x28        /* BIOS/OS handoff control and status (3.1.11) */
#define HBA_PORTS        0x100       /* port 0's registers; port n at 0x100 + n * 0x80 (3.3) */
#define HBA_PORT_SIZE    0x80        /* bytes of registers per port */
#define HBA_PORTS_MAX    32          /* ports an HBA may have */

/* CAP bits. */
#define CAP_NP(v)        ((v) & 0x1f)            /* ports - 1 */
#define CAP_NCS(v)       (((v) >> 8) & 0x1f)     /* command slots per port - 1 */
#define CAP_S64A         (1u << 31)              /* 64-bit addressing for structures and data */

/* GHC bits. */
#define GHC_HR           (1u << 0)   /* HBA reset */
#define GHC_IE           (1u << 1)   /* interrupt enable: the HBA may interrupt at all */
#define GHC_AE           (1u << 31)  /* AHCI enable: registers, not legacy IDE, drive the HBA */

/* CAP2 bits. */
#define CAP2_BOH         (1u << 0)   /* BIOS/OS handoff supported (BOHC is implemented) */

/* BOHC bits (10.6.3). */
#define BOHC_BOS         (1u << 0)   /* BIOS owned semaphore */
#define BOHC_OOS         (1u << 1)   /* OS owned semaphore: the OS asks for the HBA */
#define BOHC_BB          (1u << 4)   /* BIOS busy: still cleaning up after the handoff */

/* Port registers: offsets from the port's base (3.3). */
#define PX_CLB           0x00        /* command list base, low; 1 KiB aligned (3.3.1) */
#define PX_CLBU          0x04        /* command list base, high 32 bits (3.3.2) */
#define PX_FB            0x08        /* received-FIS base, low; 256-byte aligned (3.3.3) */
#define PX_FBU           0x0c        /* received-FIS base, high 32 bits (3.3.4) */
#define PX_IS            0x10        /* interrupt status, write 1 clears (3.3.5) */
#define PX_IE            0x14        /* interrupt enable, bits as PX_IS (3.3.6) */
#define PX_CMD           0x18        /* command and status (3.3.7) */
#define PX_TFD           0x20        /* task file data: the device's status and error (3.3.8) */
#define PX_SIG           0x24        /* signature of the attached device (3.3.9) */
#define PX_SSTS          0x28        /* SATA status, SStatus (3.3.10) */
#define PX_SCTL          0x2c        /* SATA control, SControl (3.3.11) */
#define PX_SERR          0x30        /* SATA error, write 1 clears (3.3.12) */
#define PX_SACT          0x34        /* SATA active: NCQ tags outstanding (3.3.13) */
#define PX_CI            0x38        /* command issue: one bit per slot, cleared when done (3.3.14) */

/* PxIS / PxIE bits. */
#define PXI_DHRS         (1u << 0)   /* a D2H Register FIS arrived: a non-queued command ended */
#define PXI_PSS          (1u << 1)   /* a PIO Setup FIS arrived */
#define PXI_DSS          (1u << 2)   /* a DMA Setup FIS arrived */
#define PXI_SDBS         (1u << 3)   /* a Set Device Bits FIS arrived (NCQ) */
#define PXI_UFS          (1u << 4)   /* an unknown FIS arrived */
#define PXI_DPS          (1u << 5)   /* a PRD with its I bit was transferred */
#define PXI_PCS          (1u << 6)   /* port connect change (PxSERR.DIAG.X) */
#define PXI_PRCS         (1u << 22)  /* PhyRdy changed */
#define PXI_OFS          (1u << 24)  /* overflow: the device sent more than the PRDs hold */
#define PXI_INFS         (1u << 26)  /* interface non-fatal error */
#define PXI_IFS          (1u << 27)  /* interface fatal error */
#define PXI_HBDS         (1u << 28)  /* host bus data error */
#define PXI_HBFS         (1u << 29)  /* host bus fatal error */
#define PXI_TFES         (1u << 30)  /* task file error: the device ended a command with ERR */
#define PXI_ERRORS       (PXI_OFS | PXI_IFS | PXI_HBDS | PXI_HBFS | PXI_TFES)

/* PxCMD bits. */
#define PXCMD_ST         (1u << 0)   /* start: the HBA may process the command list */
#define PXCMD_FRE        (1u << 4)   /* FIS receive enable */
#define PXCMD_CCS(v)     (((v) >> 8) & 0x1f)     /* current command slot (valid while ST) */
#define PXCMD_FR         (1u << 14)  /* FIS receive DMA engine running */
#define PXCMD_CR         (1u << 15)  /* command list DMA engine running */

/* PxTFD bits: the ATA status register in 7:0, the error register in 15:8. */
#define TFD_ERR          (1u << 0)   /* the last command ended in error */
#define TFD_DRQ          (1u << 3)   /* data transfer requested */
#define TFD_BSY          (1u << 7)   /* the device is busy */

/* PxSSTS fields. */
#define SSTS_DET(v)      ((v) & 0xf)             /* device detection */
#define SSTS_DET_PRESENT 3                       /* device present, Phy communication established */
#define SSTS_IPM(v)      (((v) >> 8) & 0xf)      /* interface power management */
#define SSTS_IPM_ACTIVE  1                       /* interface in the active state */

/* PxSIG values (a device's first D2H FIS: sector count, LBA low, mid, high). */
#define SIG_ATA          0x00000101  /* an ATA disk */
#define SIG_ATAPI        0xeb140101  /* an ATAPI device (CD) */

/* Command header: one of 32 in the command list (4.2.2). */
struct ahci_cmd_header {
	uint32_t flags;              /* CFL (FIS dwords) 4:0, W 6 (to the device), PRDTL 31:16 */
	volatile uint32_t prdbc;     /* bytes transferred, written by the HBA */
	uint32_t ctba;               /* command table base, low; 128-byte aligned */
	uint32_t ctbau;              /* command table base, high */
	uint32_t reserved[4];
} __attribute__((packed));

#define HDR_CFL(dwords)  ((uint32_t)(dwords) & 0x1f)
#define HDR_WRITE        (1u << 6)               /* data goes to the device */
#define HDR_PRDTL(n)     ((uint32_t)(n) << 16)   /* PRD entries in the table */

/* Physical region descriptor (4.2.3.3). */
struct ahci_prd {
	uint32_t dba;                /* data base, low; word aligned */
	uint32_t dbau;               /* data base, high */
	uint32_t reserved;
	uint32_t dbc;                /* bytes - 1 in 21:0 (an even count); I (interrupt) bit 31 */
} __attribute__((packed));

/* Command table (4.2.3): the command FIS, an ATAPI command, then the PRDs. */
#define CT_CFIS          0x00        /* command FIS, up to 64 bytes */
#define CT_PRDT          0x80        /* the first PRD */

/* Received-FIS area: 256 bytes (4.2.1). */
#define RFIS_BYTES       256
#define RFIS_D2H         0x40        /* where the last D2H Register FIS lands */
#define FIS_TYPE_D2H     0x34        /* its first byte (SATA 10.5.6) */

/* Register Host-to-Device FIS (SATA 10.5.5), 5 dwords. */
#define FIS_TYPE_H2D     0x27
#define FIS_H2D_DWORDS   5
#define FIS_H2D_CMD      (1u << 7)   /* byte 1: C, this FIS carries a command */
#define FIS_DEV_LBA      (1u << 6)   /* device byte: LBA addressing */

/* ATA commands (ACS-3 7.x) and IDENTIFY DEVICE words (ACS-3 table 45). */
#define ATA_READ_DMA_EXT   0x25      /* read sectors, 48-bit LBA, by DMA */
#define ATA_WRITE_DMA_EXT  0x35      /* write sectors, 48-bit LBA, by DMA */
#define ATA_IDENTIFY       0xec      /* IDENTIFY DEVICE: 512 bytes of device data */
#define ID_SECTORS28       60        /* words 60-61: sectors reachable with 28-bit LBA */
#define ID_CMDSET2         83        /* word 83: commands and feature sets supported */
#define ID_CMDSET2_LBA48   (1u << 10)   /* ... the 48-bit address feature set */
#define ID_SECTORS48       100       /* words 100-103: sectors reachable with 48-bit LBA */
#define ATA_SECTOR         512       /* bytes per logical sector (QEMU's ide-hd default) */

#endif
