/*
 * nic.h — what every network-card driver offers, and the registry of the
 * cards found at boot (nic.c).
 *
 * A network driver (drvenv.h) embeds a struct nic in its own state, fills
 * in the MAC and priv, and ends its attach with nic_register(); the card
 * is then initialised (rings allocated, receiver and transmitter on) but
 * its interrupts stay masked and unrouted until nic_up().  Frames go out
 * with nic_send() and come in through the receiver function installed
 * with nic_set_receiver().  What a driver may use is nic_driver.h (the
 * same in both placements of paper 003); the rest is for the kernel's
 * users of cards.  A card whose driver runs as a process has a proxy
 * struct nic here (kernel/drvproc/drvproc_nic.c), so every user of cards
 * works with either placement.
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
 *
 * Receive work is bounded: one rx_work call takes at most NIC_RX_BUDGET
 * frames, so interrupts stay off for a bounded time however fast frames
 * come.  When a call stops at the budget, the card's rx_later timer
 * (armed under rx_lock, on the CPU that did the work) does another pass
 * soon after, and so on until the ring is empty; the device raises no new
 * interrupt for frames it already reported, so nothing is left waiting.
 */
#ifndef HAKO_NIC_H
#define HAKO_NIC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <intr_pack.h>
#include <nic_driver.h>
#include <spinlock.h>
#include <time.h>

#define NIC_MAX        8      /* cards in the registry */

/* Called for each frame received intact; frame is only valid during the call. */
typedef void (*nic_rx_fn)(struct nic *n, const uint8_t *frame, size_t len, void *arg);
/* Whether the receiver takes another frame now; if not, frames stay in the card. */
typedef bool (*nic_room_fn)(struct nic *n, void *arg);

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
	uint64_t last_done_tsc;        /* TSC when its last interrupt's main handler ended (paper 003) */
	struct timer rx_later;         /* more frames than one rx_work takes: the next pass */
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
void nic_poll(struct nic *n);        /* work without an interrupt: one pass, and reclaim */
/* From a thread that may sleep: the receive work done when it returns (a
 * driver process's card asks its process and waits; others: receive passes
 * with interrupts on between them, until the ring is empty or
 * NIC_DRAIN_PASSES passes are done: an endless flood is left to rx_later). */
void nic_drain(struct nic *n);
#define NIC_DRAIN_PASSES 1024

/* The driver side (nic_register, nic_deliver, nic_rx_room, nic_copy_padded) is nic_driver.h. */

#endif
