/*
 * rtl8139.h — the Realtek RTL8139 network card (kernel/drivers/rtl8139.c).
 *
 * QEMU creates one with
 *   -netdev hubport,id=hako-n0,hubid=0 -device rtl8139,netdev=hako-n0,romfile=
 * (`./hako boot --net hub`).  Each card found at boot is registered as a
 * struct nic (nic.h) named rtl8139.0, rtl8139.1, ...
 */
#ifndef HAKO_RTL8139_H
#define HAKO_RTL8139_H

#define RTL8139_VENDOR 0x10ec
#define RTL8139_DEVICE 0x8139


#endif
