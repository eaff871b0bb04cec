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
