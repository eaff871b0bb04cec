/*
 * tests/user/fleet.c — starting and stopping the servers of an ISPC test,
 * and the helpers of the fastpath's tests (fleet.h).
 */
#include <stdarg.h>
#include <errno.h>
#include <hako/sys.h>
#include "fleet.h"

#define REGISTER_WAIT_MS 3000

static int vstart(struct fleet *f, const char *prog, const char *first, va_list ap)
{
	char *argv[HAKO_ARGV_MAX + 1];
	int argc = 0;

	if (f->n == FLEET_MAX)
		return -EAGAIN;
	argv[argc++] = (char *)prog;
	if (first)
		argv[argc++] = (char *)first;
	for (char *a; first && argc < HAKO_ARGV_MAX && (a = va_arg(ap, char *)) != NULL;)
		argv[argc++] = a;
	argv[argc] = NULL;
	int pid = spawnv(prog, argv);
	if (pid > 0)
		f->pid[f->n++] = pid;
	return pid;
}

int fleet_start(struct fleet *f, const char *prog, ...)
{
	va_list ap;
	va_start(ap, prog);
	const char *first = va_arg(ap, const char *);
	int pid = vstart(f, prog, first, ap);
	va_end(ap);
	return pid;
}

int fleet_server(struct fleet *f, const char *prog, const char *name, ...)
{
	va_list ap;

	if (f->ns == 0) {
		int ns = fleet_start(f, "nameserver", NULL);
		if (ns < 0)
			return ns;
		f->ns = ns;
	}
	va_start(ap, name);
	int pid = vstart(f, prog, name, ap);
	va_end(ap);
	if (pid < 0)
		return pid;
	int found = ns_wait(name, REGISTER_WAIT_MS);
	return found == pid ? pid : found < 0 ? found : -EEXIST;
}

/* A member that has ended by itself cannot be killed but must still be reaped. */
int fleet_stop(struct fleet *f, int pid)
{
	int status = -ESRCH;

	for (int i = 0; i < f->n; i++) {
		if (f->pid[i] != pid)
			continue;
		f->pid[i] = f->pid[--f->n];
		sys_kill(pid);
		int r = waitpid(pid, &status);
		if (r < 0)
			status = r;
		break;
	}
	if (pid == f->ns)
		f->ns = 0;
	return status;
}

void fleet_stop_all(struct fleet *f)
{
	while (f->n > 0)
		fleet_stop(f, f->pid[f->n - 1]);
}

uint64_t ica_free_pages(void)
{
	struct hako_ica_stat st;

	return sys_ica_stat(&st) < 0 ? 0 : st.free_pages;
}

long send_when_listening(int pid, struct ispc_call *call, unsigned ms)
{
	long r = ispc_send(pid, call, 0);

	for (unsigned waited = 0; r == -ESRCH && waited < ms; waited++) {
		sleep_ms(1);
		r = ispc_send(pid, call, 0);
	}
	return r;
}

/* Wait until WANT requests are in flight (up to MS ms): how many are. */
int wait_requests(int want, unsigned ms)
{
	struct hako_ica_stat st = { .requests = -1 };
	for (unsigned waited = 0; waited <= ms; waited++) {
		if (sys_ica_stat(&st) == 0 && st.requests >= want)
			break;
		sleep_ms(1);
	}
	return st.requests;
}


struct hako_ica_stat ica_stat_now(void)
{
	struct hako_ica_stat st = { 0 };
	sys_ica_stat(&st);
	return st;
}

long fastpath_set(int on)
{
	return sys_ispc_mode(on ? HAKO_ISPC_FASTPATH_ON : HAKO_ISPC_FASTPATH_OFF);
}

const char *needs_words(void)
{
	struct hako_words w;
	return sys_ispc_reply_recv(-1, 0, HAKO_ISPC_NONBLOCK, &w) == -ENOSYS ?
	       "no registers for the message on this arch" : NULL;
}

const char *needs_words_two_cpus(void)
{
	const char *why = needs_words();
	return why ? why : needs_two_cpus();
}

long call_words(int pid, struct ispc_call *call, struct hako_words *w)
{
	long tag = sys_ispc_call(pid, call->ctl, call->data, 0, w);
	if (tag < 0)
		return tag;
	return tag == call->ctl ? hako_ispc_word_status(w->w) : -ERANGE;
}
