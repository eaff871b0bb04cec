"""The cost model's bandwidth check (`./hako bench bandwidth`): memory read,
zero and copy rates modelled per machine, beside each machine's published
figures, and a verdict on the model of overlapping misses.

The bench boots `kperf --copy` (user/kperf/copy.c) once with every
shipped profile side by side (one plugin copy each, hakotool.model): its
256 KiB read pass (64-bit words summed), zero pass (memset) and copy
(memcpy), each best case (warm: the second of two passes back to back) and
worst case (caches and TLB purged first).  A figure's modelled cycles at
the machine's clock give MB/s (10^6 bytes a second): bytes x MHz / cycles.

A pass's modelled cycles are two sums (tools/costmodel/model.h): its
instructions at base_cpi (one cycle each) and its memory side, the cycles
its accesses cost beyond that: mem_cycles (misses, overlapped where they
continue a sequential stream, tools/costmodel/stream.h) plus walk_cycles
(TLB misses).  The whole pass's rate is bound by both; the memory side's
rate alone is what the overlap model allows, the rate of a core that
overlaps its instructions with its misses and is limited by memory only.
That is the figure to set beside a published memory bandwidth: the worst
case's memory side, whose lines come from memory.  It holds if it lies
within TOLERANCE of the published range (low x (1 - TOLERANCE) to high x
(1 + TOLERANCE)).

What the published figures measured and what the model leaves out: they
are a whole machine's (write-backs of dirty lines, the Pentium's
no-allocate stores, a core retiring several instructions a cycle), the
model charges no write-back and write-allocates every store, so a write
or copy rate can come out above the published one.  The whole pass's rate
of a machine whose loop is bound by instructions (modern: four
instructions per 8 bytes read) stays far below the published one, which
says nothing about the overlap model; the memory side does.

Pure functions of the records, so the harness tests feed them canned lines.
"""
from __future__ import annotations

from pathlib import Path

from .model import clock_mhz, joined_path, models_of
from .results import load_records

# Every shipped profile, fastest first: the bench's default --model.
PROFILES = ("modern", "p4", "pentium2-450", "pentiumpro200", "pentium200-edo",
            "pentium200-fpm", "pentium166")
DEFAULT_MODEL = "+".join(PROFILES)
OPS = ("read", "zero", "copy")
# A pass's memory side: the counters of its cycles beyond its instructions.
MEMORY_SIDE = ("mem_cycles", "walk_cycles")
# How far a modelled memory-side rate may lie outside the published range and
# still hold.  The model's memory inputs are of medium confidence (mem.latency
# from others' measurements, stream.mem_line_cycles from a memory's peak), and
# published single-thread figures of one machine class differ by about this
# much with the board and the memory (lmbench's i586 reads: 58-74 MB/s).
TOLERANCE = 0.25
CASES = ("worst", "best")
# The size whose rates are shown: kperf --copy's largest, KPERF_COPY_MAX.
BYTES = 256 * 1024

# Published rates, MB/s, (low, high) per op, and where they come from.
# [LMB-T] lmbench's USENIX 1996 paper, its memory bandwidth table
#   (doc/bw_allmem.tbl of lmbench 3): bcopy libc / memory read / memory write.
#   "Linux i686" is a Pentium Pro at 167 MHz (the paper's text), "Unixware/i686"
#   another Pentium Pro; the i586 rows are Pentiums of 1995-96 whose clocks the
#   table does not give (FreeBSD/i586@100 in the text).
# [SKL-RD] rigaya34589.blog.fc2.com, entry 660: i7-6700K at 4.4 GHz,
#   DDR4-3233, one thread reading: 25.4 GB/s.
# [SKL-CP] stackoverflow.com question 39260020: memcpy of 25 MB in 2.2 ms on
#   Skylake with DDR4-2133, one thread: 11.4 GB/s.
PUBLISHED: dict[str, dict[str, tuple[float, float, str]]] = {
    "modern": {"read": (25400, 25400, "SKL-RD, 4.4 GHz DDR4-3233"),
               "copy": (11400, 11400, "SKL-CP, DDR4-2133")},
    "pentiumpro200": {"read": (205, 214, "LMB-T i686"), "zero": (56, 86, "LMB-T i686 write"),
                      "copy": (55, 57, "LMB-T i686 bcopy libc")},
    **{p: {"read": (58, 74, "LMB-T i586"), "zero": (30, 83, "LMB-T i586 write"),
           "copy": (21, 42, "LMB-T i586 bcopy libc")}
       for p in ("pentium166", "pentium200-edo", "pentium200-fpm")},
}


def _passes(records):
    """(op, case, per_iter) of each joined kperf --copy pass at BYTES."""
    for r in records:
        if r.get("kind") == "kperf-bw":
            op = str(r.get("op"))
        elif r.get("kind") == "kperf-copy":
            op = "copy"
        else:
            continue
        if int(r.get("bytes", 0)) == BYTES:
            yield op, str(r.get("case")), (r.get("model") or {}).get("per_iter") or {}


def rates(records, mhz: float, counters: tuple[str, ...] = ("cycles",)) -> dict[tuple[str, str], float]:
    """{(op, case): MB/s} of one machine's joined kperf --copy records at BYTES,
    from the sum of COUNTERS per pass (("cycles",): the whole pass; MEMORY_SIDE:
    its memory side).  A pass without every counter, or with none of them, has no rate."""
    out = {}
    for op, case, per_iter in _passes(records):
        if not all(c in per_iter for c in counters):
            continue
        cycles = sum(float(per_iter[c] or 0) for c in counters)
        if cycles:
            out[(op, case)] = BYTES * mhz / cycles
    return out


def memory_rates(records, mhz: float) -> dict[tuple[str, str], float]:
    """{(op, case): MB/s} of the passes' memory sides (MEMORY_SIDE)."""
    return rates(records, mhz, MEMORY_SIDE)


def verdict(profile: str, op: str, rate: float | None) -> str:
    """"holds" or "FAILS" for a memory-side rate against the published range
    within TOLERANCE; "" without a published figure or a rate."""
    low, high, source = PUBLISHED.get(profile, {}).get(op, (0, 0, ""))
    if not source or rate is None:
        return ""
    return "holds" if low * (1 - TOLERANCE) <= rate <= high * (1 + TOLERANCE) else "FAILS"


def load(results: Path, run: str, model: str) -> dict[str, dict]:
    """{profile: {"all": rates, "memory": memory-side rates}} for every model
    of MODEL that has its joined file (results/RUN.PROFILE.joined.jsonl) and a
    known clock."""
    out = {}
    for m in models_of(model):
        path = joined_path(results.parent, run, m)
        mhz = clock_mhz(m)
        if path.is_file() and mhz:
            records = load_records(path)
            out[m] = {"all": rates(records, mhz), "memory": memory_rates(records, mhz)}
    return out


def published(profile: str, op: str) -> str:
    """The published figure of one machine and op as text, "" without one."""
    low, high, source = PUBLISHED.get(profile, {}).get(op, (0, 0, ""))
    if not source:
        return ""
    figure = f"{low:.0f}" if low == high else f"{low:.0f}-{high:.0f}"
    return f"{figure} ({source})"


def render(per_machine: dict[str, dict]) -> str:
    """Per machine and op: modelled MB/s worst case (whole pass and memory
    side) and best case, the published figure and the memory side's verdict."""
    if not per_machine:
        return "bandwidth: no joined kperf --copy records (run with --model)\n"
    lines = [f"memory bandwidth, {BYTES // 1024} KiB passes, modelled MB/s at each machine's clock "
             "(worst: caches purged first; best: warm; memory: the worst case's memory side, "
             "mem_cycles + walk_cycles, what the overlap model allows)",
             f"  {'machine':<16} {'op':<5} {'worst':>9} {'memory':>9} {'best':>9}  "
             f"{'verdict':<7}  published MB/s"]
    held = judged = 0
    for m, per in per_machine.items():
        for op in OPS:
            worst, best = per["all"].get((op, "worst")), per["all"].get((op, "best"))
            memory = per["memory"].get((op, "worst"))
            cells = "".join(f" {v:>9.0f}" if v else f" {'-':>9}" for v in (worst, memory, best))
            mark = verdict(m, op, memory)
            judged += bool(mark)
            held += mark == "holds"
            lines.append(f"  {m:<16} {op:<5}{cells}  {mark or '-':<7}  {published(m, op) or '-'}")
    lines.append(f"  memory side within {TOLERANCE:.0%} of the published range: {held} of {judged}")
    lines.append("  sources: LMB-T lmbench USENIX 1996, memory bandwidth table (Pentium Pro 167 MHz, "
                 "Pentiums of unstated clock); SKL-RD rigaya34589 blog entry 660; SKL-CP "
                 "stackoverflow q. 39260020 (tools/hakotool/bandwidth.py)")
    return "\n".join(lines) + "\n"


def table(boots) -> str:
    """The bench's table, from every model's joined file of the boot."""
    return render(load(boots.results, f"bench-{boots.name}", boots.model))
