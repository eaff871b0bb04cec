/*
 * intrbench/intrbench.h — what the parts of the interrupt-packaging
 * benchmark (paper 000) share: the two cards on the QEMU hub, the kernel
 * sender on CPU 0, the receiving card's interrupts on CPU 1, the
 * settings, and the parts.
 *
 * Every figure is in TSC ticks, which under QEMU icount are guest
 * instructions (1 GHz: 1 ms = 1,000,000).
 */
#ifndef INTRBENCH_H
#define INTRBENCH_H

#include <stdbool.h>
#include <stdint.h>
#include <hako.h>
#include <hako/bench.h>

#define SEND_CPU   0                 /* the kernel sender's timer, the coordinator */
#define RX_CPU     1                 /* the RTL8139's interrupts, the measured processes */
#define PERIOD_NS  10000000ull       /* the paper's 10 ms */
#define FRAME_LEN  64

struct env {
	int rtl, e1k;                    /* card numbers: the e1000 sends, the RTL8139 receives */
	int dev;                         /* the RTL8139's intr_ctl device */
	int e1k_dev;                     /* the e1000's (parts grouping and urgent open it too) */
};
extern struct env env;

int fail(const char *what, long err);
void pin(int cpu, int prio);         /* the calling thread */

/* The receiving card's interrupt handling (the _on and _of forms: any intr_ctl device). */
int set_sequential(void);
int set_packed(uint32_t n, uint64_t t_ns, bool tick);
int set_adaptive(uint64_t bound_ns);
int get_dev(struct hako_intr_dev *d);
int set_sequential_on(int dev);
int set_packed_on(int dev, uint32_t n, uint64_t t_ns, bool tick);
int get_dev_of(int dev, struct hako_intr_dev *d);
int reset_dev(int dev);              /* pending handled, counters zeroed */
long probe(int op, uint64_t buf, uint32_t max);  /* the phase probe (intr_ctl PROBE) */
int calibrate_rx(struct hako_intr_calib *cal);   /* the RTL8139's vector, on RX_CPU */
int open_card(int card, int cpu);    /* its interrupts to cpu, its frames queued for us */

/* The kernel sender: per_period frames every period_ns, count in all. */
int traffic_start(uint32_t per_period, uint64_t period_ns, uint64_t count);   /* e1000 -> RTL8139 */
int traffic_from(int from, int to, uint32_t per_period, uint64_t period_ns, uint64_t count);
void traffic_wait(void);             /* until both cards' senders have sent them all */
void traffic_stop(void);

/* A thread that takes want frames from a card's queue (blocking) on cpu at
 * prio: the RTL8139's, or the e1000's if e1k. */
struct reader {
	uint64_t want;
	int cpu, prio;
	bool e1k;
	volatile uint64_t got;
	int tid;
};
int reader_start(struct reader *r);
int reader_join(struct reader *r);
int drain_queue(void);               /* frames left in the open cards' queues, taken */

/* The parts. */
int part_phases(void);               /* 1: s, t1, t2, t3 and totals for N = 1..10 */
int part_delay(void);                /* 2: average delay for several N and T */
int part_interference(void);         /* 3: loop counts with 1..10 interrupts per 10 ms */
int part_adaptive(void);             /* 5: adaptive N and T against fixed settings */
int part_grouping(void);             /* 6: both cards on one CPU, batches grouped by type or not */
int part_urgent(void);               /* 7: a sequential source on the same CPU ends the batch */
int part_time(void);                 /* 8: the time trigger T, swept */

/* Figures of part 1 that parts 2 and 5 use for their models. */
struct phases {
	uint64_t s, t1_seq, t2_seq, t3_seq, t1_pack, t2_pack, t3_pack;
	uint64_t lean_entry, full_entry;     /* interrupt to the stamp a delay starts from */
	bool valid;
};
extern struct phases phases;

/* A loop of fixed work: what the compute process counts (interference.c). */
uint64_t count_loops(uint64_t ticks);

/* The receiving process (`intrbench --receive COUNT`, interference.c): it
 * opens the RTL8139 on RX_CPU at priority 9 and takes COUNT frames. */
int receiver_main(uint64_t count);
int receiver_spawn(uint64_t count);  /* its pid once it holds the card, or -1 */
int receiver_wait(int pid);

#endif
