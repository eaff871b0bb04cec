/*
 * kernel_names.h — renames the shared library's routines for host builds.
 *
 * lib/string.c and lib/format.c define memcpy, strlen, snprintf, ... under
 * their C library names.  Linked into a host program as is, they would
 * replace the C library's (and AddressSanitizer's interceptors) for the
 * whole process.  The host-test Makefile force-includes this file into
 * every kernel and library object (-include), so that code calls and
 * defines k_memcpy and friends; test_string.c and test_format.c include it
 * before the library's headers to test them.
 */
#ifndef HAKO_HOST_KERNEL_NAMES_H
#define HAKO_HOST_KERNEL_NAMES_H

#define memset    k_memset
#define memcpy    k_memcpy
#define memmove   k_memmove
#define memcmp    k_memcmp
#define memchr    k_memchr
#define strlen    k_strlen
#define strnlen   k_strnlen
#define strcmp    k_strcmp
#define strncmp   k_strncmp
#define strchr    k_strchr
#define strrchr   k_strrchr
#define strstr    k_strstr
#define strspn    k_strspn
#define strcspn   k_strcspn
#define strcpy    k_strcpy
#define strncpy   k_strncpy
#define strcat    k_strcat
#define strlcpy   k_strlcpy
#define strlcat   k_strlcat
#define strtok_r  k_strtok_r
#define vsnprintf k_vsnprintf
#define snprintf  k_snprintf

#endif
