/*
 * kmain.h — the commands the kernel itself can run (before user space
 * exists they are what the command line and the monitor call).
 */
#ifndef HAKO_KMAIN_H
#define HAKO_KMAIN_H

#include <stdbool.h>

bool monitor_has_command(const char *name);   /* run_command knows it */
int run_command(int argc, char **argv);   /* 0 ok, else failure; -1 unknown */
void monitor_run(void);                  /* line console on COM1 until `poweroff` */
int kbench_main(int argc, char **argv);

#endif
