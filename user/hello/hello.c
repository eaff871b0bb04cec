/*
 * user/hello/hello.c — the smallest program: says hello, shows its
 * arguments, exits with the number given as its first argument (or 0).
 *
 *     hello [CODE [WORDS...]]
 */
#include <stdio.h>
#include <stdlib.h>
#include <hako/sys.h>

int main(int argc, char **argv)
{
	printf("hello from pid %ld\n", sys_getpid());
	for (int i = 0; i < argc; i++)
		printf("argv[%d] = %s\n", i, argv[i]);
	return argc > 1 ? atoi(argv[1]) : 0;
}
