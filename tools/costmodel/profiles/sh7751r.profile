# sh7751r — the SH7751R of QEMU's r2d board (Renesas RTS7751R2D), at 240 MHz,
# the clock of paper 002's SH-4 (its µs figures).  For `./hako bench ispc
# --arch sh4 --model sh7751r`: the plugin runs on qemu-system-sh4 with the
# SH-4 paths of tools/costmodel/sh4.h (no data TLB: the kernel loads the
# UTLB and every miss is its handler's instructions; P1/P2 untranslated).
# Confidence of each figure: high (the hardware manual gives it), medium
# (the manual's pipeline or another figure of it implies it), low (an
# estimate).
#
# [HM] SH7751 Group, SH7751R Group User's Manual: Hardware (Renesas,
#      R01UH0457EJ0301 Rev. 3.01, 2013).  Section 3 "Memory Management Unit":
#      a 4-entry fully associative instruction TLB (ITLB) and a 64-entry fully
#      associative unified TLB (UTLB), the ITLB refilled from the UTLB by
#      the hardware on a miss; page sizes 1 K/4 K/64 K/1 M.  Section 4
#      "Caches": in SH7751-compatible mode (CCR.EMODE = 0) an 8 KiB
#      instruction cache and a 16 KiB operand cache, both direct mapped with
#      32-byte lines; with CCR.EMODE = 1 (SH7751R only) 16 KiB and 32 KiB,
#      2-way LRU.  4.4.2: a miss reads the line "using the wraparound method,
#      in order from the longword data corresponding to the effective
#      address", and the CPU goes on when that longword arrives.
#      (Pages seen: datasheetandpdf.com/EN/RENESAS/219/HD6417751RBP240V.htm,
#      manualshive.com/en/manual/renesas/sh7751-group/1440562?page=149.)
# [QEMU] QEMU 10.0's r2d: the peripheral clock Pφ is 60 MHz (Hako's TMU
#      runs at Pφ/4 = 15 MHz, kernel/arch/sh4/timer.c); QEMU models no
#      cache and no bus timing.
# Hako's boot writes no CCR (kernel/arch/sh4: SH4_CCR is defined, never
# written), so CCR.EMODE stays 0 and the compatible-mode sizes below are
# the ones its code would run with.  At reset CCR.ICE and OCE are 0 too
# (caches off); QEMU runs the same either way, and this profile models the
# caches on, as a port whose boot enables them would run (P1 and U0
# copy-back).  The caches are indexed by virtual address bits on the
# hardware, by physical address in the model (the same bits for P1, the
# kernel; a user 4 KiB page may land in another set).
# The bus clock Bφ of the r2d is not known to this project: taken as 60 MHz
# (= Pφ, 4 core clocks), which makes mem.latency the least certain figure.

name = sh7751r

# source: none — the model's convention, not a property of the machine: the
# instruction cost when everything hits; 1.0 in every profile.  The SH-4
# issues two instructions a cycle when their groups allow ([HM] section 8,
# "Pipelining": different groups, neither CO, or two MT), and the model
# charges nothing for the second of such a pair (decode_sh4.c's groups, in
# order along a translated block, a block's first instruction alone); what
# the pipeline adds is not modelled (a load's result used by the next
# instruction, the CO instructions that take several cycles to issue), so
# the issue cycles are a lower bound (medium)
base_cpi = 1.0

# source: [HM] section 3, ITLB: 4 entries, fully associative (high); LRU in
# the hardware (MMUCR.LRUI) as in the model (high)
itlb.entries = 4
itlb.ways = 4
# source: [HM] section 3, UTLB: 64 entries, fully associative (high); the
# model does not consult it on SH-4 (sh4.h: the kernel loads it, and its
# misses are the handler's instructions, which the model counts)
dtlb.entries = 64
dtlb.ways = 64
# source: [HM] no second-level TLB (high)
stlb.entries = 0
stlb.ways = 0
# source: no STLB, so never charged
stlb.hit_cycles = 0
# source: estimate: an ITLB miss that hits the UTLB, the hardware's UTLB
# search and copy into the ITLB, about 4 cycles (low: [HM] gives no count);
# an ITLB miss that also misses the UTLB runs the kernel's handler, whose
# instructions are counted, then pays this refill on the retry
walk.cycles = 4

# source: [HM] section 4, compatible mode: 8 KiB, direct mapped, 32-byte
# lines (high); a hit costs nothing extra (the model's convention)
l1i.size = 8K
l1i.ways = 1
l1i.line = 32
l1i.latency = 0
# source: [HM] section 4, compatible mode: 16 KiB, direct mapped, 32-byte
# lines (high); a load's result is usable two cycles after it issues (SH-4
# pipeline, MOV.L @Rm latency 2: medium)
l1d.size = 16K
l1d.ways = 1
l1d.line = 32
l1d.latency = 2
# source: [HM] no second-level cache (high)
l2.size = 0
l2.ways = 0
l2.line = 0
l2.latency = 0
# source: [HM] no third level (high)
l3.size = 0
l3.ways = 0
l3.line = 0
l3.latency = 0
# source: estimate: a line fill from the r2d's SDRAM returns the missed
# longword first ([HM] 4.4.2); about 6 bus clocks to it (command, RAS to
# CAS 2, CAS latency 2-3, the data back) plus about 4 core cycles through
# the bus state controller: 6 x 4 + 4 = 28 core cycles at Bφ 60 MHz (low:
# the board's bus clock and SDRAM timing are estimates)
mem.latency = 28

# --- sequential misses (stream.h) ---

# source: [HM] 4.4.2: the CPU goes on with the missed longword, but a
# second miss waits for the line being filled (medium), so misses do not
# overlap: one fill at a time
stream.fills = 1
# source: no overlap with stream.fills 1, so never used
stream.window = 0
# source: no overlap with stream.fills 1, so never used; for reference a
# 32-byte line over the 32-bit bus is 6 + 7 = 13 bus clocks x 4 = 52 (low)
stream.mem_line_cycles = 52

# --- stores and write-backs (cache.h, model.h) ---
# [HM-WB] [HM] the operand cache in copy-back mode (Hako's setting): a
#      write miss reads the line in and writes it (write-allocate); a dirty
#      line being replaced goes to the write-back buffer, the new line is
#      read first and the buffer is written out after it.

# source: [HM-WB] copy-back mode allocates on a write miss (medium: what
# Hako sets CCR to is the kernel's, arch/sh4)
mem.write_allocate = 1
# source: stores allocate, so never used
mem.store_miss_cycles = 0
# source: estimate: a 32-byte line over the 32-bit bus as a read,
# stream.mem_line_cycles: 52 (low)
mem.writeback_cycles = 52
# source: [HM-WB] the write-back buffer: the new line is read before the
# dirty one is written (medium)
mem.writeback_buffer = 1
# source: the SH-4 has no string instructions, so never used
mem.fast_strings = 0

# --- device registers ---

# The SH-4 has no port space (high): never charged.  Memory-mapped
# registers are P4's on-chip modules (MMU, TMU, INTC, SCIF) and the r2d's
# FPGA: the TMU, INTC and SCIF sit on the peripheral bus at Pφ 60 MHz
# ([QEMU]), 4 core clocks a Pφ clock; the MMU's registers (PTEH, PTEL,
# MMUCR) are in the CPU and cheaper, priced the same here.

# source: the SH-4 has no I/O ports (high)
io.port_read_cycles = 0
io.port_write_cycles = 0
# source: estimate: a read of a peripheral module's register, about 4 Pφ
# clocks with the bus synchronisation, 4 x 4 = 16 (low)
io.mmio_read_cycles = 16
# source: estimate: a write, about 2 Pφ clocks, 2 x 4 = 8 (low)
io.mmio_write_cycles = 8
# source: the SH-4 has no local APIC (high): never charged
io.lapic_cycles = 0
