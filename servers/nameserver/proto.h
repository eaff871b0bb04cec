/*
 * servers/nameserver/proto.h — what the name server understands.
 *
 * Requests go to pid HAKO_ISPC_NAMESERVER_PID; the frame's payload is the
 * name (1..NS_NAME_MAX bytes, no NUL needed).  The pid a name stands for
 * is the requester's, as the kernel reports it (msg.client), never a
 * number from the control ICA.
 *
 *   NS_REGISTER    0; -EEXIST if another pid holds the name; -ENOSPC if the table is full
 *   NS_LOOKUP      the pid; -ENOENT
 *   NS_UNREGISTER  0; -ENOENT; -EPERM if another pid holds it
 *
 * A bad name (empty, too long, a NUL inside) gives -EINVAL.
 */
#ifndef SERVERS_NAMESERVER_PROTO_H
#define SERVERS_NAMESERVER_PROTO_H

#define NS_NAME_MAX   31
#define NS_NAMES_MAX  32

enum ns_op {
	NS_REGISTER = 1,
	NS_LOOKUP,
	NS_UNREGISTER,
};

#endif
