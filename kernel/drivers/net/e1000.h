/*
 * e1000.h — the Intel 82540EM gigabit card, QEMU's "e1000"
 * (kernel/drivers/e1000.c).
 *
 * QEMU creates one with
 *   -netdev hubport,id=hako-n1,hubid=0 -device e1000,netdev=hako-n1,romfile=
 * (`./hako boot --net hub`).  Each card found at boot is registered as a
 * struct nic (nic.h) named e1000.0, e1000.1, ...
 */
#ifndef HAKO_E1000_H
#define HAKO_E1000_H

#define E1000_VENDOR 0x8086
#define E1000_DEVICE 0x100e     /* 82540EM */


#endif
