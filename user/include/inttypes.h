/*
 * inttypes.h — the printf length of the 64-bit integer types, as C99
 * names them: "%" PRIu64 prints a uint64_t on every arch (it is an
 * unsigned long where long has 64 bits, an unsigned long long where it
 * has 32).
 */
#ifndef _HAKO_INTTYPES_H
#define _HAKO_INTTYPES_H

#include <stdint.h>

#if __SIZEOF_LONG__ == 8
#define __HAKO_PRI64 "l"
#else
#define __HAKO_PRI64 "ll"
#endif

#define PRId64 __HAKO_PRI64 "d"
#define PRIi64 __HAKO_PRI64 "i"
#define PRIu64 __HAKO_PRI64 "u"
#define PRIx64 __HAKO_PRI64 "x"
#define PRIX64 __HAKO_PRI64 "X"

#endif
