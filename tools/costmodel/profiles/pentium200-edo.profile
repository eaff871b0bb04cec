# pentium200-edo — machine 3 of paper 004 (HiTactix, PAPERS.md; seeds/004 Table 1):
# a PC-AT compatible with a Pentium (P54C) at 200 MHz, a 512 KiB second-level
# cache on the motherboard and EDO main memory.  The paper names neither
# the board nor the chipset: the L2 and memory figures below are those of
# the usual Intel 430FX/430HX/430VX boards of 1996 (sources below), with the CPU at 3x
# the 66 MHz bus, and are the least certain numbers here.
# Confidence of each figure: high (a manual or datasheet gives it), medium
# (a contemporary measurement or board document, another machine of the
# family), low (an estimate derived from those).
#
# [P5] Pentium Processor Family Developer's Manual (Intel, 1995/97),
#      "On-Chip Caches" and "TLB": separate 8 KiB code and data caches,
#      2-way, 32-byte lines, LRU; code TLB 32 entries 4-way, data TLB 64
#      entries 4-way (4 KiB pages).
# [PBSRAM] AOpen AX4LR motherboard manual, glossary "PBSRAM (Pipelined Burst
#      SRAM)": a Socket 7 board's L2 answers a burst read 3-1-1-1 bus clocks.
# [LMB] L. McVoy and C. Staelin, "lmbench: Portable tools for performance
#      analysis" (USENIX 1996; doc/usenix96.ms of lmbench 2): a 60 ns DRAM
#      module (Toshiba THM361020AS-60) has a 110 ns random read cycle
#      (precharge included); "the 586 ... motherboards have quite poor second
#      level caches, the caches are not substantially better than main memory".
# [EDO] "SIMM RAM: FPM and EDO RAM" (electricdreams.hopto.org/ram): EDO is
#      about 5 % faster than fast-page-mode DRAM; Intel's 430FX (1995) brought it.
# Memory latency (mem.latency): the load-to-use time of an L2 miss, built
# from [LMB]'s 110 ns DRAM read cycle plus about 2 host-bus clocks (66 MHz,
# 30 ns) to carry the address to the chipset and the data back (estimate):
# 140 ns with EDO, 5 % more ([EDO]) with fast-page-mode DRAM.  Nothing here
# comes from paper 004 but the sizes of its Table 1.

name = pentium200-edo

# source: none — the model's convention, not a property of the machine: the
# instruction cost when everything hits (README: the Pentium's dual pipelines
# are not modelled); 1.0 in every profile
base_cpi = 1.0

# source: [P5] code TLB 32 entries, 4-way (high)
itlb.entries = 32
itlb.ways = 4
# source: [P5] data TLB 64 entries, 4-way (high)
dtlb.entries = 64
dtlb.ways = 4
# source: [P5] no second-level TLB (high)
stlb.entries = 0
stlb.ways = 0
# source: no STLB, so never charged
stlb.hit_cycles = 0
# source: estimate: two page-table reads that hit the L2, 2 x l2.latency,
# plus about 4 cycles of the walker (low)
walk.cycles = 22

# source: [P5] 8 KiB, 2-way, 32-byte lines (high); a hit costs nothing extra
# (the model's convention: fetches are priced from the L1i's miss on)
l1i.size = 8K
l1i.ways = 2
l1i.line = 32
l1i.latency = 0
# source: [P5] 8 KiB, 2-way, 32-byte lines, 1-cycle loads (high)
l1d.size = 8K
l1d.ways = 2
l1d.line = 32
l1d.latency = 1
# source: paper 004 Table 1 for the size (high: what the paper reports of its
# machine); direct mapped with 32-byte lines as the Pentium's line (medium:
# the usual board cache); [PBSRAM] first data after 3 bus clocks = 3 x 3
# core cycles (medium)
l2.size = 512K
l2.ways = 1
l2.line = 32
l2.latency = 9
# source: no third level on these PCs (high)
l3.size = 0
l3.ways = 0
l3.line = 0
l3.latency = 0
# source: [LMB] 110 ns DRAM read cycle + 2 host-bus clocks (30 ns) = 140 ns
# x 200 MHz = 28 cycles (low: the board is unknown)
mem.latency = 28

# --- sequential misses (stream.h) ---
# [P5] "On-Chip Caches": the data cache is not non-blocking (a miss holds
#      the pipeline until the line arrives) and the Pentium has no hardware
#      prefetcher, so a sequential stream's misses do not overlap; its
#      write buffers, which post store misses without allocating a line,
#      are not modelled.

# source: [P5] one miss at a time (medium: the manual describes the
# pipeline waiting for a miss, not a count of outstanding misses)
stream.fills = 1
# source: no overlap with stream.fills 1, so never used
stream.window = 0
# source: no overlap with stream.fills 1, so never used; the bus's burst
# cycles per line for reference: EDO 5-2-2-2 = 11 bus clocks x 3 = 33
# (low: the board is unknown)
stream.mem_line_cycles = 33

# --- stores and write-backs (cache.h, model.h) ---
# [P5-WA] [P5] "On-Chip Caches": the data cache is write-back and "the
#      Pentium processor does not allocate on write misses": a store that
#      misses goes to the bus through the write buffers, filling no line.
# [P5-BUS] [P5] "Bus Functional Description": a single write is an address
#      clock (ADS#) and one data transfer ended by BRDY#; a line write-back
#      is a burst of four 8-byte transfers after the address; the board's
#      chipset paces BRDY# at its DRAM write timing.
# [WRT] The PC Guide, "DRAM Write Timing / DRAM Burst Write Timing"
#      (pcguide.com, BIOS settings): burst writes are timed x-y-y-y, with
#      y 2, 3 or 4 bus clocks the BIOS choices; x, the first transfer with
#      its address, is not given there.

# source: [P5-WA] no allocation on a write miss (high)
mem.write_allocate = 0
# source: [P5-BUS] estimate: the address and one transfer, about 3 bus
# clocks (the write posted by the chipset) x 3 = 9 (low); the bus is
# this long busy with a store miss; the core waits only for a store that
# finds it busy (its write buffers full)
mem.store_miss_cycles = 9
# source: [P5-BUS] [WRT] a burst write 3-2-2-2 (EDO at its read burst's
# 2 clocks a transfer, an estimated 3 for the first) = 9 bus clocks x 3 =
# 27 (low: the board is unknown)
mem.writeback_cycles = 27
# source: the bench's evidence, not the machine's: `./hako bench bandwidth`
# with 0 and with 1 (tools/costmodel/README.md, "Stores and write-backs"):
# 0 holds more of the published figures (medium: a model choice)
mem.writeback_buffer = 0
# source: [P5-WA] a store that misses fills no line, so there is none to own
# (high)
mem.fast_strings = 0

# --- device registers ---

# Device register accesses (io.*): uncached, one bus transaction each, not
# overlapped with anything.
# [PCI] PCI Local Bus Specification rev. 2.1 (PCI-SIG, 1995): 33 MHz
#      clock (30 ns); DEVSEL# fast/medium/slow 1-3 clocks after the address;
#      a target must give the first data within 16 clocks (target initial
#      latency); only memory writes may be posted by a bridge, I/O and
#      configuration writes complete at the target before the processor's
#      write does.
# [430] Intel 82437FX/82437VX/82439HX system controllers (1995-96): 33 MHz PCI
#      beside the 66 MHz host bus, CPU-to-PCI posted write buffers.
# a PCI read (port or memory space), in PCI clocks: about 2 to cross the
# host bridge and arbitrate, 1 address, 2 DEVSEL# (medium), about 8 to the
# target's first data (the spec allows up to 16), 1 data, 1 turnaround, 3
# back over the host bus: about 18 clocks = 540 ns; a non-posted write
# waits as long but for the data turnaround, about 16 clocks = 480 ns.

# source: estimate: about 18 PCI clocks (540 ns, [PCI]) x 200 MHz = 108 (low)
io.port_read_cycles = 108
# source: estimate: a non-posted I/O write ([PCI]), about 16 PCI clocks (480
# ns) x 200 MHz = 96 (low)
io.port_write_cycles = 96
# source: estimate: about 18 PCI clocks (540 ns, [PCI]) x 200 MHz = 108 (low);
# the same transaction in memory space
io.mmio_read_cycles = 108
# source: [430] the bridge posts CPU-to-PCI memory writes; estimate: about 4
# host-bus clocks for it to take one, 4 x 3 = 12 (low); a read after posted
# writes waits for them to drain, which is not modelled
io.mmio_write_cycles = 12
# source: estimate: the local APIC is on the processor and answers without a
# bus cycle, about 3 host-bus clocks, 3 x 3 = 9 (low)
io.lapic_cycles = 9
