/*
 * nic_user.h — the network cards' system-call side: ownership and receive
 * queues (nic_user.c) and the kernel's timed sender (nic_traffic.c).
 */
#ifndef HAKO_NIC_USER_H
#define HAKO_NIC_USER_H

#include <uapi/hako_intr.h>

void nic_user_proc_end(int pid);              /* the owner ended: cards closed, senders stopped */
void nic_traffic_stop_owner(int pid);         /* stop every sender pid started */
void nic_traffic_info(int nic, struct hako_nic_info *out);   /* the sender's fields */

#endif
