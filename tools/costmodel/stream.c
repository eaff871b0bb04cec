/*
 * stream.c — the sequential miss streams of one core and the price of a
 * miss that continues one (stream.h).
 */
#include <string.h>

#include "stream.h"

/* Is line next to s's last miss, in s's direction? */
static int direction(const struct cm_stream *s, uint64_t line)
{
	if (!s->stamp)
		return 0;
	if (line == s->line + 1 && s->dir >= 0)
		return 1;
	if (line + 1 == s->line && s->dir <= 0)
		return -1;
	return 0;
}

bool cm_stream_miss(struct cm_streams *t, const struct cm_stream_geom *g, uint64_t line,
		    uint64_t insns, struct cm_stream **sp)
{
	*sp = NULL;
	if (g->fills <= 1)
		return false;
	struct cm_stream *victim = &t->s[0], *stale = NULL;
	t->clock++;
	for (int i = 0; i < CM_STREAMS; i++) {
		struct cm_stream *s = &t->s[i];
		int dir = direction(s, line);
		if (dir && insns - s->at <= g->window) {
			*s = (struct cm_stream){ .line = line, .at = insns, .stamp = t->clock, .dir = dir,
						 .ready = s->ready };
			*sp = s;
			return true;
		}
		if (dir)
			stale = s;           /* next to it, but too long ago: it starts over here */
		if (s->stamp < victim->stamp)
			victim = s;
	}
	*sp = stale ? stale : victim;
	**sp = (struct cm_stream){ .line = line, .at = insns, .stamp = t->clock };
	return false;
}

uint64_t cm_stream_ready(const struct cm_stream_geom *g, const struct cm_stream *s, uint32_t lat,
			 uint64_t now)
{
	uint32_t step = (lat + g->fills - 1) / g->fills;
	uint64_t earliest = now > lat ? now - lat : 0;   /* at most `fills` lines ahead */
	return (s->ready > earliest ? s->ready : earliest) + step;
}

void cm_streams_reset(struct cm_streams *t)
{
	memset(t, 0, sizeof *t);
}
