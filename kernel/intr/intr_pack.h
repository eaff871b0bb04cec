/*
 * intr_pack.h — interrupt packaging (paper 000): each interrupt source
 * handled either sequentially or packed, switchable at run time.
 *
 * A source is one device's interrupt, split as the paper needs it:
 *   ack   — read the device's volatile data (what the next interrupt
 *           would overwrite: a NIC's interrupt status) and acknowledge it
 *           at the device, so a level-triggered line drops; 0 means "not
 *           mine" (a shared line).
 *   work  — the main handler, given that data.
 *
 * Sequential (intr_sequential.c): every interrupt takes the full path —
 *   all registers saved, then pre-processing (mask the line, or raise
 *   the LAPIC priority for a message-signalled source; EOI; interrupts
 *   on), ack + work, and post-processing (interrupts off, mask
 *   restored, registers restored).
 * Packed (intr_packed.c): an interrupt enters through a lean stub that
 *   saves only the scratch registers, and the registration
 *   (intr_pack_register) asks ack for the volatile data, stores it with
 *   the arrival stamp in the source's ring, counts it and sends the EOI
 *   — no mask change, no re-enabling.  A batch later runs one
 *   pre-processing, the work of every registered interrupt on this CPU
 *   grouped by source type (in arrival order within a type), and one
 *   post-processing.
 *
 * Batch triggers: the N-th registered interrupt (the lean stub is told to
 * send it down the full path, which runs the batch), T elapsed since the
 * oldest entry (a timer), an interrupt handled sequentially on the same
 * CPU ("urgent"), the 10 ms scheduler tick (if the source asks for it),
 * a full ring (forced), and a flush (settings changed, source detached).
 * Timer-started batches run at the end of the timer's interrupt, after
 * its EOI (intr_pack_irq_exit).
 *
 * Nothing is lost: a ring holds 64 entries and N is at most 32; a
 * registration that finds a ring full diverts to the full path, which
 * empties it before storing.  During a batch the LAPIC priority holds
 * the packed vectors back, so no registration interrupts it.
 * Invariant (counters): handled + pending = interrupts.
 *
 * Sources are added at probe time (intr_pack_add) and live for ever; a
 * source is attached to a vector when its device is routed and detached
 * before the vector is released.  Attach/detach of one source are not
 * called concurrently.
 */
#ifndef HAKO_INTR_PACK_H
#define HAKO_INTR_PACK_H

#include <stdbool.h>
#include <stdint.h>
#include <time.h>
#include <hako_intr.h>

#define PACK_RING    64              /* entries per source, a power of two */
#define PACK_SRC_MAX 16              /* sources in the registry */
#define PACK_N_MAX   HAKO_INTR_N_MAX

struct pack_entry {
	uint64_t stamp;                  /* TSC at the interrupt's entry */
	uint32_t data;                   /* what ack returned */
};

struct intr_src {
	/* Filled in by the driver before intr_pack_add. */
	const char *name;                /* "rtl8139.0" */
	const char *type;                /* main handlers of one type run back to back */
	uint32_t (*ack)(struct intr_src *s);              /* interrupts off, any path */
	void (*work)(struct intr_src *s, uint32_t data);  /* may take spinlocks, never sleeps */
	void *priv;
	bool forwarded;                  /* the handler runs in a driver process (paper 003): sequential
	                                  * only, and ack holds the line with intr_pack_hold */

	/* Owned by kernel/intr/ (intr_source.c, intr_sequential.c, intr_packed.c). */
	int id;
	int type_id;                     /* sources of one type share it: 0, 1, ... in order added */
	int vector;                      /* 0: not attached */
	int cpu;                         /* where its interrupts are delivered */
	int gsi;                         /* level line to mask, -1: raise the LAPIC priority instead */
	struct intr_src *line_next;      /* next source on the same vector */
	struct hako_intr_set set;        /* as set from user space */
	volatile uint32_t n_now;         /* N in force */
	volatile uint64_t t_now;         /* T in force, TSC ticks; 0: none */
	uint64_t bound_tsc;              /* adaptive: delay bound */
	struct pack_entry ring[PACK_RING];
	volatile uint32_t head, tail;    /* free running: registration adds at head, batch takes at tail */
	volatile int consuming;          /* a batch or flush is taking entries */
	struct timer t_timer;            /* the T trigger, on the source's CPU */
	uint64_t last_stamp, gap_ewma;   /* arrival gaps, TSC ticks (moving average, 1/8) */
	struct hako_intr_counters c;
	volatile bool holding;           /* intr_pack_hold: its line stays masked */
};

/* Registry: returns the source's id, or -ENOSPC.  Starts sequential. */
int intr_pack_add(struct intr_src *s);
int intr_pack_count(void);
struct intr_src *intr_pack_get(int id);   /* NULL past the end */

/*
 * Take vector over for s (vector allocated and routed to cpu, the device's
 * interrupt still masked at the device); several sources may share one.
 * gsi: the level-triggered I/O APIC input, or -1 (message signalled).
 */
int intr_pack_attach(struct intr_src *s, int vector, int gsi, int cpu);
/* The device's interrupt is masked again: handle what is pending, let go of the vector. */
void intr_pack_detach(struct intr_src *s);
/* A do-nothing handler for a vector before attach and after detach. */
void intr_pack_unclaimed(void *arg);
/*
 * Paper 003: a source whose handler runs in a driver process cannot
 * acknowledge its device at interrupt time, so its ack calls
 * intr_pack_hold: the full path leaves its level line masked when it
 * finishes, until the process has handled the device and the kernel calls
 * intr_pack_release (which unmasks the line if no other source holds it
 * and s is still attached).  Message-signalled sources hold nothing.
 */
void intr_pack_hold(struct intr_src *s);
void intr_pack_release(struct intr_src *s);

/* Settings (check first, then act: -EINVAL changes nothing). */
int intr_pack_check(const struct hako_intr_set *set);
int intr_pack_configure(struct intr_src *s, const struct hako_intr_set *set);
void intr_pack_flush(struct intr_src *s);          /* run its pending main handlers now */
void intr_pack_snapshot(struct intr_src *s, struct hako_intr_dev *out);
int intr_pack_reset(struct intr_src *s);           /* flush, zero the counters; -EBUSY: retry */
bool intr_pack_batching_here(void);                /* a batch runs on this CPU (interrupts off) */
void intr_pack_stats(struct hako_intr_stats *out);  /* every CPU's batches since boot */
int intr_pack_set_group(uint64_t on);              /* batches grouped by type (1) or not (0); -EINVAL */
void intr_pack_adapt(struct intr_src *s);          /* adaptive: N and T from the arrival rate */

/* Hooks. */
int intr_pack_register(int vector, uint64_t stamp);   /* the lean stub's C part; 1: divert */
void intr_pack_tick(void);                            /* from the scheduler tick */
void intr_pack_irq_exit(void);                        /* end of every interrupt, after its EOI */

/* Phase probe (intr_pack_ctl.c; the system call is syscall/sys_intr.c). */
extern volatile bool intr_pack_probing;
struct hako_intr_probe_rec *intr_pack_probe_slot(void);   /* the next record, or NULL when full */
void intr_pack_probe_start(void);                  /* records from the first again */
void intr_pack_probe_stop(void);
const struct hako_intr_probe_rec *intr_pack_probe_records(uint32_t *n);   /* and how many */
int intr_pack_calibrate(struct intr_src *s, struct hako_intr_calib *out);   /* -ENODEV: not attached */

#endif
