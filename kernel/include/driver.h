/*
 * driver.h — how device drivers join the kernel.
 *
 * A driver defines DRIVER(name, probe, order): the entry goes into the
 * .drivers.<order> section and drivers_probe() (dev/driver.c), called once
 * at boot after PCI enumeration, runs every probe by order (two digits;
 * the order decides, for instance, which network card is nic 0).  A probe
 * finds its devices, sets them up with interrupts off and returns.
 */
#ifndef HAKO_DRIVER_H
#define HAKO_DRIVER_H

struct driver {
	const char *name;
	void (*probe)(void);
};

#define DRIVER(ident, probe_fn, order)                                              \
	static const struct driver driver_##ident                                  \
		__attribute__((used, section(".drivers." #order), aligned(8))) = { #ident, probe_fn }

void drivers_probe(void);

#endif
