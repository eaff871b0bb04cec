/*
 * user/lib/start.c — process start and end: __libc_start (called by crt0),
 * exit, abort, errno and the program name.
 */
#include <stdlib.h>
#include <errno.h>
#include <hako/sys.h>

int errno;
static const char *progname = "?";

int main(int argc, char **argv);
void __libc_start(int argc, char **argv) __attribute__((noreturn));

void __libc_start(int argc, char **argv)
{
	if (argc > 0 && argv != NULL && argv[0] != NULL)
		progname = argv[0];
	exit(main(argc, argv));
}

const char *prog_name(void)
{
	return progname;
}

void exit(int code)
{
	for (;;)
		sys_exit(code);
}

/* Die abnormally: the parent sees a kill, not an exit code. */
void abort(void)
{
	sys_write("abort\n", 6);
	sys_kill((int)sys_getpid());
	exit(134);
}
