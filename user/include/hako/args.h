/*
 * hako/args.h — reading "--name VALUE" / "--name=VALUE" options.
 *
 *     long iters = arg_int(argc, argv, "--iters", 1000);
 *     const char *mode = arg_str(argc, argv, "--mode", "ping");
 *     int verbose = arg_flag(argc, argv, "--verbose");
 *
 * Numbers take C prefixes (0x, 0) and a k/m/g suffix (x1024, x1024^2,
 * x1024^3).  A malformed or missing value prints a message and exits with
 * status 2.  Only the words after argv[0] are looked at.
 *
 *     arg_help(argc, argv, usage_text);
 *
 * answers a first word -h, --help or help with the usage text (exit 0) and
 * any other first word that starts with '-' with a line and the usage text
 * (exit 2); it returns for every other first word.
 */
#ifndef _HAKO_ARGS_H
#define _HAKO_ARGS_H

long arg_int(int argc, char **argv, const char *name, long def);
const char *arg_str(int argc, char **argv, const char *name, const char *def);
int arg_flag(int argc, char **argv, const char *name);
void arg_help(int argc, char **argv, const char *usage);

#endif
