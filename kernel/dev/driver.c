/*
 * driver.c — runs the probe of every driver registered with DRIVER()
 * (the .drivers section, kernel/arch/x86_64/linker.ld).
 */
#include <driver.h>

extern const struct driver __drivers_start[], __drivers_end[];

void drivers_probe(void)
{
	for (const struct driver *d = __drivers_start; d < __drivers_end; d++)
		d->probe();
}
