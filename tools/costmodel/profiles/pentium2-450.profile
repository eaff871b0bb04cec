# pentium2-450 — the machine of paper 000 (interrupt packaging, Tender OS,
# PAPERS.md): a Pentium II at 450 MHz ("Deschutes", 100 MHz host bus, core
# at 4.5x), 512 KiB of second-level cache on the cartridge at half the core
# clock, and the Myrinet NIC on 33 MHz PCI.  The paper names no board: the
# chipset is taken to be the Intel 440BX with PC100 SDRAM, the usual one
# for this processor in 1998-99.
#
# [SDM-CPUID] Intel SDM vol. 2, CPUID leaf 2 descriptors a Pentium II
#      returns: 01h instruction TLB 32 entries 4-way, 03h data TLB 64
#      entries 4-way (4 KiB pages), 08h instruction cache 16 KiB 4-way
#      32-byte lines, 0Ch data cache 16 KiB 4-way 32-byte lines, 43h L2
#      512 KiB 4-way 32-byte lines.
# [P2] Pentium II Processor Developer's Manual (Intel, 1997): the P6 core
#      (3-cycle L1 load latency, as the Pentium Pro), the L2 on the
#      back-side bus at half the core clock.
# [440BX] Intel 440BX AGPset: 82443BX Host Bridge/Controller datasheet
#      (1998): 100 MHz host bus, PC100 SDRAM, 33 MHz PCI, CPU-to-PCI
#      posted write buffers.

name = pentium2-450

# source: none — the model's instruction cost when everything hits (see
# README: the P6 out-of-order core is not modelled); 1.0 everywhere.
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
# source: estimate: two page-table reads that hit the L2, 2 x 11, plus a
# few cycles of the walker (low)
walk.cycles = 26

# source: [SDM-CPUID] 08h: 16 KiB, 4-way, 32-byte lines (high); a hit
# costs nothing extra
l1i.size = 16K
l1i.ways = 4
l1i.line = 32
l1i.latency = 0
# source: [SDM-CPUID] 0Ch: 16 KiB, 4-way, 32-byte lines (high); [P2] 3
# cycles (high)
l1d.size = 16K
l1d.ways = 4
l1d.line = 32
l1d.latency = 3
# source: [SDM-CPUID] 43h: 512 KiB, 4-way, 32-byte lines (high); estimate:
# the Pentium Pro's 7 cycles at full speed, the half-speed bus of [P2]
# adding about 4 (medium)
l2.size = 512K
l2.ways = 4
l2.line = 32
l2.latency = 11
# source: no third level (high)
l3.size = 0
l3.ways = 0
l3.line = 0
l3.latency = 0
# source: estimate: PC100 SDRAM (CL2) through the 82443BX, about 16 host-bus
# clocks (160 ns) to the first data, x 4.5 = 72 (low)
mem.latency = 72

# --- sequential misses (stream.h) ---
# [P6-NB] [P2] above, the P6 core's data cache: the L1 data cache is
#      non-blocking, up to four misses outstanding; no hardware prefetcher; the reorder buffer holds 40
#      micro-ops, so a loop keeps misses in flight only while they are
#      within the window.
# [440BX] above: PC100 SDRAM bursts 1-1-1 after the first data, so
#      back-to-back line fills take about 4 bus clocks each once pipelined.

# source: [P6-NB] four outstanding L1 misses (medium: how many a copy loop
# keeps in flight depends on the window)
stream.fills = 4
# source: [P6-NB] 40-entry reorder buffer (high for the size)
stream.window = 40
# source: [440BX] 4 bus clocks x 4.5 = 18 cycles a line (low: pipelining
# estimated)
stream.mem_line_cycles = 18

# --- stores and write-backs (cache.h, model.h) ---
# [P6-WA] L. McVoy and C. Staelin, "lmbench: Portable tools for performance
#      analysis" (USENIX 1996), of the Pentium Pro, the same core: its store
#      "turns into a read followed by a write" (the line is read for
#      ownership and filled: write-allocate).
# [P6-BUS] Pentium Pro processor datasheet (Intel, 1996), DBSY#/DRDY#: a
#      full line takes four data transfer clocks of 8 bytes; the request
#      is issued across two clocks (U. Maryland CMSC 411 notes on the P6
#      bus, cs.umd.edu/~meesh/cmsc411/website/projects/pentium/bus.html).

# source: [P6-WA] stores allocate (high)
mem.write_allocate = 1
# source: stores allocate, so never used
mem.store_miss_cycles = 0
# source: [P6-BUS] 2 request clocks + 4 transfers at PC100 SDRAM's one
# bus clock each ([440BX]) = 6 bus clocks x 4.5 = 27 (low: the chipset's
# write posting not modelled)
mem.writeback_cycles = 27
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
# a PCI read (port or memory space), in PCI clocks: about 2 to cross the
# host bridge and arbitrate, 1 address, 2 DEVSEL# (medium), about 8 to the
# target's first data (the spec allows up to 16), 1 data, 1 turnaround, 3
# back over the host bus: about 18 clocks = 540 ns; a non-posted write
# waits as long but for the data turnaround, about 16 clocks = 480 ns.
# A slow target (the Myrinet card's LANai memory) can take longer than 18.

# source: estimate: about 18 PCI clocks (540 ns, [PCI]) x 450 MHz = 243
# (low)
io.port_read_cycles = 243
# source: estimate: a non-posted I/O write ([PCI]), about 16 PCI clocks
# (480 ns) x 450 MHz = 216 (low)
io.port_write_cycles = 216
# source: estimate: about 18 PCI clocks (540 ns, [PCI]) x 450 MHz = 243
# (low); the same transaction in memory space
io.mmio_read_cycles = 243
# source: [440BX] the bridge posts CPU-to-PCI memory writes; estimate: about
# 4 host-bus clocks for it to take one, 4 x 4.5 = 18 (low); a read after
# posted writes waits for them to drain, which is not modelled
io.mmio_write_cycles = 18
# source: estimate: the local APIC is on the processor and answers without
# a bus cycle, about 3 host-bus clocks, 3 x 4.5 = 14 (low)
io.lapic_cycles = 14
