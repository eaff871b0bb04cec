/*
 * drvport — the I/O-bitmap check's test program (paper 003; ktest
 * drvproc_port_outside_grant_kills_process spawns it as a driver process
 * granted port 0x80, the POST diagnostic port, and nothing else).  It
 * writes the granted port, then reads port 0x84 outside the grant: the CPU
 * raises #GP and the kernel kills this process, and only it.  Run any
 * other way it is killed at the first port.
 */
#include <stdio.h>
#include <arch/io.h>

#define GRANTED 0x80
#define OUTSIDE 0x84

int main(void)
{
	io_out8(GRANTED, 0x3);
	printf("drvport: wrote port 0x%x (granted), reading 0x%x (not granted)\n", GRANTED, OUTSIDE);
	uint8_t v = io_in8(OUTSIDE);
	printf("drvport: read 0x%x from port 0x%x: the I/O bitmap let it through\n", v, OUTSIDE);
	return 0;
}
