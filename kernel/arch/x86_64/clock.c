/*
 * clock.c — calibrating the TSC and the LAPIC timer, and programming the
 * LAPIC timer for the next timer deadline.
 *
 * Reference: the HPET main counter when ACPI lists one (its period is in
 * the capabilities register, in femtoseconds), else PIT channel 2 counting
 * down 10 ms in mode 0 with its gate on port 0x61 (OUT2 shows in bit 5).
 * Both count QEMU's virtual clock, so calibration is exact under icount.
 */
#include <stdint.h>
#include <acpi.h>
#include <time.h>
#include <vm.h>
#include <intr.h>
#include "x86.h"
#include "lapic.h"

#define CAL_NS        10000000ull      /* measure over 10 ms */
#define PIT_HZ        1193182ull
#define PIT_CH0       0x40
#define PIT_CH2       0x42
#define PIT_CMD       0x43
#define PIT_GATE      0x61             /* bit 0 gate, bit 1 speaker, bit 5 OUT2 */

#define HPET_CAP      0x000            /* bits 63:32 period in fs */
#define HPET_CONFIG   0x010            /* bit 0: counter enable */
#define HPET_COUNTER  0x0f0

/*
 * The firmware leaves PIT channel 0 ticking at 18.2 Hz.  Hako's timer is
 * the LAPIC's and IRQ 0 stays masked, but a running channel still makes
 * QEMU arm a virtual-clock timer at every edge, and under icount every
 * such deadline ends a vCPU's turn: at instants fixed by when the
 * firmware started the channel, which varies with how long the firmware
 * polled the disks.  Mode 0 with a count of 1 ends once and stays quiet.
 */
static void pit_stop_tick(void)
{
	outb(PIT_CMD, 0x30);                                 /* ch 0, lo/hi, mode 0 */
	outb(PIT_CH0, 1);
	outb(PIT_CH0, 0);
}

static void pit_wait_start(void)
{
	uint16_t count = (uint16_t)(PIT_HZ * CAL_NS / 1000000000ull);
	outb(PIT_GATE, (inb(PIT_GATE) & ~0x02) & ~0x01);   /* gate low, speaker off */
	outb(PIT_CMD, 0xb0);                                 /* ch 2, lo/hi, mode 0 */
	outb(PIT_CH2, count & 0xff);
	outb(PIT_CH2, count >> 8);
	outb(PIT_GATE, inb(PIT_GATE) | 0x01);                /* gate high: start */
}

static void pit_wait_end(void)
{
	while (!(inb(PIT_GATE) & 0x20))
		cpu_relax();
}

static volatile uint64_t *hpet;

static uint64_t hpet_read(void) { return hpet[HPET_COUNTER / 8]; }

uint64_t arch_calibrate(uint64_t *lapic_hz_out, const char **source)
{
	uint64_t t0, t1;
	uint32_t l0, l1;
	pit_stop_tick();
	lapic_timer_start_count(0xffffffff);
	if (acpi.hpet_addr && (hpet = vm_map_mmio(acpi.hpet_addr, 4096))) {
		uint64_t period_fs = hpet[HPET_CAP / 8] >> 32;
		hpet[HPET_CONFIG / 8] |= 1;
		uint64_t ticks = CAL_NS * 1000000ull / period_fs;
		uint64_t h0 = hpet_read();
		t0 = rdtsc_serial();
		l0 = lapic_timer_current();
		while (hpet_read() - h0 < ticks)
			cpu_relax();
		t1 = rdtsc_serial();
		l1 = lapic_timer_current();
		*source = "hpet";
	} else {
		pit_wait_start();
		t0 = rdtsc_serial();
		l0 = lapic_timer_current();
		pit_wait_end();
		t1 = rdtsc_serial();
		l1 = lapic_timer_current();
		*source = "pit";
	}
	lapic_timer_stop();
	*lapic_hz_out = (uint64_t)(l0 - l1) * (1000000000ull / CAL_NS);
	return (t1 - t0) * (1000000000ull / CAL_NS);
}

void arch_timer_program(uint64_t delta_tsc)
{
	uint64_t ticks = delta_tsc * lapic_hz / tsc_hz;
	if (ticks > 0xffffffffull)
		ticks = 0xffffffffull;
	lapic_timer_oneshot((uint32_t)ticks, VECTOR_TIMER);
}
