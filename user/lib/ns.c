/*
 * user/lib/ns.c — the name-server client (hako/ispc.h): one synchronous
 * request to HAKO_ISPC_NAMESERVER_PID per call, on a control ICA of its own.
 */
#include <string.h>
#include <errno.h>
#include <hako/sys.h>
#include <hako/ispc.h>
#include <nameserver/proto.h>

static int ns_request(int op, const char *name)
{
	size_t len = strnlen(name, NS_NAME_MAX + 1);
	struct ispc_call call;
	long r;

	if (len == 0)
		return -EINVAL;
	if (len > NS_NAME_MAX)
		return -ENAMETOOLONG;
	r = ispc_call_open(&call, 0);
	if (r < 0)
		return (int)r;
	r = ispc_call_op(&call, op, 0, 0, name, len);
	if (r == 0)
		r = ispc_call(HAKO_ISPC_NAMESERVER_PID, &call, 0);
	ispc_call_close(&call);
	return (int)r;
}

int ns_register(const char *name)
{
	return ns_request(NS_REGISTER, name);
}

int ns_lookup(const char *name)
{
	return ns_request(NS_LOOKUP, name);
}

int ns_unregister(const char *name)
{
	return ns_request(NS_UNREGISTER, name);
}

int ns_wait(const char *name, unsigned ms)
{
	int pid = ns_lookup(name);

	for (unsigned waited = 0; (pid == -ENOENT || pid == -ESRCH) && waited < ms; waited++) {
		sleep_ms(1);
		pid = ns_lookup(name);
	}
	return pid;
}
