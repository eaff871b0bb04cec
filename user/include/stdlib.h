/*
 * stdlib.h — memory allocation, process exit, number parsing.
 *
 * malloc and friends live on sys_brk: first fit over an address-ordered
 * free list, freed neighbours merged, every block 16-byte aligned, one
 * lock for all threads.
 */
#ifndef _HAKO_STDLIB_H
#define _HAKO_STDLIB_H

#include <stddef.h>

#define EXIT_SUCCESS 0
#define EXIT_FAILURE 1

void *malloc(size_t size);
void free(void *ptr);
void *calloc(size_t n, size_t size);
void *realloc(void *ptr, size_t size);

void exit(int code) __attribute__((noreturn));
void abort(void) __attribute__((noreturn));

int atoi(const char *s);
long atol(const char *s);
long strtol(const char *s, char **end, int base);
unsigned long strtoul(const char *s, char **end, int base);
long long strtoll(const char *s, char **end, int base);
unsigned long long strtoull(const char *s, char **end, int base);

int abs(int v);
long labs(long v);

#endif
