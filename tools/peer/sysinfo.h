/*
 * tools/peer/sysinfo.h — linuxbench's report of the system it runs on
 * (sysinfo.c).
 */
#ifndef PEER_SYSINFO_H
#define PEER_SYSINFO_H

/* Print the peer-linux, peer-info and peer-vuln result lines. */
void print_system(void);

#endif
