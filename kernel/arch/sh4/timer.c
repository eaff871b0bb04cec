/*
 * timer.c — the SH-4's clocks, both from the timer unit (TMU), whose
 * channels count down at the peripheral clock / 4 (QEMU's SH7750 model:
 * 60 MHz / 4 = 15 MHz, one count every 66.7 ns).
 *
 * arch_tsc: channel 1 runs free from 0xffffffff down and wraps; its
 * complement, widened to 64 bits by counting the wraps seen, is the
 * cycle counter (resolution 66.7 ns; a wrap every 286 s, and the tick
 * reads it far more often).  arch_timer_program: channel 0 counts the
 * delta down once and interrupts on underflow (INTEVT 0x400, priority in
 * IPRA), which trap.c delivers as VECTOR_TIMER.  There is no second
 * clock to calibrate against: both frequencies are the model's.
 */
#include <stdint.h>
#include <time.h>
#include <arch/arch.h>
#include <arch/trapframe.h>
#include "sh4.h"

#define TMU_HZ   (SH4_PCLK_HZ / 4)
#define TIMER_PRIORITY 10

static uint32_t last_count, wraps;

uint64_t arch_tsc(void)
{
	uint64_t flags = arch_irq_save();
	uint32_t now = ~mmio_read32(SH4_TCNT(1));
	if (now < last_count)
		wraps++;
	last_count = now;
	uint64_t t = ((uint64_t)wraps << 32) | now;
	arch_irq_restore(flags);
	return t;
}

uint64_t arch_tsc_serial(void)
{
	return arch_tsc();
}

/* Channel 1 free-running, channel 0 stopped with its interrupt enabled. */
static void tmu_start(void)
{
	mmio_write8(SH4_TSTR, 0);
	mmio_write8(SH4_TOCR, 0);
	mmio_write32(SH4_TCOR(1), 0xffffffffu);
	mmio_write32(SH4_TCNT(1), 0xffffffffu);
	mmio_write16(SH4_TCR(1), 0);                 /* Pphi/4, no interrupt */
	mmio_write16(SH4_TCR(0), TCR_UNIE);
	mmio_write16(SH4_IPRA, (uint16_t)((mmio_read16(SH4_IPRA) & 0x0fffu) | (TIMER_PRIORITY << 12)));
	mmio_write8(SH4_TSTR, 1u << 1);
}

uint64_t arch_calibrate(uint64_t *lapic_hz_out, const char **source)
{
	tmu_start();
	*lapic_hz_out = TMU_HZ;
	*source = "TMU model (60 MHz peripheral clock / 4)";
	return TMU_HZ;
}

void arch_timer_program(uint64_t delta_tsc)
{
	uint32_t ticks = delta_tsc == 0 ? 1 : delta_tsc > 0xffffffffull ? 0xffffffffu : (uint32_t)delta_tsc;
	uint8_t run = mmio_read8(SH4_TSTR);
	mmio_write8(SH4_TSTR, run & ~1u);
	mmio_write16(SH4_TCR(0), TCR_UNIE);          /* the underflow flag cleared */
	mmio_write32(SH4_TCOR(0), 0xffffffffu);      /* after the shot: a long wait, not a storm */
	mmio_write32(SH4_TCNT(0), ticks);
	mmio_write8(SH4_TSTR, run | 1u);
}

/* TMU0's underflow: stop the channel and clear the flag; time.c reprograms it. */
void sh4_timer_irq(void)
{
	mmio_write8(SH4_TSTR, mmio_read8(SH4_TSTR) & ~1u);
	mmio_write16(SH4_TCR(0), TCR_UNIE);
}
