/*
 * fuzz/report.c — counting the fuzzer's calls and their results, and its
 * one result line: calls made, per call the successes and the errors by
 * errno, the children's fates, the free frames and ICA pages before and
 * after, and ok.
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <errno.h>
#include <hako/result.h>
#include "fuzz.h"

/* The errors counted by name; anything else is "other" (the last bucket). */
static const int fz_errnos[FZ_ERRS - 1] = {
	EPERM, ENOENT, ESRCH, EINTR, EIO, E2BIG, ENOEXEC, EBADF, ECHILD, EAGAIN, ENOMEM,
	EFAULT, EBUSY, EEXIST, ENODEV, EINVAL, ENOSPC, EPIPE, ERANGE, ENAMETOOLONG, ENOSYS,
	ETIMEDOUT,
};
static const char *const fz_errnames[FZ_ERRS] = {
	"EPERM", "ENOENT", "ESRCH", "EINTR", "EIO", "E2BIG", "ENOEXEC", "EBADF", "ECHILD",
	"EAGAIN", "ENOMEM", "EFAULT", "EBUSY", "EEXIST", "ENODEV", "EINVAL", "ENOSPC", "EPIPE",
	"ERANGE", "ENAMETOOLONG", "ENOSYS", "ETIMEDOUT", "unused", "other",
};

void fz_count(struct fz_counts *c, int slot, long r, uint64_t tsc)
{
	if (!c)
		return;
	c->calls[slot]++;
	c->tsc[slot] += tsc;
	if (r >= 0) {
		c->ok[slot]++;
		return;
	}
	int e = FZ_ERRS - 1;
	for (int i = 0; i < FZ_ERRS - 2; i++)
		if (-r == fz_errnos[i])
			e = i;
	c->err[slot][e]++;
}

void fz_add(struct fz_counts *sum, const struct fz_counts *c)
{
	for (int s = 0; s < FZ_SLOTS; s++) {
		sum->calls[s] += c->calls[s];
		sum->ok[s] += c->ok[s];
		sum->tsc[s] += c->tsc[s];
		for (int e = 0; e < FZ_ERRS; e++)
			sum->err[s][e] += c->err[s][e];
	}
}

static uint64_t total_tsc(const struct fz_counts *c)
{
	uint64_t sum = 1;
	for (int s = 0; s < FZ_SLOTS; s++)
		sum += c->tsc[s];
	return sum;
}

static const char *slot_name(int s)
{
	for (int i = 0; i < FZ_NCALLS; i++)
		if (fz_calls[i].nr == s)
			return fz_calls[i].name;
	return s == FZ_OTHER ? "unlisted" : "hole";
}

/* The three calls that took the most time, "name ticks/call", into buf. */
void fz_slowest(const struct fz_counts *c, char *buf, size_t size)
{
	int best[3] = { -1, -1, -1 };
	for (int s = 0; s < FZ_SLOTS; s++)
		for (int k = 0; k < 3; k++)
			if (best[k] < 0 || c->tsc[s] > c->tsc[best[k]]) {
				for (int j = 2; j > k; j--)
					best[j] = best[j - 1];
				best[k] = s;
				break;
			}
	size_t n = 0;
	buf[0] = '\0';
	for (int k = 0; k < 3 && n < size; k++)
		if (best[k] >= 0 && c->calls[best[k]])
			n += (size_t)snprintf(buf + n, size - n, "%s%s %" PRIu64 "%%", k ? ", " : "",
					      slot_name(best[k]), c->tsc[best[k]] * 100 / total_tsc(c));
}

/* "name":{"n":calls,"ok":n,"EFAULT":n,...} for every call made, into buf. */
static size_t per_call(char *buf, size_t size, const struct fz_counts *c)
{
	size_t n = 0;
	for (int s = 0; s < FZ_SLOTS && n < size; s++) {
		if (!c->calls[s])
			continue;
		n += (size_t)snprintf(buf + n, size - n, "%s\"%s\":{\"n\":%" PRIu64 ",\"ok\":%" PRIu64 ",\"tsc\":%" PRIu64,
				      n ? "," : "", slot_name(s), c->calls[s], c->ok[s], c->tsc[s]);
		for (int e = 0; e < FZ_ERRS && n < size; e++)
			if (c->err[s][e])
				n += (size_t)snprintf(buf + n, size - n, ",\"%s\":%" PRIu64, fz_errnames[e],
						      c->err[s][e]);
		if (n < size)
			n += (size_t)snprintf(buf + n, size - n, "}");
	}
	return n < size ? n : size - 1;
}

void fz_print_result(const struct fz_report *r, uint64_t seed, uint64_t ms, uint64_t free_before,
		     uint64_t free_after, uint64_t ica_before, uint64_t ica_after, bool ok)
{
	static char calls[24 * 1024];
	per_call(calls, sizeof calls, &r->total);
	result_line("{\"kind\":\"fuzz\",\"name\":\"fuzz\",\"seed\":%" PRIu64 ",\"ms\":%" PRIu64 ",\"calls\":%" PRIu64 ","
		    "\"child_calls\":%" PRIu64 ",\"children\":{\"spawned\":%" PRIu64 ",\"finished\":%" PRIu64 ",\"killed\":%" PRIu64 ","
		    "\"self_ended\":%" PRIu64 ",\"faulted\":%" PRIu64 ",\"unprivileged\":%" PRIu64 "},\"helpers\":%" PRIu64 ","
		    "\"bad_child_status\":%ld,\"free_before\":%" PRIu64 ",\"free_after\":%" PRIu64 ","
		    "\"ica_free_before\":%" PRIu64 ",\"ica_free_after\":%" PRIu64 ",\"per_call\":{%s},\"ok\":%s}",
		    seed, ms, r->calls, r->child_calls, r->spawned, r->finished, r->killed, r->self_ended,
		    r->faulted, r->unprivileged, r->helpers, (long)r->bad_child_status, free_before,
		    free_after, ica_before, ica_after, calls, ok ? "true" : "false");
}
