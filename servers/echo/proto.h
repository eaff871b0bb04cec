/*
 * servers/echo/proto.h — what the echo server understands, and the data
 * pattern and checksum it shares with its clients.
 *
 *   ECHO_NULL   0 at once (the cost of a request and nothing else)
 *   ECHO_VALUE  arg[0], truncated to 32 bits
 *   ECHO_SUM    echo_checksum of the first arg[0] bytes of the data ICA
 *   ECHO_FILL   writes echo_word(arg[0], i) into the first arg[1] bytes
 *               of the data ICA; 0
 *   ECHO_DEPTH  msg.depth as the server received it (requesters stacked
 *               below it: 1 for a plain request)
 *
 * Byte counts must be multiples of 8 within the data ICA, which must be
 * there: -EINVAL otherwise.  An echo started with --relay NEXT answers
 * nothing itself: it pushes a copy of the top frame and passes every
 * request on to NEXT (see echo.c).
 */
#ifndef SERVERS_ECHO_PROTO_H
#define SERVERS_ECHO_PROTO_H

#include <stddef.h>
#include <stdint.h>

enum echo_op {
	ECHO_NULL = 1,
	ECHO_VALUE,
	ECHO_SUM,
	ECHO_FILL,
	ECHO_DEPTH,
};

/* Word I of the pattern for SEED. */
static inline uint64_t echo_word(uint64_t seed, uint64_t i)
{
	return ((seed + 1) * 0x9e3779b97f4a7c15ull) ^ (i * 0x100000001b3ull) ^ (i << 40);
}

/* FNV-1a over WORDS words, folded to a non-negative 31-bit status. */
static inline int32_t echo_checksum(const uint64_t *w, size_t words)
{
	uint64_t h = 0xcbf29ce484222325ull;

	for (size_t i = 0; i < words; i++)
		h = (h ^ w[i]) * 0x100000001b3ull;
	return (int32_t)((h ^ (h >> 32)) & 0x7fffffff);
}

#endif
