/*
 * ispc.h — server program communication (paper 002): request and result
 * queues per process, multi-stage requests (ispc.c).  The ICAs they
 * carry are ica.h's; the user-visible rules are uapi/hako_ispc.h's.
 */
#ifndef HAKO_ISPC_H
#define HAKO_ISPC_H

#include <stdint.h>
#include <hako.h>

struct proc;

long ispc_listen(struct proc *p, int flags);
long ispc_request(struct proc *p, int pid, struct hako_ispc_msg *m, int flags);
long ispc_receive(struct proc *p, struct hako_ispc_msg *m, int flags);
long ispc_reply(struct proc *p, struct hako_ispc_msg *m, int flags);
long ispc_result(struct proc *p, int tag, struct hako_ispc_msg *m, int flags);
/* The calls with the message in registers (ispc_call.c): the message's
 * tag (>= 0) and its other fields in w (hako_ispc.h's words), or -errno.
 * ispc_reply_recv with ctl < 0 only receives. */
long ispc_call(struct proc *p, int pid, int ctl, int data, int flags, uint64_t w[HAKO_WORDS]);
long ispc_reply_recv(struct proc *p, int ctl, int status, int flags, uint64_t w[HAKO_WORDS]);
/* p has ended: fail what waits at it, skip it on the way back, free its ICAs. */
void ispc_init(void);                /* boot: ispc_proc_end becomes an exit hook */
void ispc_proc_end(struct proc *p);
int ispc_requests_in_flight(void);
/* The fastpath switch: HAKO_ISPC_FASTPATH_ON, _OFF or _QUERY; returns the
 * state (ON or OFF), or -EINVAL (ispc_fastpath.c). */
long ispc_fastpath_set(int mode);
void ispc_fastpath_init(void);
void ispc_fastpath_stat(struct hako_ica_stat *st);   /* its counters and state */       /* boot: the kernel option fastpath=on|off */

#endif
