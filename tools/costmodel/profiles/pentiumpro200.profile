# pentiumpro200 — machine 4 of paper 004 (HiTactix, PAPERS.md; seeds/004
# Table 1): a PC-AT compatible with a Pentium Pro at 200 MHz, 512 KiB of
# second-level cache (on the processor package, at core speed) and 64 MB
# of EDO DRAM.  The paper names no chipset; the memory figure is that of
# the usual Intel 440FX board, derived below from sources independent of
# the paper (its own Fig. 1 and Fig. 2 are what the model is checked
# against, so no figure here is taken from them).
# Confidence of each figure: high (a manual or datasheet gives it), medium
# (a contemporary measurement, another machine of the family), low (an
# estimate derived from those).
#
# [SDM-CPUID] Intel SDM vol. 2, CPUID leaf 2 descriptors a Pentium Pro
#      returns: 01h instruction TLB 32 entries 4-way, 03h data TLB 64
#      entries 4-way, 06h instruction cache 8 KiB 4-way 32-byte lines,
#      0Ah data cache 8 KiB 2-way 32-byte lines, 43h L2 512 KiB 4-way
#      32-byte lines.
# [P6] Pentium Pro Family Developer's Manual vol. 1 (Intel, 1996): 3-cycle
#      L1 load latency, L2 on a full-speed back-side bus; the system bus
#      runs a transaction in phases (arbitration, request, error, snoop,
#      response, data), the snoop result due some bus clocks after the request.
# [LMB] L. McVoy and C. Staelin, "lmbench: Portable tools for performance
#      analysis" (USENIX 1996; doc/usenix96.ms of lmbench 2): "The Pentium Pro
#      ... second level caches are of medium speed at 5-6 clocks latency"
#      (a Pentium Pro at 167 MHz); a 60 ns DRAM module (Toshiba
#      THM361020AS-60) has a 110 ns random read cycle; the Pentium Pro's write
#      "turns into a read followed by a write" (the line is read first, as
#      the model's write-allocate does).
# Memory latency (mem.latency): [LMB]'s 110 ns DRAM read cycle, plus about 2
# host-bus clocks (66 MHz, 30 ns) to the chipset and back as on the Pentium
# boards, plus about 2 more for the P6 bus's request and snoop phases before
# the chipset answers ([P6], estimate): 170 ns.

name = pentiumpro200

# source: none — the model's convention, not a property of the machine: the
# instruction cost when everything hits (README: the P6 out-of-order core
# is not modelled); 1.0 in every profile
base_cpi = 1.0

# source: [SDM-CPUID] 01h: 32 entries, 4-way (high)
itlb.entries = 32
itlb.ways = 4
# source: [SDM-CPUID] 03h: 64 entries, 4-way (high)
dtlb.entries = 64
dtlb.ways = 4
# source: [SDM-CPUID] no second-level TLB (high)
stlb.entries = 0
stlb.ways = 0
# source: no STLB, so never charged
stlb.hit_cycles = 0
# source: estimate: two page-table reads that hit the L2, 2 x l2.latency,
# plus about 4 cycles of the walker (low)
walk.cycles = 16

# source: [SDM-CPUID] 06h: 8 KiB, 4-way, 32-byte lines (high); a hit costs
# nothing extra (the model's convention)
l1i.size = 8K
l1i.ways = 4
l1i.line = 32
l1i.latency = 0
# source: [SDM-CPUID] 0Ah: 8 KiB, 2-way, 32-byte lines (high); [P6] 3 cycles (high)
l1d.size = 8K
l1d.ways = 2
l1d.line = 32
l1d.latency = 3
# source: [SDM-CPUID] 43h: 512 KiB, 4-way, 32-byte lines (high); [LMB] 5-6
# clocks load to use, the upper figure (medium: measured on a 167 MHz part,
# the same back-side bus at core speed)
l2.size = 512K
l2.ways = 4
l2.line = 32
l2.latency = 6
# source: no third level (high)
l3.size = 0
l3.ways = 0
l3.line = 0
l3.latency = 0
# source: [LMB] 110 ns DRAM read cycle + 2 host-bus clocks to the chipset and
# back + 2 for the P6 bus's request and snoop phases ([P6]) = 170 ns x 200 MHz
# = 34 cycles (low: the board is unknown, the P6 bus phases estimated)
mem.latency = 34

# --- sequential misses (stream.h) ---
# [P6-NB] [P6] above, its data cache: the L1 data cache is
#      non-blocking, up to four misses outstanding; no hardware prefetcher; the reorder buffer holds 40
#      micro-ops, so a loop keeps misses in flight only while they are
#      within the window.
# [FX] the 440FX's EDO burst reads within an open page, x-2-2-2: 8 bus
#      clocks a 32-byte line once pipelined (estimate from the EDO timing).

# source: [P6-NB] four outstanding L1 misses (medium: how many a copy loop
# keeps in flight depends on the window)
stream.fills = 4
# source: [P6-NB] 40-entry reorder buffer (high for the size)
stream.window = 40
# source: [FX] 8 bus clocks x 3 = 24 cycles a line (low: the board is unknown)
stream.mem_line_cycles = 24

# --- stores and write-backs (cache.h, model.h) ---
# [P6-WA] [LMB] above: the P6's store "turns into a read followed by a
#      write" (the line is read for ownership and filled: write-allocate).
# [P6-BUS] Pentium Pro processor datasheet (Intel, 1996), DBSY#/DRDY#: a
#      full line takes four data transfer clocks of 8 bytes; the request
#      is issued across two clocks (U. Maryland CMSC 411 notes on the P6
#      bus, cs.umd.edu/~meesh/cmsc411/website/projects/pentium/bus.html).

# source: [P6-WA] stores allocate (high)
mem.write_allocate = 1
# source: stores allocate, so never used
mem.store_miss_cycles = 0
# source: [P6-BUS] 2 request clocks + 4 transfers at the 440FX's EDO rate
# of 2 bus clocks each ([FX]) = 10 bus clocks x 3 = 30 (low: the board is
# unknown, the chipset's write posting not modelled)
mem.writeback_cycles = 30
# source: the bench's evidence, not the machine's: `./hako bench bandwidth`
# with 0 and with 1 (tools/costmodel/README.md, "Stores and write-backs"):
# 0 holds more of the published figures (medium: a model choice)
mem.writeback_buffer = 0
# [SDM-FS] Intel 64 and IA-32 Architectures Software Developer's Manual,
#      vol. 3A, 8.2.4 "Out-of-Order Stores For String Operations": on the P6
#      family, the Pentium 4 and the Core processors, a rep movs or stos in
#      "fast string" operation works a cache line at a time, "issuing a
#      cache-line read for the source address and an invalidation on the
#      external bus for the destination address, knowing that all bytes in
#      the destination cache line will be modified"; its start conditions
#      (a count of at least 64, aligned operands) are "implementation
#      specific".
# source: [SDM-FS] the P6 family (high for the behaviour; the model asks only
# that the string go on to the line's end)
mem.fast_strings = 1

# --- device registers ---

# Device register accesses (io.*): uncached, one bus transaction each, not
# overlapped with anything.
# [PCI] PCI Local Bus Specification rev. 2.1 (PCI-SIG, 1995): 33 MHz
#      clock (30 ns); DEVSEL# fast/medium/slow 1-3 clocks after the address;
#      a target must give the first data within 16 clocks (target initial
#      latency); only memory writes may be posted by a bridge, I/O and
#      configuration writes complete at the target before the processor's
#      write does.
# [440FX] Intel 82441FX PMC (440FX PCIset, 1996): 33 MHz PCI beside the 66 MHz
#      host bus, CPU-to-PCI posted write buffers.
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
# source: [440FX] the bridge posts CPU-to-PCI memory writes; estimate: about 4
# host-bus clocks for it to take one, 4 x 3 = 12 (low); a read after posted
# writes waits for them to drain, which is not modelled
io.mmio_write_cycles = 12
# source: estimate: the local APIC is on the processor and answers without a
# bus cycle, about 3 host-bus clocks, 3 x 3 = 9 (low)
io.lapic_cycles = 9
