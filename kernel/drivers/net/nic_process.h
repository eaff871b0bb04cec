/*
 * nic_process.h — a network card as a driver process sees it (paper 003);
 * the kernel's is nic.h.  Only nic_driver.h includes it.  The driver
 * side (operations, counters, nic_register, nic_deliver...) is the shared
 * nic_driver.h; struct nic here holds only what a driver touches, and
 * nic_process.c implements the calls: nic_register becomes
 * drvproc_register, nic_deliver hands each frame to the kernel
 * (drvproc_rx).  The kernel keeps its own struct nic for the
 * card (kernel/drvproc/drvproc_nic.c), which every other program uses.
 */
#ifndef HAKO_NIC_PROCESS_H
#define HAKO_NIC_PROCESS_H

#include <stdbool.h>
#include <stdint.h>
#include <nic_driver.h>

struct nic {
	char name[16];                 /* "rtl8139.0" */
	uint8_t mac[ETH_ALEN];
	struct drv_dev *dev;
	const struct nic_ops *ops;
	void *priv;                    /* the driver's own state */
	struct nic_stats stats;        /* handed to the kernel at each drvproc_recv */
	volatile bool link_up;
};

/* main.c's side of nic_process.c. */
struct nic *nic_process_card(void);       /* the card the driver registered, NULL */
void nic_process_room(bool room);         /* the kernel's receiver has room (again) */

#endif
