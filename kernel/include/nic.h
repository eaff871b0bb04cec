/*
 * nic.h — what every network-card driver offers, and the registry of the
 * cards found at boot (nic.c).
 *
 * A network driver (drvenv.h) embeds a struct nic in its own state, fills
 * in the MAC and priv, and ends its attach with nic_register(); the card
 * is then initialised (rings allocated, receiver and transmitter on) but
 * its interrupts stay masked and unrouted until nic_up().  Frames go out
 * with nic_send() and come in through the receiver function installed
 * with nic_set_receiver().  What a driver may call is marked "Driver
 * side" below; the rest is for the kernel's users of cards.
 *
 * The interrupt handler is split in two halves, as paper 000 (interrupt
 * packaging) needs them:
 *   ack   — at interrupt time: read the device's interrupt status (its
 *           "volatile data": RTL8139 ISR, e1000 ICR), acknowledge it so a
 *           level-triggered line drops, and return it; 0 means the
 *           interrupt was not this card's (a shared INTx line).
 *   work  — main processing with that status: walk the receive ring and
 *           hand each frame to the receiver, reclaim finished transmit
 *           slots, count errors.  Nothing in it depends on the moment the
 *           interrupt arrived, so it may run later, batched.
 * nic_interrupt() runs the two back to back.  Interrupt packaging
 * (intr_pack.h) calls them through the card's intr_src: sequentially, or
 * ack at registration and work later in a batch, as the card is set.
 *
 * Cards register at boot only, so the registry is read without a lock.
 * nic_up/nic_down of one card are not called concurrently.
 *
 * Locking: rx_lock serialises work on the receive ring (the receiver runs
 * under it, in interrupt context: it may send, on any card, but must not
 * sleep); tx_lock guards the transmit slots.  Both disable interrupts.
 */
#ifndef HAKO_NIC_H
#define HAKO_NIC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <intr_pack.h>
#include <spinlock.h>

#define NIC_MAX        8      /* cards in the registry */
#define ETH_ALEN       6      /* bytes of a MAC address */
#define ETH_HLEN       14     /* destination, source, type */
#define ETH_FRAME_MIN  60     /* shortest frame, without the FCS */
#define ETH_FRAME_MAX  1514   /* longest untagged frame, without the FCS */

struct nic;
struct drv_dev;

/* Called for each frame received intact; frame is only valid during the call. */
typedef void (*nic_rx_fn)(struct nic *n, const uint8_t *frame, size_t len, void *arg);
/* Whether the receiver takes another frame now; if not, frames stay in the card. */
typedef bool (*nic_room_fn)(struct nic *n, void *arg);

struct nic_ops {
	/* Queue one frame (caller holds tx_lock); -EAGAIN when every slot is busy. */
	int (*send)(struct nic *n, const void *frame, size_t len);
	uint32_t (*ack)(struct nic *n);                  /* first half: status, 0 if not ours */
	void (*rx_work)(struct nic *n, uint32_t status); /* second half, caller holds rx_lock */
	void (*tx_work)(struct nic *n, uint32_t status); /* second half, caller holds tx_lock */
	void (*irq_enable)(struct nic *n, bool on);      /* the device's own interrupt mask */
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

enum nic_irq_mode { NIC_IRQ_NONE, NIC_IRQ_MSI, NIC_IRQ_INTX };

struct nic {
	char name[16];                 /* "rtl8139.0" */
	const char *driver;
	uint8_t mac[ETH_ALEN];
	struct drv_dev *dev;           /* the device and its grants (driver.h) */
	const struct nic_ops *ops;
	void *priv;                    /* the driver's own state */
	struct spinlock rx_lock, tx_lock;
	nic_rx_fn rx;                  /* NULL: frames are counted and dropped */
	nic_room_fn rx_room;           /* NULL: always room */
	void *rx_arg;
	struct nic_stats stats;
	volatile bool link_up;         /* as last reported by the device */
	/* Interrupt delivery, owned by nic.c. */
	struct intr_src src;           /* the card in interrupt packaging */
	enum nic_irq_mode irq_mode;
	int vector;
	struct nic *line_next;         /* next card sharing this INTx vector */
};

int nic_count(void);
struct nic *nic_get(int i);          /* NULL past the end */
struct nic *nic_find(const char *driver, int index);   /* index-th card of a driver */

void nic_set_receiver(struct nic *n, nic_rx_fn fn, void *arg);
/* The same with a room check: while it says no, rx_work leaves frames in the card
 * (whose ring then fills and holds back the rest); nic_poll picks them up later. */
void nic_set_receiver_room(struct nic *n, nic_rx_fn fn, nic_room_fn room, void *arg);
int nic_send(struct nic *n, const void *frame, size_t len);   /* -EINVAL, -EAGAIN */

/* Route the card's interrupt to cpu (MSI if it has it, else INTx) and unmask it. */
int nic_up(struct nic *n, int cpu);
void nic_down(struct nic *n);        /* mask it in the device, then unroute */

/* The two halves, and the sequential handler made of them. */
uint32_t nic_intr_ack(struct nic *n);
void nic_intr_work(struct nic *n, uint32_t status);
void nic_interrupt(struct nic *n);   /* ack, then work if it was ours */
void nic_poll(struct nic *n);        /* work without an interrupt: drain and reclaim */

/* ---- Driver side ---- */
/* The last step of attach: name the card as its device (driver.index) and enter
 * it; -EIO if its MAC is not a unicast address, -ENOSPC when the registry is full. */
int nic_register(struct nic *n, struct drv_dev *dev, const struct nic_ops *ops);
void nic_deliver(struct nic *n, const uint8_t *frame, size_t len);   /* caller holds rx_lock */
bool nic_rx_room(struct nic *n);     /* caller holds rx_lock: deliver another frame now? */
/* Copy a frame into a transmit buffer, zero-padded to ETH_FRAME_MIN; returns the length to send. */
size_t nic_copy_padded(void *dst, const void *frame, size_t len);

#endif
