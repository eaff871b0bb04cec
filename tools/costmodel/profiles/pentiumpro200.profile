# pentiumpro200 — machine 4 of paper 004 (HiTactix, PAPERS.md; seeds/004
# Table 1): a PC-AT compatible with a Pentium Pro at 200 MHz, 512 KiB of
# second-level cache (on the processor package, at core speed) and 64 MB
# of EDO DRAM.  The paper found it the fastest with warm caches and the
# slowest after a purge, from its memory latency; it names no chipset, so
# the memory figure is that of the usual Intel 440FX board (low).
#
# [SDM-CPUID] Intel SDM vol. 2, CPUID leaf 2 descriptors a Pentium Pro
#      returns: 01h instruction TLB 32 entries 4-way, 03h data TLB 64
#      entries 4-way, 06h instruction cache 8 KiB 4-way 32-byte lines,
#      0Ah data cache 8 KiB 2-way 32-byte lines, 43h L2 512 KiB 4-way
#      32-byte lines.
# [P6] Pentium Pro Family Developer's Manual vol. 1 (Intel, 1996): 3-cycle
#      L1 load latency, L2 on a full-speed back-side bus.

name = pentiumpro200

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
# source: estimate: two page-table reads that hit the L2, 2 x 7, plus a few
# cycles of the walker (low)
walk.cycles = 18

# source: [SDM-CPUID] 06h: 8 KiB, 4-way, 32-byte lines (high)
l1i.size = 8K
l1i.ways = 4
l1i.line = 32
l1i.latency = 0
# source: [SDM-CPUID] 0Ah: 8 KiB, 2-way, 32-byte lines (high); [P6] 3 cycles (high)
l1d.size = 8K
l1d.ways = 2
l1d.line = 32
l1d.latency = 3
# source: [SDM-CPUID] 43h: 512 KiB, 4-way, 32-byte lines (high); about 7
# cycles at core speed (medium: [P6] gives the bus, not the load latency)
l2.size = 512K
l2.ways = 4
l2.line = 32
l2.latency = 7
# source: no third level (high)
l3.size = 0
l3.ways = 0
l3.line = 0
l3.latency = 0
# source: estimate: about 14 bus clocks of 66 MHz (210 ns) to the first
# data through the 440FX, x 3 = 42 core cycles (low); the paper's Fig. 2
# says only that this machine's misses cost the most of the four
mem.latency = 42

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
