/*
 * uapi/hako_intr.h — interrupt packaging (paper 000) and the network
 * cards as user programs see them: the intr_ctl, nic_ctl, nic_recv,
 * nic_send and nic_traffic system calls.  docs/design/intr.md "Interrupt
 * packaging" has the rules.
 */
#ifndef HAKO_UAPI_INTR_H
#define HAKO_UAPI_INTR_H

#include <stdint.h>

/* How a device's interrupts are handled. */
#define HAKO_INTR_SEQUENTIAL 0     /* pre-processing, main handler, post-processing, each time */
#define HAKO_INTR_PACKED     1     /* registration now, main handlers later in a batch */
#define HAKO_INTR_ADAPTIVE   2     /* packed, N and T chosen from the arrival rate and a delay bound */

/* intr_ctl(dev, op, arg) operations. */
#define HAKO_INTR_GET    0         /* arg: struct hako_intr_dev * to fill */
#define HAKO_INTR_SET    1         /* arg: const struct hako_intr_set * */
#define HAKO_INTR_RESET  2         /* handle what is pending, then zero the counters; arg unused */
#define HAKO_INTR_PROBE  3         /* arg: struct hako_intr_probe *; dev ignored */
#define HAKO_INTR_STATS  4         /* arg: struct hako_intr_stats * to fill; dev ignored */
#define HAKO_INTR_GROUP  5         /* arg: 1 a batch runs main handlers grouped by source type,
				    * 0 in arrival order across types; dev ignored */

/* hako_intr_set.flags */
#define HAKO_INTR_TICK   1         /* the 10 ms tick runs the batch */

#define HAKO_INTR_N_MAX      32          /* largest N */
#define HAKO_INTR_T_MAX_NS   1000000000ull   /* largest T and delay bound: 1 s */
#define HAKO_INTR_BOUND_MIN_NS 10000ull  /* smallest delay bound: 10 us */

/* Settings of one device.  Packed without T and without TICK, entries wait
 * for the N-th interrupt (or a flush: new settings, the card closed). */
struct hako_intr_set {
	int32_t mode;              /* HAKO_INTR_SEQUENTIAL, _PACKED, _ADAPTIVE */
	uint32_t n;                /* packed: a batch when N interrupts are registered, 1..32 */
	uint32_t flags;            /* HAKO_INTR_TICK */
	uint32_t reserved;         /* 0 */
	uint64_t t_ns;             /* packed: a batch when the oldest waited T; 0 = no T */
	uint64_t bound_ns;         /* adaptive: the average delay to stay under */
};

/* Counters since boot or the last RESET.  handled + pending = interrupts. */
struct hako_intr_counters {
	uint64_t interrupts;       /* interrupts that were this device's */
	uint64_t registered;       /* of them, recorded for a batch */
	uint64_t handled;          /* main-handler runs */
	uint64_t batches;          /* batches that ran its main handlers */
	uint64_t by_n, by_t, by_tick, by_urgent, by_full, by_flush;   /* what started them */
	uint64_t not_mine;         /* interrupts on its vector no device claimed */
	uint64_t delay_sum;        /* TSC ticks from interrupt to end of its main handler */
	uint64_t delay_max;
	uint64_t wait_max;         /* TSC ticks from the oldest pending entry's arrival to the
				    * start of the batch that took it, the largest (N, T, tick,
				    * urgent batches) */
};

struct hako_intr_dev {
	char name[16];             /* "rtl8139.0" */
	char type[16];             /* batches group main handlers by this: "rtl8139" */
	int32_t vector;            /* 0 while the device is not routed */
	int32_t cpu;               /* where its interrupts go, -1 while not routed */
	struct hako_intr_set set;  /* as set */
	uint32_t n_now;            /* N in force (adaptive: its current choice) */
	uint32_t pending;          /* registered, main handler not run yet */
	uint64_t t_now_ns;         /* T in force */
	uint64_t gap_ns;           /* mean time between its interrupts (moving average) */
	struct hako_intr_counters c;
};

/* The batches of every CPU since boot (N, T, tick and urgent batches; a
 * full ring's or a flush's drain of one source is not counted): how many
 * source types each held, and in how many stretches of one type's main
 * handlers it ran them (grouped: one stretch per type). */
#define HAKO_INTR_TYPES_HIST 4     /* types[i]: batches holding i + 1 types, the last that many or more */

struct hako_intr_stats {
	uint32_t group;            /* 1: batches group main handlers by type (the default) */
	uint32_t reserved;
	uint64_t batches;          /* batches that ran at least one main handler */
	uint64_t entries;          /* main handlers they ran */
	uint64_t runs;             /* stretches of one type's main handlers back to back */
	uint64_t types[HAKO_INTR_TYPES_HIST];
};

/* The phase probe: with it on, each registration and each full-path
 * interrupt (or timer-started batch) leaves one record of TSC stamps. */
#define HAKO_PROBE_START 0         /* clear the records and record from now */
#define HAKO_PROBE_STOP  1
#define HAKO_PROBE_READ  2         /* copy up to max records to buf; returns how many */
#define HAKO_PROBE_CALIBRATE 3     /* buf: struct hako_intr_calib; the device's vector raised by
				    * this CPU itself (self-IPI) at a known instruction */
#define HAKO_PROBE_MAX   1024      /* records kept */

#define HAKO_PROBE_REG   1         /* registration: t[0] stamp at entry, t[1] end of its C part */
#define HAKO_PROBE_FULL  2         /* full path: t[0] entry, t[1] pre-processing done,
				    * t[2] own main handlers done, t[3] batch done,
				    * t[4] post-processing done */
#define HAKO_PROBE_KICK  3         /* batch a timer asked for, after the timer's EOI: same stamps */

struct hako_intr_probe_rec {
	uint16_t kind;             /* HAKO_PROBE_REG, _FULL, _KICK */
	uint16_t cpu;
	uint16_t direct;           /* main handlers run at once (sequential) */
	uint16_t batched;          /* main handlers run in the batch */
	uint64_t t[5];
};

/* What the stamps cannot see: from the interrupt to the first stamp and from
 * the last stamp back to the interrupted code (kernel code interrupted). */
struct hako_intr_calib {
	uint64_t base;             /* two TSC reads around one store, no interrupt */
	uint64_t lean_prefix;      /* interrupt to the registration's entry stamp t[0] */
	uint64_t lean_suffix;      /* its end stamp t[1] to the interrupted code */
	uint64_t full_prefix;      /* interrupt to the full path's entry stamp t[0] */
	uint64_t full_suffix;      /* its last stamp t[4] to the interrupted code */
};

struct hako_intr_probe {
	int32_t op;                /* HAKO_PROBE_START, _STOP, _READ */
	uint32_t max;              /* READ: room in buf, in records */
	uint64_t buf;              /* READ: struct hako_intr_probe_rec * */
};

/* ---- network cards ------------------------------------------------------ */

/* nic_ctl(nic, op, info) operations. */
#define HAKO_NIC_INFO   0          /* fill *info */
#define HAKO_NIC_OPEN   1          /* take the card: interrupts to info->cpu, frames queued for nic_recv */
#define HAKO_NIC_CLOSE  2          /* give it back (also when the owner ends); info unused */

#define HAKO_NIC_NONBLOCK 1        /* nic_recv: -EAGAIN instead of waiting */
#define HAKO_NIC_QUEUE    64       /* frames the receive queue holds; then the card waits */
#define HAKO_NIC_FRAME_MAX 1514    /* longest frame, without the FCS */
#define HAKO_NIC_FRAME_MIN 60

struct hako_nic_info {
	char name[16];             /* "rtl8139.0" */
	uint8_t mac[6];
	uint8_t link_up;
	uint8_t reserved;
	int32_t owner;             /* pid that opened it, 0 */
	int32_t cpu;               /* OPEN: where its interrupts go; INFO: -1 while closed */
	int32_t intr_dev;          /* its device number for intr_ctl */
	uint32_t queued;           /* frames waiting for nic_recv */
	uint64_t tx, tx_errors;    /* frames the card reports sent, failed */
	uint64_t rx, rx_errors;    /* frames received intact, damaged */
	uint64_t rx_dropped;       /* frames the card missed for want of ring space */
	uint64_t irqs;             /* its interrupts */
	uint64_t held;             /* times a full queue held the card back (nothing lost) */
	uint64_t traffic_sent;     /* frames the kernel sender sent from this card */
	uint64_t traffic_left;     /* frames it has still to send */
	uint64_t traffic_busy;     /* sends that found every transmit slot busy (retried) */
};

/* nic_traffic(nic, spec): the kernel sends frames from card nic, evenly
 * spaced, from a timer on spec->cpu; a NULL spec stops it.  The sender
 * stops when its count is reached or the process that started it ends.
 * -EBUSY while another process's sender runs on the card, or while another
 * start or stop of it (say from another thread) is under way. */
struct hako_traffic {
	int32_t dst;               /* card whose MAC the frames are sent to */
	int32_t cpu;               /* CPU that sends */
	uint32_t len;              /* frame length, 60..1514 */
	uint32_t per_period;       /* frames per period, 1..1000 */
	uint64_t period_ns;        /* 10 us .. 1 s; the spacing is period / per_period, at least 2 us */
	uint64_t count;            /* frames in all, 1..10^7 */
	uint32_t burst;            /* frames sent back to back at each step, 1..16 */
	uint32_t reserved;         /* 0 */
};

/* What the kernel sender puts at the start of each frame (after it, zeros). */
struct hako_traffic_hdr {
	uint8_t dst[6], src[6];
	uint8_t type[2];           /* 0x88b5, IEEE 802 local experimental */
	uint8_t seq[4];            /* little-endian: 0, 1, 2, ... per sender */
	uint8_t tsc[8];            /* little-endian TSC when it was handed to the card */
};
#define HAKO_TRAFFIC_TYPE 0x88b5

#endif
