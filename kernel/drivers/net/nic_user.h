/*
 * nic_user.h — the network cards as user programs see them: ownership and
 * receive queues (nic_user.c) and the kernel's timed sender (nic_traffic.c).
 * The system calls (syscall/sys_nic.c) check the arguments and copy to and
 * from user memory; these take kernel values, a card index below
 * nic_count() and a pid.
 */
#ifndef HAKO_NIC_USER_H
#define HAKO_NIC_USER_H

#include <stdbool.h>
#include <stdint.h>
#include <hako_intr.h>

int nic_user_open(int nic, int cpu, int pid);   /* its interrupts to cpu: -EINVAL, -EBUSY, -ENOMEM */
int nic_user_close(int nic, int pid);           /* only the owner: -EPERM, -EBUSY */
void nic_user_info(int nic, struct hako_nic_info *out);
/* The next frame into buf (ETH_FRAME_MAX bytes): its length, or -EPERM (not
 * the owner), -EAGAIN (none and !block), -EINTR (killed), -EPIPE (closed). */
long nic_user_take(int nic, int pid, uint8_t *buf, bool block);
void nic_user_init(void);                       /* boot: nic_user_proc_end becomes an exit hook */
void nic_user_proc_end(int pid);                /* the owner ended: cards closed, senders stopped */

int nic_traffic_start(int nic, const struct hako_traffic *sp, int pid);   /* -EINVAL, -EBUSY */
int nic_traffic_stop(int nic, int pid);         /* -EPERM if another process started it */
void nic_traffic_stop_owner(int pid);           /* stop every sender pid started */
void nic_traffic_info(int nic, struct hako_nic_info *out);   /* the sender's fields */

#endif
