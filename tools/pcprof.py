#!/usr/bin/env python3
"""Where a global region's instructions went, per CPU and function.

    tools/pcprof.py FILE.model.jsonl REGION [REGION2] [--top N] [--vcpu V]

Reads the cost-model plugin's "pcprof" lines (plugin argument pcprof=on:
instructions per translated block run inside each global region, per
vCPU) and maps every block's address to the kernel function it lies in
(build/hako.sym, `nm -n` of the kernel); user-space addresses are one
bucket, "user".  With one region: per vCPU, its instructions by function,
largest first.  With two: the difference REGION2 - REGION per (vCPU,
function), largest moves first — to find what two runs of the same
cell did differently.
"""
import argparse
import bisect
import collections
import json
import sys

KERNEL_BASE = 0xFFFF800000000000


def load_symbols(path):
    """Sorted (address, name) of the kernel's text symbols."""
    syms = []
    with open(path) as f:
        for line in f:
            parts = line.split()
            if len(parts) == 3 and parts[1] in "tTwW":
                syms.append((int(parts[0], 16), parts[2]))
    syms.sort()
    return syms


def function_of(syms, addrs, pc):
    """The function that holds pc, or "user" below the kernel half."""
    if pc < KERNEL_BASE:
        return "user"
    i = bisect.bisect_right(addrs, pc) - 1
    return syms[i][1] if i >= 0 else hex(pc)


def profile(path, syms):
    """{region: {(vcpu, function): insns}} from the plugin's pcprof lines."""
    addrs = [a for a, _ in syms]
    out = collections.defaultdict(collections.Counter)
    with open(path) as f:
        for line in f:
            if '"pcprof"' not in line:
                continue
            r = json.loads(line)
            fn = function_of(syms, addrs, int(r["pc"], 16))
            out[r["region"]][(r["vcpu"], fn)] += r["insns"]
    return out


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("file")
    ap.add_argument("regions", type=int, nargs="+")
    ap.add_argument("--top", type=int, default=25)
    ap.add_argument("--vcpu", type=int)
    ap.add_argument("--sym", default="build/hako.sym")
    a = ap.parse_args(argv)
    prof = profile(a.file, load_symbols(a.sym))
    first = prof[a.regions[0]]
    rows = first if len(a.regions) == 1 else \
        {k: prof[a.regions[1]].get(k, 0) - first.get(k, 0)
         for k in set(first) | set(prof[a.regions[1]])}
    rows = {k: v for k, v in rows.items() if a.vcpu is None or k[0] == a.vcpu}
    per_cpu = collections.Counter()
    for (v, _), n in rows.items():
        per_cpu[v] += n
    print("per vCPU:", " ".join(f"{v}:{per_cpu[v]:+d}" if len(a.regions) > 1 else f"{v}:{per_cpu[v]}"
                                for v in sorted(per_cpu)))
    for (v, fn), n in sorted(rows.items(), key=lambda kv: -abs(kv[1]))[:a.top]:
        print(f"  cpu{v:<2} {n:>+10d}  {fn}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
