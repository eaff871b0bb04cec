# p4 — Pentium 4 "Northwood" at 2.8 GHz (CPUID family 15, model 2), the
# machine of paper 003 (FreeBSD 4.3, RTL8139; PAPERS.md).
#
# [ORM-P4] IA-32 Intel Architecture Optimization Reference Manual,
#          Table 1-1 "Pentium 4 and Intel Xeon Processor Cache Parameters"
#          (model 0/1/2 rows: L1D, trace cache, L2; "on the order of 12
#          processor cycles to get to the bus and back").
# [SDM-CPUID] Intel SDM vol. 2A, CPUID leaf 2 example for the first
#          Pentium 4: descriptors 50h (64-entry instruction TLB, 4 KiB and
#          2/4 MiB pages) and 5Bh (64-entry data TLB); no associativity given.
# [003] paper 003 itself: about 50 clocks per TLB miss (RDTSC/RDPMC on
#          this machine, a 4-byte copy-in with 2 misses: 416 -> 518 clocks).

name = p4

# source: none — the model's instruction cost when everything hits (see
# README: no pipeline is modelled); kept at 1.0 in every profile.
base_cpi = 1.0

# source: [SDM-CPUID] 64 entries (high); fully associative assumed (low:
# Intel gives no associativity for descriptor 50h)
itlb.entries = 64
itlb.ways = 64
# source: [SDM-CPUID] 64 entries (high); fully associative assumed (low)
dtlb.entries = 64
dtlb.ways = 64
# source: [SDM-CPUID] no second-level TLB on NetBurst (high)
stlb.entries = 0
stlb.ways = 0
# source: no STLB, so never charged
stlb.hit_cycles = 0
# source: [003] measured about 50 clocks per miss on this very machine (high
# for the paper's case, where the page-table entries hit the caches)
walk.cycles = 50

# source: [ORM-P4] the 12K-uop execution trace cache, 8-way; it holds
# decoded uops, not bytes, so it is modelled as a 16 KiB code cache with
# 64-byte lines (low: a stand-in with about the hit rate Intel claimed for
# an 8-16 KiB instruction cache); a hit costs nothing extra
l1i.size = 16K
l1i.ways = 8
l1i.line = 64
l1i.latency = 0
# source: [ORM-P4] 8 KiB, 4-way, 64-byte lines, 2 cycles integer (high)
l1d.size = 8K
l1d.ways = 4
l1d.line = 64
l1d.latency = 2
# source: [ORM-P4] 512 KiB (model 2), 8-way, 64-byte lines fetched as
# 128-byte sectors (modelled as 128-byte lines), 7 cycles (high)
l2.size = 512K
l2.ways = 8
l2.line = 128
l2.latency = 7
# source: [ORM-P4] no L3 on the desktop Northwood (high)
l3.size = 0
l3.ways = 0
l3.line = 0
l3.latency = 0
# source: estimate: about 107 ns (533 MHz bus, DDR SDRAM, about 12 cycles
# to reach the bus per [ORM-P4] plus DRAM access) x 2.8 GHz = 300 (low)
mem.latency = 300

# --- sequential misses (stream.h) ---
# [ORM-P4] as above, "Hardware Prefetching of Data": the prefetcher follows
#      up to 8 streams (one per 4 KiB page) and "attempts to stay 256 bytes
#      ahead" of the demand accesses, into the L2; the NetBurst core's
#      reorder buffer holds 126 micro-ops.
# [FSB] the 533 MT/s front-side bus, 8 bytes wide: 4.3 GB/s peak.

# source: [ORM-P4] 256 bytes ahead = two 128-byte L2 lines, plus the demand
# miss: 3 lines in flight (low: the reach is in bytes, not requests)
stream.fills = 3
# source: [ORM-P4] 126-entry reorder buffer (high for the size)
stream.window = 126
# source: [FSB] one 128-byte L2 line at 4.3 GB/s = 30 ns x 2.8 GHz = 84
# cycles (medium: the bus's peak)
stream.mem_line_cycles = 84

# --- stores and write-backs (cache.h, model.h) ---
# [ORM-P4-WA] [ORM-P4] above: the NetBurst core's stores to write-back
#      memory read the line for ownership (write-allocate).

# source: [ORM-P4-WA] stores allocate (high)
mem.write_allocate = 1
# source: stores allocate, so never used
mem.store_miss_cycles = 0
# source: [FSB] one 128-byte L2 line written at the bus's read rate, as
# stream.mem_line_cycles: 84 (medium: the bus's peak, both directions
# share it)
mem.writeback_cycles = 84
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
# source: [SDM-FS] the Pentium 4 (high for the behaviour; the model asks only
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
# [ICH] Intel 82801BA/82801DB I/O Controller Hub (ICH2/ICH4) datasheets:
#      the PCI bus (33 MHz) hangs off the hub link (266 MB/s) below the
#      memory controller hub; the MCH posts processor memory writes.
# a PCI read (port or memory space), in PCI clocks: about 2 to cross the
# host bridge and arbitrate, 1 address, 2 DEVSEL# (medium), about 8 to the
# target's first data (the spec allows up to 16), 1 data, 1 turnaround, 3
# back over the host bus: about 18 clocks = 540 ns; a non-posted write
# waits as long but for the data turnaround, about 16 clocks = 480 ns.

# source: estimate: the PCI read above plus about 100 ns across the hub link
# and back, about 640 ns x 2.8 GHz = 1792 (low)
io.port_read_cycles = 1792
# source: estimate: a non-posted I/O write ([PCI]) plus the hub link, about
# 580 ns x 2.8 GHz = 1624 (low)
io.port_write_cycles = 1624
# source: estimate: the PCI read above plus about 100 ns across the hub link
# and back, about 640 ns x 2.8 GHz = 1792 (low); the same transaction in
# memory space
io.mmio_read_cycles = 1792
# source: [ICH] posted by the MCH; estimate: about 4 clocks of the 133 MHz
# host bus (30 ns) x 2.8 GHz = 84 (low)
io.mmio_write_cycles = 84
# source: estimate: the local APIC is on the processor, about 3 host-bus
# clocks (22.5 ns) x 2.8 GHz = 63 (low)
io.lapic_cycles = 63
