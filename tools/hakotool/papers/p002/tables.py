"""Paper 002's comparison tables, printed from ispcbench's result lines.

    ./hako paper 002 tables [--run] [--icount FILE] [MODEL.joined.jsonl ...]

Reads the guest's figures (results/bench-ispc.jsonl: guest instructions
under icount) and the cost-model joins (by default every
results/bench-ispc-PROFILE.joined.jsonl; the profile is read from the
lines), and prints Markdown tables for docs/results.md:

  * Table 2: the partial operations, application and server side, in
    baseline and fast mode: instructions, modelled cycles per profile,
    TLB misses, beside the paper's microseconds (SH-4, 240 MHz);
  * Fig. 8: the basic operations with the server-side figures apart;
  * Fig. 5: where a baseline synchronous round trip goes, and its
    estimate bars (partials.py);
  * Fig. 8 per operation: the saving and the partial operations it comes
    from (partials.py);
  * Fig. 9: the direct-return saving against a per-stage model;
  * remapping against copying the data (Hako's own question).

--run first runs `./hako bench ispc`, then `--model modern` and
`--model p4`, keeping each join as results/bench-ispc-PROFILE.joined.jsonl
(the harness writes every --model run to results/bench-ispc.joined.jsonl).
Everything else is pure functions of the records, tested on canned lines
in tests/harness/test_ispc_tables.py.
"""
from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
from pathlib import Path

from ...paths import repo_root
from ...results import load_meta, load_records
from .criteria import PAPER_T2  # noqa: F401  (Table 2, µs on the SH-4)

ROOT = repo_root()
PROFILES = ("modern", "p4")
MODES = ("baseline", "fast")

# ---- reading -----------------------------------------------------------

def load(path: Path) -> list[dict]:
    """The JSON object lines of a results file (the harness's reader)."""
    return load_records(path)


def joins(icount: Path) -> list[Path]:
    """The cost-model joins beside ICOUNT (bench-ispc.jsonl): every
    bench-ispc-*.joined.jsonl but another machine's (the SH-4's, which
    sh4.py reads), by the meta records where both files have one."""
    machine = (load_meta(icount) or {}).get("machine") if icount.is_file() else None
    found = []
    for path in sorted(icount.parent.glob("bench-ispc-*.joined.jsonl")):
        other = (load_meta(path) or {}).get("machine")
        if machine is None or other is None or other == machine:
            found.append(path)
    return found


class Figures:
    """Bench figures by name: medians (instructions) and, per cost-model
    profile, the modelled figures per iteration."""

    def __init__(self, icount: list[dict], joined: list[list[dict]]):
        self.median = {r["name"]: r["median"] for r in icount
                       if r.get("kind") == "bench" and "name" in r}
        self.model: dict[str, dict[str, dict]] = {}
        for records in joined:
            for r in records:
                m = r.get("model") or {}
                if r.get("kind") == "bench" and m.get("per_iter"):
                    self.model.setdefault(m.get("profile", "?"), {})[r["name"]] = m["per_iter"]

    def profiles(self) -> list[str]:
        known = [p for p in PROFILES if p in self.model]
        return known + sorted(p for p in self.model if p not in PROFILES)

    def insns(self, name: str):
        return self.median.get(name)

    def modelled(self, profile: str, name: str, counter: str = "cycles"):
        value = self.model.get(profile, {}).get(name, {}).get(counter)
        return value

    def tlb(self, profile: str, name: str):
        """L1 iTLB + dTLB misses per iteration (None if not modelled)."""
        per = self.model.get(profile, {}).get(name)
        if not per:
            return None
        return (per.get("itlb_miss") or 0) + (per.get("dtlb_miss") or 0)


def sources(f: Figures) -> list[tuple[str, object]]:
    """(label, getter) of every figure source: instructions, then each profile's cycles."""
    return [("insns", f.insns)] + [(f"{p} cycles", lambda n, p=p: f.modelled(p, n))
                                   for p in f.profiles()]


# ---- formatting --------------------------------------------------------

def num(value, digits: int = 0) -> str:
    if value is None:
        return "-"
    return f"{value:,.{digits}f}"


def pct(before, after) -> str:
    if before in (None, 0) or after is None:
        return "-"
    return f"{100.0 * (before - after) / before:.1f} %"


def table(header: list[str], rows: list[list[str]]) -> list[str]:
    lines = ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    lines += ["| " + " | ".join(row) + " |" for row in rows]
    return lines


# ---- Table 2 -----------------------------------------------------------

T2_ROWS = (("system call entry + exit", "syscall", "", None),
           ("ICA paste", "ica_paste", "", 2),
           ("ICA paste", "ica_paste", "server", 1),
           ("ICA peel", "ica_peel", "", 2),
           ("ICA peel", "ica_peel", "server", 1),
           ("first access to the ICA", "first_access", "", 2),
           ("first access to the ICA", "first_access", "server", 1),
           ("process switch (one way)", "process_switch", "", None))


def name_of(base: str, side: str, mode: str) -> str:
    return f"{base}_{side}_{mode}" if side else f"{base}_{mode}"


def table2(f: Figures) -> list[str]:
    header = ["operation", "side", "insns base", "insns fast"]
    for p in f.profiles():
        header += [f"{p} cycles base", f"{p} cycles fast"]
    header += [f"TLB misses base ({f.profiles()[0]})" if f.profiles() else "TLB misses base",
               "TLB misses fast", "paper before (µs)", "paper after (µs)"]
    rows = []
    for label, base, side, paper_col in T2_ROWS:
        names = [name_of(base, side, m) for m in MODES]
        row = [label, side or "application"]
        row += [num(f.insns(n)) for n in names]
        for p in f.profiles():
            row += [num(f.modelled(p, n)) for n in names]
        first = f.profiles()[0] if f.profiles() else None
        row += [num(f.tlb(first, n), 1) if first else "-" for n in names]
        before, server, app = PAPER_T2[base]
        after = {None: server, 1: server, 2: app}[paper_col]
        row += [f"{before}", f"{after}"]
        rows.append(row)
    return table(header, rows)


# ---- Fig. 8 ------------------------------------------------------------

F8_ROWS = (("synchronous request (sent -> server has it)", "sync_request", "both"),
           ("synchronous return (replied -> client has it)", "sync_return", "both"),
           ("synchronous request + result round trip", "sync_roundtrip", "application"),
           ("asynchronous request (the call alone)", "async_request", "application"),
           ("server: receive of a queued request (paste into the server)", "server_receive",
            "server"),
           ("server: reply without waiting (peel from the server)", "async_return", "server"),
           ("asynchronous request, then ispc_result", "async_roundtrip", "application"))


def fig8(f: Figures) -> list[str]:
    header = ["operation", "data", "side", "insns base", "insns fast", "saved"]
    for p in f.profiles():
        header += [f"{p} cycles base", f"{p} cycles fast", "saved"]
    rows = []
    for data in ("nodata", "4k"):
        for label, base, side in F8_ROWS:
            names = [f"{base}_{data}_{m}" for m in MODES]
            ins = [f.insns(n) for n in names]
            row = [label, "4 KiB" if data == "4k" else "none", side,
                   num(ins[0]), num(ins[1]), pct(*ins)]
            for p in f.profiles():
                cyc = [f.modelled(p, n) for n in names]
                row += [num(cyc[0]), num(cyc[1]), pct(*cyc)]
            rows.append(row)
    return table(header, rows)


# The operations' names in the plot, with the side they are measured on.
F8_SHORT = {"sync_request": "sync request (both sides)",
            "sync_return": "sync return (both sides)",
            "sync_roundtrip": "sync round trip (application)",
            "async_request": "async request, the call (application)",
            "server_receive": "receive of a queued request (server)",
            "async_return": "reply without waiting (server)",
            "async_roundtrip": "async request + result (application)"}


def fig8_panels(f: Figures) -> list[tuple[str, str, list[tuple[str, float, float]]]]:
    """Fig. 8's numbers for the plot: per source and data size the
    operations that have a figure in both modes, as the table prints them:
    [(source label, data label, [(operation, baseline, fast)])]."""
    panels = []
    for label, get in sources(f):
        for data in ("nodata", "4k"):
            rows = []
            for _, base, _ in F8_ROWS:
                pair = [get(f"{base}_{data}_{m}") for m in MODES]
                if None not in pair:
                    rows.append((F8_SHORT[base], pair[0], pair[1]))
            if rows:
                panels.append((label, "4 KiB data" if data == "4k" else "no data", rows))
    return panels


def server_share(f: Figures) -> list[str]:
    """What one more ICA (the 4 KiB data ICA) costs in the server's path."""
    header = ["in the server's path", "insns base", "insns fast"]
    for p in f.profiles():
        header += [f"{p} cycles base", f"{p} cycles fast"]
    rows = []
    for label, base in (("paste of one more ICA (receive, 4 KiB - none)", "server_receive"),
                        ("peel of one more ICA (reply, 4 KiB - none)", "async_return")):
        row = [label]
        for get in [f.insns] + [lambda n, p=p: f.modelled(p, n) for p in f.profiles()]:
            for m in MODES:
                a, b = get(f"{base}_4k_{m}"), get(f"{base}_nodata_{m}")
                row.append(num(a - b) if a is not None and b is not None else "-")
        rows.append(row)
    return table(header, rows)


# ---- Fig. 5 ------------------------------------------------------------

def breakdown_counts(data: bool, mode: str) -> dict[str, int]:
    """Partial operations in one synchronous request + result round trip
    (basic.c's sync_once against roles.c's end server): two system calls
    (the client's ispc_request; the server's ispc_reply with
    HAKO_ISPC_WAIT, which also receives), two switches, and per ICA a
    touch on each side, a paste into and a peel from the server, and in
    baseline a peel from and a paste into the client (in fast mode the
    client waits alone, so its ICAs stay mapped: ispc.c, `keep`)."""
    icas = 2 if data else 1
    client = icas if mode == "baseline" else 0
    return {"syscall": 2, "paste": client, "paste_server": icas, "peel": client,
            "peel_server": icas, "first_access": icas, "first_access_server": icas,
            "switch": 2}


def unit_costs(get, mode: str) -> dict[str, float] | None:
    """One partial operation's cost as it occurs inside a request: the
    paste and peel figures less their own system call, the one-way switch
    less the two semaphore calls it is made of (a post and a wait)."""
    s = get(f"syscall_{mode}")
    names = {"paste": "ica_paste", "paste_server": "ica_paste_server", "peel": "ica_peel",
             "peel_server": "ica_peel_server", "first_access": "first_access",
             "first_access_server": "first_access_server", "switch": "process_switch"}
    vals = {k: get(f"{n}_{mode}") for k, n in names.items()}
    if s is None or any(v is None for v in vals.values()):
        return None
    units = {"syscall": s, "switch": vals["switch"] - 2 * s}
    for k in ("paste", "paste_server", "peel", "peel_server"):
        units[k] = vals[k] - s
    for k in ("first_access", "first_access_server"):
        units[k] = vals[k]
    return units


FIG5_PARTS = (("system calls", "syscall"), ("ICA paste, application", "paste"),
              ("ICA paste, server", "paste_server"), ("ICA peel, application", "peel"),
              ("ICA peel, server", "peel_server"),
              ("first access, application", "first_access"),
              ("first access, server", "first_access_server"), ("process switch", "switch"))


def breakdown(get, data: bool, mode: str) -> dict[str, float] | None:
    """One synchronous round trip by partial operation (count x unit
    cost, keys of FIG5_PARTS), with "rest" (the measured round trip less
    the parts; negative when the parts' figures, measured alone, add up
    to more) and "total" (the measured round trip); None without figures."""
    units = unit_costs(get, mode)
    total = get(f"sync_roundtrip_{'4k' if data else 'nodata'}_{mode}")
    if units is None or not total:
        return None
    counts = breakdown_counts(data, mode)
    parts = {key: counts[key] * units[key] for _, key in FIG5_PARTS}
    parts["rest"] = total - sum(parts.values())
    parts["total"] = total
    return parts


def fig5(f: Figures, mode: str = "baseline") -> list[str]:
    header = ["part", "count"]
    for label, _ in sources(f):
        header += [label, "share"]
    rows = []
    for data in (False, True):
        counts = breakdown_counts(data, mode)
        per_source = [breakdown(get, data, mode) for _, get in sources(f)]
        tag = "4 KiB data" if data else "no data"
        for label, key in FIG5_PARTS:
            rows.append([f"{label} ({tag})", str(counts[key])] + share_cells(per_source, key))
        for label, key in (("rest", "rest"), ("paste, peel, first access, switch", "four"),
                           ("round trip (measured)", "total")):
            rows.append([f"{label} ({tag})", ""] + share_cells(per_source, key))
    return table(header, rows)


def share_cells(per_source, key: str) -> list[str]:
    """A part's figure and its share of the round trip, per source;
    "four" is everything but the system calls and the rest."""
    cells = []
    for parts in per_source:
        if parts is None:
            cells += ["-", "-"]
            continue
        value = (parts["total"] - parts["rest"] - parts["syscall"] if key == "four"
                 else parts[key])
        cells += [num(value), f"{100 * value / parts['total']:.0f} %"]
    return cells


# The paper's five partial operations, for the plot: application and server
# side summed (in baseline mode the two are the same code).
FIG5_GROUPS = (("ICA paste", ("paste", "paste_server")), ("ICA peel", ("peel", "peel_server")),
               ("first access", ("first_access", "first_access_server")),
               ("process switch", ("switch",)), ("system calls", ("syscall",)),
               ("rest", ("rest",)))


def fig5_bars(f: Figures, mode: str = "baseline") -> list[tuple[str, list[tuple[str, float]], float]]:
    """Fig. 5's numbers for the plot: per (data, source) the round trip's
    parts grouped as the paper's partial operations, and the measured
    round trip: [(bar label, [(part, value)], total)]."""
    bars = []
    for data in (False, True):
        for label, get in sources(f):
            parts = breakdown(get, data, mode)
            if parts is None:
                continue
            groups = [(name, sum(parts[k] for k in keys)) for name, keys in FIG5_GROUPS]
            bars.append((f"{'4 KiB data' if data else 'no data'}, {label}", groups,
                         parts["total"]))
    return bars


# ---- Fig. 9 ------------------------------------------------------------

def relay_series(get, mode: str, how: str) -> list[float]:
    out = []
    for n in range(1, 17):
        v = get(f"relay_{n}_{how}_{mode}")
        if v is None:
            break
        out.append(v)
    return out


def stage_model(step: list[float], direct: list[float]) -> dict[str, float]:
    """Per-stage costs from the relay rows: R1 the one-server round trip,
    s and d what each further stage adds stepwise and direct (mean step).
    Model: stepwise(n) = R1 + (n-1)s, direct(n) = R1 + (n-1)d, so the
    saving is (n-1)(s-d) / (R1 + (n-1)s), 0 at n = 1 and rising toward
    (s-d)/s."""
    n = len(step)
    r1 = (step[0] + direct[0]) / 2
    s = (step[-1] - step[0]) / (n - 1)
    d = (direct[-1] - direct[0]) / (n - 1)
    return {"r1": r1, "s": s, "d": d, "limit": (s - d) / s}


def model_saving(m: dict[str, float], n: int) -> float:
    return (n - 1) * (m["s"] - m["d"]) / (m["r1"] + (n - 1) * m["s"])


def fig9(f: Figures) -> list[str]:
    lines = []
    for mode in MODES:
        header = ["stages"]
        series = []
        for label, get in sources(f):
            step, direct = relay_series(get, mode, "stepwise"), relay_series(get, mode, "direct")
            if len(step) < 2 or len(direct) != len(step):
                continue
            series.append((label, step, direct, stage_model(step, direct)))
            header += [f"{label}: stepwise", "direct", "saved", "model"]
        if not series:
            continue
        rows = []
        for i in range(len(series[0][1])):
            row = [str(i + 1)]
            for _, step, direct, m in series:
                row += [num(step[i]), num(direct[i]), pct(step[i], direct[i]),
                        f"{100 * model_saving(m, i + 1):.1f} %"]
            rows.append(row)
        lines += [f"{mode} mode:", ""] + table(header, rows)
        lines += [""] + [f"* {label}: R1 = {num(m['r1'])}, a stage adds s = {num(m['s'])} "
                         f"stepwise and d = {num(m['d'])} direct; the saving tends to "
                         f"(s-d)/s = {100 * m['limit']:.1f} %"
                         for label, _, _, m in series] + [""]
    return lines


# ---- remapping against copying -----------------------------------------

DATA_SIZES = (("64 B", "64"), ("256 B", "256"), ("1 KiB", "1k"), ("4 KiB", "4k"),
              ("16 KiB", "16k"), ("64 KiB", "64k"), ("256 KiB", "256k"), ("1 MiB", "1024k"))


def data_table(f: Figures) -> list[str]:
    """copy.c's figures: a request + result carrying S bytes, both sides
    reading a word of every page, the data ICA remapped or copied."""
    ways = [(m, w) for m in MODES for w in ("remap", "copy")]
    header = ["S"] + [f"insns {w}, {m}" for m, w in ways]
    for p in f.profiles():
        header += [f"{p} cycles {w}, {m}" for m, w in ways]
    rows = []
    for label, size in DATA_SIZES:
        names = [f"data_{size}_{w}_{m}" for m, w in ways]
        if all(f.insns(n) is None for n in names):
            continue
        row = [label] + [num(f.insns(n)) for n in names]
        for p in f.profiles():
            row += [num(f.modelled(p, n)) for n in names]
        rows.append(row)
    return table(header, rows)


# ---- the whole report --------------------------------------------------

def render(f: Figures) -> str:
    profiles = ", ".join(f.profiles()) or "none"
    out = [f"<!-- ./hako paper 002 tables; modelled profiles: {profiles} -->", "",
           "Table 2: partial operations (insns: guest instructions under icount, median; "
           "cycles: modelled cycles per operation; TLB misses: L1 iTLB + dTLB per operation)",
           ""]
    out += table2(f)
    out += ["", "Fig. 8: basic operations, server side apart", ""] + fig8(f)
    out += ["", "The server's share of one more ICA", ""] + server_share(f)
    out += ["", "Fig. 5: one synchronous round trip in baseline mode, by partial operation", ""]
    out += fig5(f, "baseline")
    out += ["", "The same in fast mode", ""] + fig5(f, "fast")
    from . import partials
    from .criteria import JUDGED_PROFILE, PAPER_FIG8
    judged = lambda name: f.modelled(JUDGED_PROFILE, name)  # noqa: E731
    out += ["", f"Fig. 5's estimate: the paper's request by partial operation, Hako's "
            f"`{JUDGED_PROFILE}` cycles scaled as the paper scaled its Pentium 4's", ""]
    out += partials.fig5_table(partials.fig5_estimate(judged))
    rows = partials.fig8_rows(f, JUDGED_PROFILE)
    out += ["", "Fig. 8 per operation: the saving, measured and composed from Table 2", ""]
    out += partials.fig8_saving_table(rows, PAPER_FIG8, JUDGED_PROFILE)
    out += ["", "Points saved by each partial operation: the paper's composition / Hako's "
            "units in it / ispcbench's window", ""] + partials.fig8_parts_table(rows)
    out += ["", "Fig. 9: direct against stepwise return, measured and modelled", ""] + fig9(f)
    out += ["", "Remapping against copying (not in the paper)", ""] + data_table(f)
    return "\n".join(out).rstrip() + "\n"


def run_benches(root: Path) -> None:
    """The three runs the tables read, in sequence."""
    hako = str(root / "hako")
    # Their tables go to stderr: stdout is for the Markdown.
    subprocess.run([hako, "bench", "ispc", "--quiet"], cwd=root, check=True, stdout=sys.stderr)
    for profile in PROFILES:
        subprocess.run([hako, "bench", "ispc", "--quiet", "--model", profile], cwd=root,
                       check=True, stdout=sys.stderr)
        shutil.copyfile(root / "results/bench-ispc.joined.jsonl",
                        root / f"results/bench-ispc-{profile}.joined.jsonl")


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="hako paper 002 tables",
                                     description=__doc__.split("\n\n")[0])
    parser.add_argument("--run", action="store_true", help="run the three benches first")
    parser.add_argument("--icount", type=Path, default=ROOT / "results/bench-ispc.jsonl")
    parser.add_argument("joined", nargs="*", type=Path)
    args = parser.parse_args(argv)
    if args.run:
        run_benches(ROOT)
    joined = args.joined or joins(args.icount)
    if not args.icount.is_file():
        print(f"paper 002 tables: no {args.icount}; run with --run", file=sys.stderr)
        return 1
    figures = Figures(load(args.icount), [load(p) for p in joined])
    sys.stdout.write(render(figures))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
