/*
 * uapi/hako_ispc.h — ICAs and server communication (paper 002), the part
 * user programs and the kernel share.
 *
 * An ICA (inter-core communication area) is 1..HAKO_ICA_MAX_PAGES pages
 * of physically contiguous memory from the kernel's ICA region.  It is
 * pasted (mapped) into at most one process at a time, always at the same
 * address: HAKO_ICA_AREA + its offset in the region, so pointers between
 * ICAs stay valid wherever they go.  A process may touch only the ICAs
 * pasted into it; anything else in the area faults and kills it.  The
 * servers named by the kernel option `servers=` are the exception in
 * `fast` mode: they see the whole region (the paper's OS servers).
 *
 * A request moves a control ICA (and optionally a data ICA) from the
 * requester to a server: peeled from one, pasted into the other, never
 * copied.  The kernel queues requests per server and results per
 * requester.  See docs/design/ipc.md "Server communication" for the rules.
 */
#ifndef HAKO_UAPI_ISPC_H
#define HAKO_UAPI_ISPC_H

#include <stdint.h>

/* Where the user half's windows sit: hako.h. */
#define HAKO_USER_SHIFT        (__SIZEOF_POINTER__ == 8 ? 32 : 16)

#define HAKO_ICA_AREA        (0x6000ull << HAKO_USER_SHIFT)  /* the ICA window in every process (hako.h) */
#define HAKO_ICA_AREA_SIZE   (1ull << (HAKO_USER_SHIFT == 32 ? 30 : 28))  /* room reserved; the region is smaller */
#define HAKO_ICA_MAX_PAGES   256                    /* 1 MiB per ICA */

#define HAKO_ISPC_NAMESERVER_PID  0    /* request target: whoever listens as the name server */
#define HAKO_ISPC_MAX_STAGES      16   /* requesters stacked on one request */
#define HAKO_ISPC_QUEUE_MAX       64   /* requests waiting at one server: -EAGAIN beyond */
#define HAKO_ISPC_OUTSTANDING_MAX 32   /* results one process awaits: -EAGAIN beyond */

/* ispc_request flags */
#define HAKO_ISPC_ASYNC    0x1   /* return at once; take the result with ispc_result */
#define HAKO_ISPC_DIRECT   0x2   /* the final result goes straight to the first requester;
				    only the first requester chooses it (ignored on a forward) */
/* ispc_request returns this when a server passed on a DIRECT request: no
 * result will come back to it, and it no longer holds the ICAs.  With
 * HAKO_ISPC_WAIT it has also received its next request into the message
 * (one call instead of a forward and a receive). */
#define HAKO_ISPC_PASSED   1
#define HAKO_ISPC_COPY     0x20  /* a new request's data travels as a copy of its first
				    msg.data_bytes bytes, made by the kernel; the data ICA
				    stays with the requester and gets the bytes back with
				    the result (the copying counterpart of remapping) */
/* ispc_receive / ispc_result flags */
#define HAKO_ISPC_NONBLOCK 0x4   /* -EAGAIN instead of waiting */
/* ispc_reply flags (and ispc_request: see HAKO_ISPC_PASSED) */
#define HAKO_ISPC_WAIT     0x8   /* synchronous return: reply, then receive the next request */
/* ispc_listen flags */
#define HAKO_ISPC_NAMESERVER 0x10  /* also take requests sent to HAKO_ISPC_NAMESERVER_PID */

/* ispc_mode */
#define HAKO_ISPC_BASELINE 0     /* paste maps nothing (first touch faults); every peel unmaps */
#define HAKO_ISPC_FAST     1     /* paste fills the PTEs; servers keep the whole region mapped */
#define HAKO_ISPC_QUERY    (-1)
/* ispc_mode, the second switch, at any time: synchronous calls switch
 * straight between requester and server when they can (the fastpath,
 * kernel option fastpath=on|off); returns the state, ON or OFF. */
#define HAKO_ISPC_FASTPATH_OFF   2
#define HAKO_ISPC_FASTPATH_ON    3
#define HAKO_ISPC_FASTPATH_QUERY (-2)

/*
 * What ispc_request, ispc_receive, ispc_reply and ispc_result exchange.
 * in: filled by the caller; out: filled by the kernel.
 */
struct hako_ispc_msg {
	int32_t ctl;        /* in/out: control ICA id; it is the request's tag */
	int32_t data;       /* in/out: data ICA id, or -1 */
	uint64_t ctl_va;    /* out: where ctl is now pasted in the caller */
	uint64_t data_va;   /* out: where data is, or 0 */
	int32_t client;     /* out: pid of the first requester (-1 if it is gone) */
	int32_t from;       /* out: receive: the stage that sent it; result: the server that answered */
	int32_t depth;      /* out: receive: requesters stacked below this server (1 = a client) */
	int32_t status;     /* reply in: the result (negative errno for failure); result out: it */
	int32_t flags;      /* out: HAKO_ISPC_DIRECT if the request returns directly */
	int32_t data_pages; /* out: size of the data ICA in pages, 0 without one */
	uint32_t data_bytes; /* in, with HAKO_ISPC_COPY: how many bytes to copy; out: the
				bytes a copied data ICA holds (0 if it was remapped) */
	uint32_t reserved;  /* 0 */
};

/*
 * ispc_call and ispc_reply_recv: the message in registers.  Their result is
 * the message's tag (its control ICA id, >= 0 and never 1) or -errno; an
 * ispc_call that forwards a direct request passes it on as ispc_request
 * does and returns HAKO_ISPC_PASSED (no result comes back to it; the
 * words hold what it sent); the other fields
 * of struct hako_ispc_msg come back as the six words of struct hako_words
 * (hako.h), two 32-bit fields to a word, packed and unpacked only here:
 *   w[0] ctl_va            w[1] data_va
 *   w[2] data | client     w[3] from | depth
 *   w[4] status | flags    w[5] data_pages | data_bytes   (low | high half)
 * Only where a register holds 64 bits (x86_64); elsewhere both calls
 * return -ENOSYS.
 */
#define HAKO_ISPC_PAIR(lo, hi) ((uint64_t)(uint32_t)(lo) | (uint64_t)(uint32_t)(hi) << 32)

static inline void hako_ispc_pack(const struct hako_ispc_msg *m, uint64_t w[6])
{
	w[0] = m->ctl_va;
	w[1] = m->data_va;
	w[2] = HAKO_ISPC_PAIR(m->data, m->client);
	w[3] = HAKO_ISPC_PAIR(m->from, m->depth);
	w[4] = HAKO_ISPC_PAIR(m->status, m->flags);
	w[5] = HAKO_ISPC_PAIR(m->data_pages, m->data_bytes);
}

static inline void hako_ispc_unpack(long tag, const uint64_t w[6], struct hako_ispc_msg *m)
{
	m->ctl = (int32_t)tag;
	m->ctl_va = w[0];
	m->data_va = w[1];
	m->data = (int32_t)w[2];
	m->client = (int32_t)(w[2] >> 32);
	m->from = (int32_t)w[3];
	m->depth = (int32_t)(w[3] >> 32);
	m->status = (int32_t)w[4];
	m->flags = (int32_t)(w[4] >> 32);
	m->data_pages = (int32_t)w[5];
	m->data_bytes = (uint32_t)(w[5] >> 32);
	m->reserved = 0;
}

/* The fields a caller of ispc_call usually wants, without unpacking. */
static inline int32_t hako_ispc_word_status(const uint64_t w[6]) { return (int32_t)w[4]; }
static inline uint64_t hako_ispc_word_ctl_va(const uint64_t w[6]) { return w[0]; }

/* Counters of the ICA region (sys_ica_stat). */
struct hako_ica_stat {
	uint64_t region_pages, free_pages;
	int32_t icas, icas_max;         /* allocated now, the table's size */
	int32_t requests, mode;         /* requests in flight, HAKO_ISPC_BASELINE or _FAST */
	int32_t windows, reserved;      /* servers with the whole region mapped (fast mode) */
	uint64_t pastes, peels, faults; /* since boot: PTE fills at paste, peels, first-touch faults */
	uint64_t kept;                  /* synchronous requests that kept their mappings (fast) */
	uint64_t direct;                /* fastpath: direct switches, requester <-> server */
	uint64_t fallbacks;             /* fastpath: tried, a precondition failed, general path */
	int32_t fastpath, reserved2;    /* HAKO_ISPC_FASTPATH_ON or _OFF */
};

#endif
