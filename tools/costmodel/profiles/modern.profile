# modern — a recent x86 client core: Intel Skylake (6th generation Core,
# e.g. Core i7-6700K), the core that Kaby Lake, Coffee Lake and Comet Lake
# reuse.  Sizes are per core except the L3, which is shared.
#
# [ORM] Intel 64 and IA-32 Architectures Optimization Reference Manual,
#       section "Skylake Client Microarchitecture": the cache-parameter
#       table (L1D, L1I, L2, L3: capacity/ways, line, fastest latency) and
#       the TLB-parameter table (ITLB, DTLB, STLB entries and ways).
# [7CPU] published measurements of the i7-6700 (7-cpu.com "Skylake"):
#        RAM latency about 42 cycles + 51 ns at 4 GHz.
# Confidence: sizes, ways and cache latencies high (Intel's tables);
# walk and memory latencies medium (measured by others, they vary with
# the page-walk caches and the DRAM).

name = modern

# source: none — the model's idea of one instruction when everything hits;
# Skylake retires up to 4 per cycle, Hako's kernel code is mostly loads,
# stores and branches; 1.0 keeps cycles comparable with icount figures.
base_cpi = 1.0

# source: [ORM] ITLB 4 KiB pages: 128 entries, 8-way (high)
itlb.entries = 128
itlb.ways = 8
# source: [ORM] DTLB 4 KiB pages: 64 entries, 4-way (high)
dtlb.entries = 64
dtlb.ways = 4
# source: [ORM] STLB 4 KiB + 2 MiB pages: 1536 entries, 12-way (high)
stlb.entries = 1536
stlb.ways = 12
# source: [ORM] an L1 DTLB miss that hits the STLB costs about 9 cycles (medium)
stlb.hit_cycles = 9
# source: [7CPU] and Intel's page-walk-cache design: a walk whose upper
# levels hit the paging-structure caches and whose PTE hits L1/L2 costs
# about 20-30 cycles; 30 taken (medium-low: this is the cost the model
# charges every walk, see README)
walk.cycles = 30

# source: [ORM] L1I 32 KiB, 8-way, 64-byte lines (high); a fetch hit is
# hidden by the front end: latency 0
l1i.size = 32K
l1i.ways = 8
l1i.line = 64
l1i.latency = 0
# source: [ORM] L1D 32 KiB, 8-way, 64-byte lines, 4 cycles fastest (high)
l1d.size = 32K
l1d.ways = 8
l1d.line = 64
l1d.latency = 4
# source: [ORM] L2 256 KiB, 4-way, 64-byte lines, 12 cycles (high)
l2.size = 256K
l2.ways = 4
l2.line = 64
l2.latency = 12
# source: [ORM] L3 up to 2 MiB per core, up to 16-way, 44 cycles; a
# 4-core part has 8 MiB (high for the figures, the size is the i7-6700K's)
l3.size = 8M
l3.ways = 16
l3.line = 64
l3.latency = 44
# source: [7CPU] 42 cycles + 51 ns at 4.0 GHz = about 246 cycles (medium)
mem.latency = 246

# --- sequential misses (stream.h) ---
# [ORM-SKL] Intel 64 and IA-32 Architectures Optimization Reference Manual,
#      the L2 streamer as its Sandy Bridge section describes it (taken to
#      hold for Skylake, whose section does not restate it): it detects
#      forward and backward streams and "can run up to 20 lines ahead of
#      the load request"; the Skylake client core's reorder buffer holds
#      224 micro-ops.
# [DDR4] JEDEC DDR4-2133 on two 64-bit channels: 2 x 17 GB/s = 34 GB/s peak.
# Published bandwidth the bench prints beside the model (not used here):
# see tools/hakotool/bandwidth.py.

# source: [ORM-SKL] the streamer keeps up to 20 lines in flight ahead of a
# stream (medium-low: the L1's own fill buffers, 10-12, are fewer, but the
# prefetched lines wait in the L2)
stream.fills = 20
# source: [ORM-SKL] 224-entry reorder buffer: misses further apart than the
# window are not in flight together (medium: the streamer reaches further)
stream.window = 224
# source: [DDR4] 64 bytes at 34 GB/s = 1.9 ns x 4 GHz = 8 cycles (medium:
# the peak of the DIMMs, not a measurement)
stream.mem_line_cycles = 8

# --- stores and write-backs (cache.h, model.h) ---
# [ORM-WA] [ORM] above: stores to write-back memory read the line for
#      ownership (write-allocate); non-temporal stores, which do not, are
#      not what Hako's code uses.

# source: [ORM-WA] stores allocate (high)
mem.write_allocate = 1
# source: stores allocate, so never used
mem.store_miss_cycles = 0
# source: [DDR4] one 64-byte line at 34 GB/s, as stream.mem_line_cycles: 8
# (medium: the DIMMs' peak, reads and writes share it)
mem.writeback_cycles = 8
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
# source: [SDM-FS] the Core processors (medium: the section names the Core 2
# and earlier; later editions keep it for every Intel Core processor)
mem.fast_strings = 1

# --- device registers ---

# Device register accesses (io.*): uncached, one transaction each, not
# overlapped with anything.
# [PCIe] PCI Express Base Specification 1.0a (PCI-SIG, 2003), transaction
#      ordering: memory writes are posted; memory reads, I/O reads and
#      writes and configuration requests are non-posted and wait for a
#      completion from the device.
# Hako's devices under QEMU would be PCIe endpoints or, for the legacy
# ports (timer, serial), parts of the chipset's LPC bus on such a machine.

# source: estimate: a non-posted read to a legacy port or an endpoint's I/O
# space, about 1 us (the classic port-0x80 delay) x 4 GHz = 4000 (low)
io.port_read_cycles = 4000
# source: estimate: I/O writes are non-posted ([PCIe]), as long as a read,
# 4000 (low)
io.port_write_cycles = 4000
# source: estimate: a non-posted read to a legacy port or an endpoint's I/O
# space, about 1 us (the classic port-0x80 delay) x 4 GHz = 4000 (low); the
# same transaction in memory space
io.mmio_read_cycles = 3200
# source: [PCIe] posted; estimate: about 40 ns for the core to hand the
# uncached store to the system agent, x 4 GHz = 150 (low)
io.mmio_write_cycles = 150
# source: estimate: an xAPIC register access, answered in the core, about 25
# ns x 4 GHz = 100 (low)
io.lapic_cycles = 100
