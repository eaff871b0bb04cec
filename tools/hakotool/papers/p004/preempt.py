"""Paper 004's Table 2: the longest preemption-off section per context.

The guest's `"kind":"preempt"` records (user/preemptstress) give, per
stress case and context (uapi/hako_perf.h numbering), the longest section
in TSC ticks, the part of it spent waiting for spinlocks ("wait") and the
site where it began.  Under icount at shift 0 one instruction is one TSC
tick and 1 ns of guest time, so the design rule's 100 us is 100,000 ticks.

That TSC figure is not the section's own length: QEMU runs the vCPUs in
turns on one thread, and a section that is open when its vCPU's turn ends
(its budget runs out, it waits for a lock, it sends an IPI) also counts
every other vCPU's turn, up to the next timer deadline each.  With
`--model PROFILE` the cost-model plugin counts each section in its own
vCPU's instructions and modelled cycles (`"kind":"section"` records,
tools/costmodel/sections.h), one epoch per stress case; the bound is
checked on those cycles at the profile's clock (model.CLOCK_MHZ: the
stated clock; pentium166, the slowest of paper 004's PCs, by default),
or on the own instructions at 1 ns each for a profile without a clock.
Without the plugin the table falls back to the TSC, and says so.

A section's site is an address; the bench names it with the symbols of
the kernel that ran and stores the name ("site_name", model.join_records),
so the table stays right after the kernel changes.  Result files from
before the names were stored are named with the current build/hako.sym,
and the table says so.
"""
from __future__ import annotations

import pathlib
import re

from ... import ksyms
from ...model import CLOCK_MHZ

BOUND_TICKS = 100_000       # 100 us at 1 instruction = 1 ns (icount, shift 0)
MAX_CALLS = 64
CTX_TRAP = 1 + MAX_CALLS
REGION_PREEMPT_IRQ = 0xd01
SYSCALLS_DEF = pathlib.Path(__file__).resolve().parents[4] / "kernel/uapi/syscalls.def"
KERNEL_SYMS = pathlib.Path(__file__).resolve().parents[4] / ksyms.KERNEL_SYMS   # nm -n of the kernel


def load_symbols(path: pathlib.Path = KERNEL_SYMS) -> list[tuple[int, str]]:
    """(address, name) of the kernel's code symbols (default: the current
    build's), sorted; [] without the file."""
    return ksyms.load_symbols(path)


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


def own_sections(records, syms: list[tuple[int, str]] | None = None) -> dict[int, dict]:
    """The plugin's longest section per context, over the stress cases:
    {ctx: {"insns", "cycles", "case", "cpu", "profile"}}.  Epoch n is the
    n-th case (preemptstress resets the figures before each)."""
    cases: list[str] = []
    for r in records or ():
        if r.get("kind") == "preempt" and r.get("case") not in cases:
            cases.append(r["case"])
    best: dict[int, dict] = {}
    for r in records or ():
        if r.get("kind") != "section":
            continue
        epoch = int(r.get("epoch", 0))
        if epoch < 1 or epoch > len(cases):
            continue                 # boot, before the first case
        ctx = int(r["ctx"])
        if ctx == 0 and r.get("region") == REGION_PREEMPT_IRQ:
            continue                 # an interrupt with no vector: cannot happen
        w = best.get(ctx)
        if w is None or r["insns"] > w["insns"]:
            best[ctx] = {"insns": int(r["insns"]), "cycles": int(r.get("cycles", 0)),
                         "case": cases[epoch - 1], "cpu": int(r.get("vcpu", -1)),
                         "profile": r.get("profile", ""), "site": site_of(r, syms)}
    return best


def site_of(section: dict, syms) -> str:
    """A section's site: the name stored at bench time, else the address
    named with SYMS (the current build's symbols: right only if the
    kernel has not changed since the run), else the address."""
    if section.get("site_name"):
        return section["site_name"]
    site = int(str(section.get("site", "0")), 0)
    return ksyms.symbolize(site, syms) if syms is not None else hex(site)


def sites_stored(records) -> bool:
    """Whether every section record carries the name made at bench time."""
    return all(r.get("site_name") for r in records or () if r.get("kind") == "section")


def site_note(records, syms) -> list[str]:
    """A line saying where the sites' names come from, when not from the run."""
    if sites_stored(records):
        return []
    if syms:
        return ["  site: these results carry no names (a run from before they were stored): "
                "named with the current build/hako.sym, wrong if the kernel changed since"]
    return ["  site: these results carry no names and there are no kernel symbols: addresses"]


def own_us(o: dict) -> float | None:
    """A section's modelled length in us at its profile's clock, or None."""
    mhz = CLOCK_MHZ.get(o.get("profile", ""))
    return o["cycles"] / mhz if mhz else None


def own_over(o: dict) -> bool:
    us = own_us(o)
    return us > BOUND_TICKS / 1000 if us is not None else o["insns"] > BOUND_TICKS


def longest_per_ctx(records) -> dict[int, dict]:
    worst: dict[int, dict] = {}
    for r in records or ():
        if r.get("kind") != "preempt":
            continue
        w = worst.get(r["ctx"])
        if w is None or r["max"] > w["max"]:
            worst[r["ctx"]] = r
    return worst


def render_preempt(records, label: str = "", syms=None) -> list[str]:
    """One run's table: per context the TSC figure (with its lock wait and
    site) and, with the plugin's records, the section's own length and
    site; the bound is checked on the own length when there is one.
    syms: the kernel's symbols (default build/hako.sym)."""
    worst = longest_per_ctx(records)
    if not worst:
        return []
    names = call_names()
    syms = load_symbols() if syms is None else syms
    own = own_sections(records, syms)
    profile = next((o["profile"] for o in own.values() if o.get("profile")), "")
    head = f"preempt{f' [{label}]' if label else ''}: longest preemption-off section per context over every stress case"
    out = [head,
           "  tsc: TSC ticks = instructions = ns under icount (shift 0), other vCPUs' turns included; "
           "wait: of it, spinning for a lock"]
    if own:
        mhz = CLOCK_MHZ.get(profile)
        where = (f"us = cycles at {profile}'s {mhz} MHz, the stated clock of the bound (100 us)"
                 if mhz else "the bound (100 us) is checked on own at 1 ns each")
        out.append(f"  own: the section's own vCPU's instructions and cycles, cost model {profile}; "
                   + where)
        out += site_note(records, syms)
        out.append(f"  {'context':<28} {'own':>8} {'cycles':>8} {'us':>7}  {'case':<6} {'cpu':>3}"
                   f"  {'site':<30} {'tsc':>9} {'wait':>8}")
    else:
        out.append("  no cost-model figures (--model PROFILE): the bound (100 us = 100,000) "
                   "is checked on tsc, which counts other vCPUs' turns")
        out.append(f"  {'context':<28} {'tsc':>9} {'wait':>8} {'us':>7}  {'case':<6} {'cpu':>3}  site")
    over = 0

    def key(item):
        ctx, r = item
        return (-own[ctx]["insns"] if ctx in own else 0) if own else -r["max"], ctx

    for ctx, r in sorted(worst.items(), key=key):
        site = r.get("site") or "-"
        wait = int(r.get("wait", 0))
        if own:
            o = own.get(ctx)
            flag = " OVER" if o and own_over(o) else ""
            us = own_us(o) if o else None
            us_txt = f"{us:>7.1f}" if us is not None else f"{'-':>7}"
            own_txt = (f"{o['insns']:>8} {o['cycles']:>8} {us_txt}  {o['case']:<6} {o['cpu']:>3}"
                       f"  {o['site']:<30}" if o
                       else f"{'-':>8} {'-':>8} {'-':>7}  {'-':<6} {'-':>3}  {'-':<30}")
            out.append(f"  {ctx_name(ctx, names):<28} {own_txt} {r['max']:>9} {wait:>8}{flag}")
        else:
            flag = " OVER" if r["max"] > BOUND_TICKS else ""
            out.append(f"  {ctx_name(ctx, names):<28} {r['max']:>9} {wait:>8} {r['max'] / 1000:>7.1f}  "
                       f"{r['case']:<6} {r['cpu']:>3}  {site}{flag}")
        over += bool(flag)
    out.append(f"  {over} context(s) over the bound ({'own' if own else 'tsc'})")
    return out


def render_before_after(runs) -> list[str]:
    """runs: [(label, records), ...], the first the "before".  Each run's
    table, then the longest own section (tsc without the plugin) per
    context side by side."""
    out: list[str] = []
    syms = load_symbols()
    for label, records in runs:
        table = render_preempt(records, label, syms)
        if table:
            out += table + [""]
    if len(runs) < 2:
        return out[:-1] if out else out
    names = call_names()
    own_runs = [own_sections(records) for _, records in runs]
    use_own = all(own_runs)
    figures, flags = [], []
    for (label, records), own in zip(runs, own_runs):
        if use_own:
            figures.append({ctx: own_us(o) if own_us(o) is not None else o["insns"] / 1000
                            for ctx, o in own.items()})
            flags.append({ctx: own_over(o) for ctx, o in own.items()})
        else:
            figures.append({ctx: r["max"] / 1000 for ctx, r in longest_per_ctx(records).items()})
            flags.append({ctx: r["max"] > BOUND_TICKS for ctx, r in longest_per_ctx(records).items()})
    if use_own:
        profile = next((o["profile"] for o in own_runs[0].values()), "")
        mhz = CLOCK_MHZ.get(profile)
        unit = (f"us of own cycles at {profile}'s {mhz} MHz" if mhz
                else f"us of own instructions at 1 ns each ({profile})")
    else:
        unit = "us of TSC (other vCPUs' turns included)"
    labels = [label for label, _ in runs]
    out.append(f"preempt: {' -> '.join(labels)}, longest section per context, {unit}; bound 100 us")
    out.append(f"  {'context':<28}" + "".join(f" {label:>22}" for label in labels))
    ctxs = sorted(set().union(*figures), key=lambda c: (-max(f.get(c, 0) for f in figures), c))
    for ctx in ctxs:
        cells = "".join(f" {(f'{f[ctx]:.1f}' + (' OVER' if fl[ctx] else '')) if ctx in f else '-':>22}"
                        for f, fl in zip(figures, flags))
        out.append(f"  {ctx_name(ctx, names):<28}{cells}")
    overs = [sum(fl.values()) for fl in flags]
    out.append("  over the bound: " + ", ".join(f"{label} {n}" for label, n in zip(labels, overs)))
    return out


def check_bound(records) -> str | None:
    """Why a run breaks the design rule (a context's own section over
    100 us), or None; None too without the plugin's figures (the TSC
    cannot tell, see the module text)."""
    own = own_sections(records, [])
    over = sorted(ctx_name(ctx, call_names()) for ctx, o in own.items() if own_over(o))
    return f"over the 100 us bound: {', '.join(over)}" if over else None
