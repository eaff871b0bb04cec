/*
 * string.h — the kernel's memory and string routines are the shared
 * library's (lib/string.c).
 */
#ifndef HAKO_STRING_H
#define HAKO_STRING_H

#include <lib/string.h>

#endif
