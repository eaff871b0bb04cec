/*
 * string.h — memory and string functions: the shared library's
 * (lib/string.c), and two of the user library's own.
 */
#ifndef _HAKO_STRING_H
#define _HAKO_STRING_H

#include <lib/string.h>

char *strdup(const char *s);        /* malloc.c */
char *strerror(int err);            /* strerror.c */

#endif
