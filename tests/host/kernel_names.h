/*
 * kernel_names.h — renames the kernel's string routines for host builds.
 *
 * kernel/lib/string.c defines memcpy, memset, strlen, ... under their C
 * library names.  Linked into a host program as is, they would replace the
 * C library's (and AddressSanitizer's interceptors) for the whole process.
 * The host-test Makefile force-includes this file into every kernel object
 * (-include), so the kernel code calls and defines k_memcpy and friends;
 * test_string.c includes it before the kernel's string.h to test them.
 */
#ifndef HAKO_HOST_KERNEL_NAMES_H
#define HAKO_HOST_KERNEL_NAMES_H

#define memset  k_memset
#define memcpy  k_memcpy
#define memmove k_memmove
#define memcmp  k_memcmp
#define strlen  k_strlen
#define strnlen k_strnlen
#define strcmp  k_strcmp
#define strncmp k_strncmp
#define strchr  k_strchr
#define strlcpy k_strlcpy

#endif
