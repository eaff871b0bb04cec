"""Paper 004's Table 2: the longest preemption-off section per context.

The guest's `"kind":"preempt"` records (user/preemptstress) give, per
stress case and context (uapi/hako_perf.h numbering), the longest section
in TSC ticks.  Under icount at shift 0 one instruction is one TSC tick and
1 ns of guest time, so the design rule's 100 us is 100,000 ticks.
"""
from __future__ import annotations

import pathlib
import re

BOUND_TICKS = 100_000       # 100 us at 1 instruction = 1 ns (icount, shift 0)
MAX_CALLS = 64
CTX_TRAP = 1 + MAX_CALLS
SYSCALLS_DEF = pathlib.Path(__file__).resolve().parents[2] / "kernel/include/uapi/syscalls.def"


def call_names() -> dict[int, str]:
    """System call number -> name, from syscalls.def."""
    names = {}
    for line in SYSCALLS_DEF.read_text().splitlines():
        m = re.match(r"^(\d+)\s+(\w+)\s", line)
        if m:
            names[int(m.group(1))] = m.group(2)
    return names


def ctx_name(ctx: int, names: dict[int, str]) -> str:
    if ctx == 0:
        return "kernel thread"
    if ctx < CTX_TRAP:
        return f"call {ctx - 1} {names.get(ctx - 1, '?')}"
    if ctx == CTX_TRAP:
        return "user exception"
    return f"interrupt vector {ctx - CTX_TRAP - 1 + 32}"


def render_preempt(records) -> list[str]:
    rows = [r for r in records or () if r.get("kind") == "preempt"]
    if not rows:
        return []
    names = call_names()
    worst: dict[int, dict] = {}
    for r in rows:
        w = worst.get(r["ctx"])
        if w is None or r["max"] > w["max"]:
            worst[r["ctx"]] = r
    out = ["preempt: longest preemption-off section per context over every stress case, "
           "TSC ticks = instructions = ns under icount (shift 0); bound 100 us = 100,000",
           f"  {'context':<28} {'longest':>9} {'us':>7}  {'case':<6} {'cpu':>3}  site"]
    over = 0
    for ctx, r in sorted(worst.items(), key=lambda kv: -kv[1]["max"]):
        flag = " OVER" if r["max"] > BOUND_TICKS else ""
        over += bool(flag)
        out.append(f"  {ctx_name(ctx, names):<28} {r['max']:>9} {r['max'] / 1000:>7.1f}  "
                   f"{r['case']:<6} {r['cpu']:>3}  {r.get('site') or '-'}{flag}")
    out.append(f"  {over} context(s) over the bound")
    return out
