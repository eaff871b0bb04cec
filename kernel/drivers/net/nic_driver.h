/*
 * nic_driver.h — the driver side of a network card (nic.h), the part that
 * does not depend on where the driver runs (paper 003): frame sizes, the
 * operations a driver offers, its counters, and the calls it makes.
 *
 * A network driver includes this header (and drvenv.h) and nothing else
 * of the kernel.  struct nic itself comes from the placement's header,
 * included at the end: the kernel's nic.h (registry, locks, interrupt
 * routing) or a driver process's nic_process.h.  A driver uses only these
 * fields of it: mac, priv, dev, stats, link_up.  The calls below are
 * implemented by nic.c in the kernel and by nic_process.c in a driver
 * process, where nic_register becomes the drvproc registration of paper
 * 003 and nic_deliver hands the frame to the kernel.
 */
#ifndef HAKO_NIC_DRIVER_H
#define HAKO_NIC_DRIVER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define ETH_ALEN       6      /* bytes of a MAC address */
#define ETH_HLEN       14     /* destination, source, type */
#define ETH_FRAME_MIN  60     /* shortest frame, without the FCS */
#define ETH_FRAME_MAX  1514   /* longest untagged frame, without the FCS */
#define NIC_RX_BUDGET  32     /* frames one rx_work call takes at most */

struct nic;
struct drv_dev;

struct nic_ops {
	/* Queue one frame (caller holds tx_lock); -EAGAIN when every slot is busy. */
	int (*send)(struct nic *n, const void *frame, size_t len);
	uint32_t (*ack)(struct nic *n);                  /* first half: status, 0 if not ours */
	/* Second half, caller holds rx_lock: at most NIC_RX_BUDGET frames; true if
	 * it stopped there with more in the card (the caller comes back for them). */
	bool (*rx_work)(struct nic *n, uint32_t status);
	void (*tx_work)(struct nic *n, uint32_t status); /* second half, caller holds tx_lock */
	void (*irq_enable)(struct nic *n, bool on);      /* the device's own interrupt mask */
	/* Optional (NULL in the drivers): receive work from a thread that may
	 * sleep, finished when it returns (nic_drain).  A driver process's
	 * proxy card (kernel/drvproc/drvproc_nic.c) needs it: its rx_work only
	 * asks the process. */
	void (*drain)(struct nic *n);
};

struct nic_stats {
	volatile uint64_t tx;          /* frames the device reports sent */
	volatile uint64_t tx_errors;   /* frames it reports failed */
	volatile uint64_t rx;          /* frames handed to the receiver */
	volatile uint64_t rx_errors;   /* frames received damaged (and dropped) */
	volatile uint64_t rx_dropped;  /* frames the card missed for want of ring space
					* (lost on hardware; QEMU offers them again) */
	volatile uint64_t irqs;        /* interrupts that were this card's */
	volatile uint64_t not_mine;    /* interrupts on its line that were not */
};

/* The last step of attach: name the card as its device (driver.index) and enter
 * it; -EIO if its MAC is not a unicast address, -ENOSPC when the registry is full. */
int nic_register(struct nic *n, struct drv_dev *dev, const struct nic_ops *ops);
void nic_deliver(struct nic *n, const uint8_t *frame, size_t len);   /* caller holds rx_lock */
bool nic_rx_room(struct nic *n);     /* caller holds rx_lock: deliver another frame now? */
/* Copy a frame into a transmit buffer, zero-padded to ETH_FRAME_MIN; returns the length to send. */
size_t nic_copy_padded(void *dst, const void *frame, size_t len);

/* struct nic, as the placement defines it. */
#ifdef HAKO_DRVENV_PROCESS
#include <nic_process.h>
#else
#include <nic.h>
#endif

#endif
