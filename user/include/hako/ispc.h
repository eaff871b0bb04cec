/*
 * hako/ispc.h — server communication (paper 002) for programs: the
 * control-ICA layout, client calls, the name-server client and the server
 * skeleton.  The system calls underneath are in hako_ispc.h and
 * docs/design/ipc.md "Server communication".
 *
 * A control ICA is one page: a header, then a stack of request frames.
 * The client pushes the frame of its request; each server that passes the
 * request on pushes a frame of its own on top (the paper's "stacking its
 * request information on the same control ICA") and pops it when the
 * result comes back through it.  The page is writable by every process it
 * visits, so whoever reads it checks it first (ispc_ctl_check): a server
 * answers -EINVAL to a page that does not hold a well-formed stack.
 *
 * Client side:
 *
 *     struct ispc_call call;
 *     ispc_call_open(&call, 1);                 // control ICA + 1-page data ICA
 *     ispc_call_op(&call, ECHO_VALUE, 42, 0, NULL, 0);
 *     long status = ispc_call(pid, &call, 0);    // 42
 *     ispc_call_close(&call);
 *
 * Server side: a table of op -> handler and ispc_serve(), which owns the
 * loop (receive, check, dispatch, reply with synchronous return).
 *
 * All functions return a negative errno on failure, as the system calls do.
 */
#ifndef _HAKO_ISPC_H
#define _HAKO_ISPC_H

#include <limits.h>
#include <stddef.h>
#include <stdint.h>
#include <hako_ispc.h>

#define ISPC_PAGE          4096
#define ISPC_CTL_MAGIC     0x43505349u   /* "ISPC" */
#define ISPC_PAYLOAD_MAX   104           /* bytes of payload in one frame */
#define ISPC_FRAMES_MAX    31            /* frames that fit in the page */

/* One stage's request information: 128 bytes. */
struct ispc_frame {
	uint16_t op;                        /* what is asked (the server's proto.h) */
	uint16_t len;                       /* bytes of payload in use */
	uint32_t reserved;
	int64_t arg[2];
	uint8_t payload[ISPC_PAYLOAD_MAX];
};

/* The control ICA: this header, then frame[0] (the client's) .. frame[depth-1] (the top). */
struct ispc_ctl {
	uint32_t magic;
	uint16_t depth;                     /* frames on the stack */
	uint16_t spare;                     /* 0, like reserved: room for later fields */
	uint32_t reserved[6];
	struct ispc_frame frame[ISPC_FRAMES_MAX];
};

_Static_assert(sizeof(struct ispc_frame) == 128, "a frame is 128 bytes");
_Static_assert(sizeof(struct ispc_ctl) - sizeof(struct ispc_frame) * ISPC_FRAMES_MAX == 32,
	       "a 32-byte header");
_Static_assert(sizeof(struct ispc_ctl) <= ISPC_PAGE, "the control ICA is one page");

/* --- the control ICA ------------------------------------------------- */

/* Make C an empty stack. */
void ispc_ctl_init(struct ispc_ctl *c);
/* 0 if C holds a well-formed, non-empty stack; -EINVAL if not. */
int ispc_ctl_check(const struct ispc_ctl *c);
/* Push a frame OP(ARG0, ARG1) with LEN bytes of PAYLOAD: 0, -EINVAL
 * (C is not a stack, LEN too big) or -ENOSPC (the stack is full). */
int ispc_push(struct ispc_ctl *c, int op, int64_t arg0, int64_t arg1,
	      const void *payload, size_t len);
/* Drop the top frame: 0, or -EINVAL if C is garbage or empty. */
int ispc_pop(struct ispc_ctl *c);
/* The top frame, or NULL if C fails ispc_ctl_check. */
struct ispc_frame *ispc_top(struct ispc_ctl *c);

/* --- client calls ---------------------------------------------------- */

/* A control ICA and an optional data ICA, owned by the caller. */
struct ispc_call {
	int ctl, data;                      /* ICA ids; data -1 without one */
	struct ispc_ctl *c;                 /* the control ICA where it is pasted */
	void *buf;                          /* the data ICA, NULL without one */
	size_t size;                        /* its bytes */
	int from;                           /* who answered the last result */
};

/* Allocate the control ICA and, if DATA_PAGES > 0, a data ICA. */
int ispc_call_open(struct ispc_call *call, size_t data_pages);
/* Free both ICAs (they must be back with the caller). */
int ispc_call_close(struct ispc_call *call);
/* Reset the control ICA to one frame: the request to make. */
int ispc_call_op(struct ispc_call *call, int op, int64_t arg0, int64_t arg1,
		 const void *payload, size_t len);
/* Synchronous request to PID: the result's status, or -errno if the
 * request could not be made.  FLAGS: HAKO_ISPC_DIRECT (servers that pass
 * the request on leave the result to the last one), HAKO_ISPC_COPY (the
 * kernel copies the whole data ICA there and back instead of moving it). */
long ispc_call(int pid, struct ispc_call *call, int flags);
/* Asynchronous request: returns its tag (the control ICA's id). */
long ispc_send(int pid, struct ispc_call *call, int flags);
/* Take the result of TAG (-1: any) for one of the N CALLS; its status,
 * *WHICH set to its index.  FLAGS: HAKO_ISPC_NONBLOCK or 0. */
long ispc_collect(int tag, struct ispc_call *calls, int n, int flags, int *which);

/* --- the name server (servers/nameserver) ------------------------------- */

/* Register NAME for the calling process (the name server takes the pid
 * from the kernel, not from us). */
int ns_register(const char *name);
/* The pid registered as NAME, or -ENOENT.  A pid whose server has ended
 * stays registered; requests to it fail with -ESRCH. */
int ns_lookup(const char *name);
int ns_unregister(const char *name);
/* ns_lookup, retried for up to MS milliseconds while the name or the
 * name server is missing. */
int ns_wait(const char *name, unsigned ms);

/* --- the server skeleton --------------------------------------------- */

/* One request as a handler sees it. */
struct ispc_req {
	struct hako_ispc_msg msg;           /* as ispc_receive filled it */
	struct ispc_ctl *ctl;               /* the control ICA, checked */
	struct ispc_frame *frame;           /* its top frame: the request to us */
	void *data;                         /* the data ICA, NULL without one */
	size_t data_size;                   /* its bytes, as the kernel says; 0 without one */
};

/* A handler returns the status to reply, or ISPC_FORWARDED when it has
 * passed on a request that returns directly (its ispc_request said
 * HAKO_ISPC_PASSED): the result is not ours to give. */
#define ISPC_FORWARDED LONG_MIN            /* no status is: an errno or a count */

struct ispc_handler {
	int op;
	long (*fn)(struct ispc_req *req);
};

struct ispc_server {
	const char *name;                   /* registered with the name server; NULL: not */
	int listen_flags;                   /* HAKO_ISPC_NAMESERVER for the name server */
	const struct ispc_handler *ops;
	int nops;
	long (*other)(struct ispc_req *req); /* ops not in the table; NULL: -ENOSYS */
};

/*
 * Listen, register the name, then serve for ever: each request's control
 * ICA is checked (-EINVAL if it is garbage; only its first page is read,
 * an ICA has at least one), its top frame's op picks the handler, and
 * the status goes back with synchronous return.  Returns only if
 * listening or receiving fails: -errno.
 */
int ispc_serve(const struct ispc_server *srv);

#endif
