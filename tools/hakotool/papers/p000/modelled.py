"""Paper 000 in modelled cycles: Table 2's totals and Fig. 6 with device access priced.

`./hako bench intr --model PROFILE` runs the cost model beside intrbench
with epochs (tools/costmodel/epochs.h) at intrbench's `run_config` (one
configuration of Table 2's runs: packed or not, N, T) and `one_case` (one
case of Fig. 6: k frames per 10 ms) and at the starts of its later parts,
so the joined file (results/bench-intr.joined.jsonl) has, per call and
vCPU, the instructions, cycles and device register accesses (io_reads,
io_writes, io_cycles: port, MMIO and local-APIC accesses at the
profile's io.* prices).

The guest's figures are instruction counts between its own TSC stamps;
the epochs cannot split them into phases, so what is modelled here is
what the instructions leave out: every figure becomes its instructions
at the profile's base CPI plus the device accesses the same run made,
spread over the interrupts it took.  Cache and TLB cycles are not added
(the epochs hold the receiving thread's and the receiver process's start
and end too, whose misses are not part of the figures); the device
accesses of those are few (opening the card) and are included.

Table 2 (RX_CPU's accesses only; the sender on CPU 0 is not in these
figures): packed N = cycles of one batch of N, sequential = N x one
interrupt, from ROUNDS rounds per configuration.
Fig. 6: the paper's second is CPU time; under icount it is 10^9
instructions of all CPUs together (interference.c), and so it is here:
F = the profile's clock x 1 s cycles of all CPUs, of which the guest's
non-loop instructions H = 10^9 - loops x L (L = 10^9 / loops without I/O)
and the case's device cycles (all vCPUs) are not the loop's:
loops = (F - H x cpi - io) / (L x cpi).
"""
from __future__ import annotations

from ...model import CLOCK_MHZ

RX_CPU = 1                 # user/intrbench/intrbench.h: the receiving card's CPU
ROUNDS = 20                # user/intrbench/phases.c: rounds of N frames per configuration
SEQ_FRAMES = 10            # phases.c: the sequential run's frames per round
N_MAX = 10
LOOP_INSNS = 1_000_000_000  # interference.c LOOP_NS under icount (1 instruction per ns)
K_MAX = 10


def _epochs(records: list[dict]) -> dict[int, dict]:
    """{seq: {"name", "args", "vcpus": {vcpu: line}}} from the joined epoch lines."""
    out: dict[int, dict] = {}
    for r in records:
        if r.get("kind") != "epoch":
            continue
        e = out.setdefault(int(r["seq"]), {"name": r.get("at_name", ""), "args": r.get("args", []),
                                            "vcpus": {}, "profile": r.get("profile", ""),
                                            "cpi": int(r.get("base_cpi_milli", 1000)) / 1000})
        e["vcpus"][int(r["vcpu"])] = r
    return dict(sorted(out.items()))


def _sum(epoch: dict, key: str, vcpu: int | None = None) -> int:
    lines = epoch["vcpus"].values() if vcpu is None else [epoch["vcpus"].get(vcpu, {})]
    return sum(int(line.get(key, 0)) for line in lines)


def figures(records: list[dict]) -> dict | None:
    """The modelled figures from a joined run, or None when it has no epochs.
    A run whose epochs are not intrbench's expected calls gives {"error": why}."""
    epochs = _epochs(records)
    if not epochs:
        return None
    first = next(iter(epochs.values()))
    profile, cpi = first["profile"], first["cpi"]
    mhz = CLOCK_MHZ.get(profile)
    configs = [e for e in epochs.values() if e["name"] == "run_config"]
    cases = [e for e in epochs.values() if e["name"] == "one_case"]
    if len(cases) == 2 * K_MAX:
        # The compiler inlines one_case(0, ...), the no-I/O case, into
        # part_interference: that epoch holds it.
        cases = [e for e in epochs.values() if e["name"] == "part_interference"][-1:] + cases
    packed = {e["args"][1]: e for e in configs if e["args"][0] and not e["args"][2]}
    seq = [e for e in configs if not e["args"][0]]
    if sorted(packed) != list(range(1, N_MAX + 1)) or len(seq) != 1:
        return {"error": f"expected run_config for packed N = 1..{N_MAX} and one sequential, "
                         f"got {len(configs)} calls"}
    if len(cases) != 1 + 2 * K_MAX or not mhz:
        return {"error": f"expected {1 + 2 * K_MAX} one_case calls and a known clock, "
                         f"got {len(cases)} ({profile})"}
    totals = {r["n"]: r for r in records if r.get("kind") == "intr-total"}
    loops = {(r["mode"], r["k"]): r["loops"] for r in records
             if r.get("kind") == "intr-interference"}
    if len(totals) != N_MAX or ("none", 0) not in loops:
        return {"error": "no intr-total or intr-interference records"}
    f: dict = {"profile": profile, "mhz": mhz, "cpi": cpi}
    # Table 2: device cycles per interrupt and per batch, on the receiving CPU.
    s = seq[0]
    seq_ints = ROUNDS * SEQ_FRAMES
    seq_io = _sum(s, "io_cycles", RX_CPU) / seq_ints
    f["seq_io_per_int"] = seq_io
    f["seq_accesses_per_int"] = (_sum(s, "io_reads", RX_CPU) + _sum(s, "io_writes", RX_CPU)) / seq_ints
    rows = {}
    for n in range(1, N_MAX + 1):
        p = packed[n]
        pack_io = _sum(p, "io_cycles", RX_CPU) / ROUNDS
        t = totals[n]
        seq_c = t["seq_measured"] * cpi + n * seq_io
        pack_c = t["packed_measured"] * cpi + pack_io
        rows[n] = {"seq_insns": t["seq_measured"], "seq_cycles": round(seq_c),
                   "packed_insns": t["packed_measured"], "packed_cycles": round(pack_c),
                   "packed_io_per_batch": round(pack_io),
                   "packed_accesses_per_int": (_sum(p, "io_reads", RX_CPU)
                                               + _sum(p, "io_writes", RX_CPU)) / (ROUNDS * n),
                   "saving_pct": 100.0 * (seq_c - pack_c) / seq_c}
    f["totals"] = rows
    f["breakeven_n"] = next((n for n in rows if rows[n]["packed_cycles"] < rows[n]["seq_cycles"]),
                            N_MAX + 1)
    f["seq_io_share_pct"] = 100.0 * seq_io / (totals[1]["seq_measured"] * cpi + seq_io)
    # Fig. 6: loops in one modelled second; the order of the calls gives the mode.
    F = mhz * 1_000_000
    modes = ["none"] + [m for _ in range(K_MAX) for m in ("sequential", "packed")]
    ks = [0] + [k for k in range(1, K_MAX + 1) for _ in (0, 1)]
    L = LOOP_INSNS / loops[("none", 0)]
    fig = {}
    for e, mode, k in zip(cases, modes, ks):
        if e["args"][0] != k or (mode, k) not in loops:
            return {"error": f"one_case calls out of the expected order at k = {k}"}
        io = _sum(e, "io_cycles")
        h = LOOP_INSNS - loops[(mode, k)] * L
        fig[(mode, k)] = {"loops_insns": loops[(mode, k)],
                          "loops_cycles": round((F - h * cpi - io) / (L * cpi)),
                          "io_cycles": io, "io_share_pct": 100.0 * io / F,
                          "busy_share_pct": 100.0 * (h * cpi + io) / F}
    f["fig6"] = fig
    return f


def fig6_loops(f: dict) -> tuple[dict, dict, int]:
    """Fig. 6's modelled loops: ({k: sequential}, {k: packed}, no I/O)."""
    fig = f["fig6"]
    return ({k: v["loops_cycles"] for (m, k), v in fig.items() if m == "sequential"},
            {k: v["loops_cycles"] for (m, k), v in fig.items() if m == "packed"},
            fig[("none", 0)]["loops_cycles"])


def _n(x: float) -> str:
    return f"{round(x):,}"


GROUP_MODES = ("sequential", "grouped", "ungrouped")   # grouping.c: the g_run calls' order


def grouping(records: list[dict]) -> dict | None:
    """The grouping part in modelled cycles: CPU 1's whole work in each g_run
    epoch (sequential, grouped, ungrouped; caches and TLBs included, and the
    reader threads' work, the same in the three) per interrupt of both cards,
    with its L1 misses.  None without those epochs and records."""
    epochs = [e for e in _epochs(records).values() if e["name"] == "g_run"]
    runs = {r["mode"]: r for r in records if r.get("kind") == "intr-grouping"}
    if len(epochs) != len(GROUP_MODES) or not all(runs.get(m, {}).get("interrupts")
                                                   for m in GROUP_MODES):
        return None
    out: dict = {"profile": epochs[0]["profile"]}
    for e, m in zip(epochs, GROUP_MODES):
        ints = runs[m]["interrupts"]
        out[m] = {key: _sum(e, field, RX_CPU) / ints for key, field in
                  (("cycles", "cycles"), ("insns", "insns"), ("l1i", "l1i_miss"),
                   ("l1d", "l1d_miss"))}
    return out


def render_grouping(g: dict | None) -> str:
    """Its table for `./hako bench intr --model`."""
    if not g:
        return ""
    lines = [f"grouping by device type in modelled cycles ({g['profile']}): CPU 1's work per "
             "interrupt of both cards (handling and the reader threads; caches included)",
             f"  {'mode':10}  {'insns':>8}  {'cycles':>8}  {'L1i miss':>8}  {'L1d miss':>8}"]
    for m in GROUP_MODES:
        r = g[m]
        lines.append(f"  {m:10}  {r['insns']:8.0f}  {r['cycles']:8.0f}  {r['l1i']:8.2f}  "
                     f"{r['l1d']:8.2f}")
    return "\n".join(lines) + "\n"


def render(f: dict | None) -> str:
    """The modelled tables for `./hako bench intr --model`."""
    if f is None:
        return ""
    if "error" in f:
        return f"paper 000 in modelled cycles: not computed: {f['error']}\n"
    lines = [f"paper 000 in modelled cycles, profile {f['profile']} ({f['mhz']} MHz): "
             "instructions at the base CPI plus the device register accesses the same run made "
             "(cache and TLB cycles not added)", "",
             "Table 2, total cost of N interrupts on the receiving CPU "
             "(instructions | modelled cycles):",
             f"   N  {'sequential':>19}  {'packed':>19}  {'saving':>15}  "
             f"{'packed I/O':>10}  {'accesses/intr':>13}",
             f"      {'insns':>9} {'cycles':>9}  {'insns':>9} {'cycles':>9}  "
             f"{'insns':>7} {'cycles':>7}  {'cyc/batch':>10}  {'packed':>13}"]
    for n, r in f["totals"].items():
        save_i = 100.0 * (r["seq_insns"] - r["packed_insns"]) / r["seq_insns"]
        lines.append(f"  {n:2}  {r['seq_insns']:9,} {r['seq_cycles']:9,}  {r['packed_insns']:9,} "
                     f"{r['packed_cycles']:9,}  {save_i:6.1f}% {r['saving_pct']:6.1f}%  "
                     f"{r['packed_io_per_batch']:10,}  {r['packed_accesses_per_int']:13.1f}")
    lines += [f"sequential: {f['seq_accesses_per_int']:.1f} device accesses per interrupt, "
              f"{_n(f['seq_io_per_int'])} cycles, {f['seq_io_share_pct']:.1f} % of one interrupt's "
              f"modelled cycles; packed cheaper from N = {f['breakeven_n']} (modelled)", "",
              "Fig. 6, loops in one second with k interrupts per 10 ms (instructions: the guest's "
              "count | modelled at the profile's clock):",
              f"   k  {'sequential':>17}  {'packed':>17}  {'gain':>15}  "
              f"{'I/O share (seq)':>15}  {'busy (seq)':>10}"]
    fig = f["fig6"]
    none = fig[("none", 0)]
    lines.append(f"   0  {none['loops_insns']:8,} {none['loops_cycles']:8,}  {'':17}  {'':15}  "
                 f"{none['io_share_pct']:14.2f}%  {none['busy_share_pct']:9.2f}%")
    for k in range(1, K_MAX + 1):
        s, p = fig[("sequential", k)], fig[("packed", k)]
        gain_i = 100.0 * (p["loops_insns"] - s["loops_insns"]) / s["loops_insns"]
        gain_c = 100.0 * (p["loops_cycles"] - s["loops_cycles"]) / s["loops_cycles"]
        lines.append(f"  {k:2}  {s['loops_insns']:8,} {s['loops_cycles']:8,}  "
                     f"{p['loops_insns']:8,} {p['loops_cycles']:8,}  {gain_i:+6.2f}% {gain_c:+6.2f}%  "
                     f"{s['io_share_pct']:14.2f}%  {s['busy_share_pct']:9.2f}%")
    s10 = fig[("sequential", K_MAX)]
    lines.append(f"at k = {K_MAX} the device accesses take {s10['io_share_pct']:.2f} % of the "
                 f"modelled second and the loop loses "
                 f"{100.0 * (none['loops_cycles'] - s10['loops_cycles']) / none['loops_cycles']:.2f} % "
                 "(sequential; the paper: about 30 %)")
    return "\n".join(lines) + "\n"
