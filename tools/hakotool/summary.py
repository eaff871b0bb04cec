"""Human-readable summary of a results .jsonl file (`./hako summary`).

Understood record kinds:
  meta           - the harness's header of the file (results.py): one line
                   naming commit, date, QEMU, mode, machine and command; it
                   also names the unit of "tsc" figures for the run's mode
  boot           - printed as an aligned "key: value" block
  ktest          - tallied (passed/failed/skipped, failing and skipped names listed)
  ktest-summary  - "passed"/"failed"/"skipped" counts reported by the guest
  utest, utest-summary - the same for the user-space selftest
  bench          - aligned table of name, unit, n, min, median, mean, max;
                   records joined to the cost model (a "model" object, see
                   model.py) add its figures per iteration
  tlbstep        - pages, pass and instructions per page (kernel/measure/
                   tlbstep.c), with the modelled misses and cycles per page
  kperf          - user/kperf (paper 004): per system call, best and worst
                   case (mean and min-max of the runs), with the modelled
                   cycles and misses per call; or why a call is not timed
  isoch_hist     - user/isochbench (paper 004): release latency per CPU
                   under one load, printed like cyclictest's histogram
  preempt, section - paper 004's preemption-off table (papers/p004/preempt.py)
Records of any other kind get a generic table each: their scalar fields as
columns (the first OTHER_COLUMNS), the first OTHER_ROWS records as rows.

render_short is the few lines per run that end `make run` (`./hako summary
--short FILE...`): each run's test tally and failures, or its first figures,
and where the whole of each is.
"""
from __future__ import annotations

import json

from .results import skip_reason, verdict

BENCH_COLUMNS = ("name", "unit", "n", "min", "median", "mean", "max")
NUMERIC_COLUMNS = frozenset(("n", "min", "median", "mean", "max"))
# Modelled columns: (header, the plugin's counter, decimals), per iteration.
MODEL_COLUMNS = (("m.insns", "insns", 1), ("cycles", "cycles", 1),
                 ("itlb", "itlb_miss", 3), ("dtlb", "dtlb_miss", 3), ("stlb", "stlb_miss", 3),
                 ("l1i", "l1i_miss", 3), ("l1d", "l1d_miss", 3), ("l2", "l2_miss", 3),
                 ("l3", "l3_miss", 3))
TLBSTEP_MODEL = (("cycles", "cycles", 1), ("dtlb", "dtlb_miss", 3), ("stlb", "stlb_miss", 3),
                 ("walk", "walk_cycles", 1), ("l1d", "l1d_miss", 3), ("l2", "l2_miss", 3),
                 ("l3", "l3_miss", 3))


def format_value(value) -> str:
    """Compact text for a JSON value (floats get 6 significant digits)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, float):
        return f"{value:.6g}"
    if value is None:
        return "-"
    if isinstance(value, (list, dict)):
        return json.dumps(value, separators=(",", ":"))
    return str(value)


def of_kind(records, kind: str) -> list[dict]:
    """Records whose "kind" equals `kind`."""
    return [r for r in records if r.get("kind") == kind]


def render_keyvalues(record: dict, title: str) -> list[str]:
    """One aligned "key: value" block, skipping the kind field."""
    items = [(k, format_value(v)) for k, v in record.items() if k != "kind"]
    if not items:
        return [title]
    width = max(len(key) for key, _ in items) + 1
    return [title] + [f"  {key + ':':<{width}} {value}" for key, value in items]


def render_boot(records) -> list[str]:
    lines: list[str] = []
    for record in of_kind(records, "boot"):
        lines += render_keyvalues(record, "boot")
    return lines


def render_tests(records, kind: str, label: str) -> list[str]:
    """Tally of individual test records of `kind` plus the guest's own summary."""
    lines: list[str] = []
    tests = of_kind(records, kind)
    if tests:
        by = {"pass": [], "fail": [], "skip": []}
        for t in tests:
            by[verdict(t)].append(t)
        lines.append(f"{label}: {len(by['pass'])} passed, {len(by['fail'])} failed, "
                     f"{len(by['skip'])} skipped")
        lines += [f"  FAIL {format_value(t.get('name'))}" for t in by["fail"]]
        lines += [f"  SKIP {format_value(t.get('name'))}: {skip_reason(t)}"
                  for t in by["skip"]]
    for summary in of_kind(records, f"{kind}-summary"):
        counts = [f"{format_value(summary.get('passed'))} passed",
                  f"{format_value(summary.get('failed'))} failed"]
        if "skipped" in summary:
            counts.append(f"{format_value(summary['skipped'])} skipped")
        lines.append(f"{kind} summary: " + ", ".join(counts))
    return lines


def render_ktests(records) -> list[str]:
    """Kernel self-tests (kind ktest) and user-space selftest (kind utest)."""
    return render_tests(records, "ktest", "ktests") + render_tests(records, "utest", "selftest")


def render_table(header, rows, numeric=frozenset()) -> list[str]:
    """Aligned text table; numeric columns are right-aligned."""
    widths = [len(h) for h in header]
    for row in rows:
        widths = [max(w, len(cell)) for w, cell in zip(widths, row)]

    def fmt(row):
        cells = [cell.rjust(w) if h in numeric else cell.ljust(w)
                 for h, w, cell in zip(header, widths, row)]
        return "  ".join(cells).rstrip()

    rule = "  ".join("-" * w for w in widths)
    return [fmt(header), rule] + [fmt(row) for row in rows]


def unit_name(unit, meta: dict | None) -> str:
    """A guest's unit as the run's mode makes it: "tsc" under icount counts instructions."""
    if unit == "tsc" and meta and meta.get("tsc_unit"):
        return str(meta["tsc_unit"])
    return format_value(unit)


def bench_rows(records, meta: dict | None = None) -> list[list[str]]:
    """Table cells for each bench record (missing fields shown as "-")."""
    return [[unit_name(r.get(col), meta) if col == "unit" else format_value(r.get(col))
             for col in BENCH_COLUMNS]
            for r in of_kind(records, "bench")]


def render_meta(meta: dict | None) -> list[str]:
    """One line saying where the figures come from."""
    if not meta:
        return []
    commit = str(meta.get("commit", "unknown"))[:12] + (" (dirty)" if meta.get("dirty") else "")
    model = f", cost model {meta['profile']}" if meta.get("profile") else ""
    return [f"run: {meta.get('command', '?')} — commit {commit}, {meta.get('date', '?')}, "
            f"QEMU {meta.get('qemu', '?')}, {meta.get('mode', '?')}{model}, "
            f"{meta.get('machine', '?')}, {meta.get('cpus', '?')} CPUs, {meta.get('mem', '?')}; "
            f"tsc figures are {meta.get('tsc_unit', 'TSC ticks')}"]


def model_profile(records) -> str | None:
    """The cost-model profile the records were joined to, or None."""
    for record in records:
        model = record.get("model")
        if isinstance(model, dict):
            return str(model.get("profile", ""))
    return None


def model_cells(record: dict, columns) -> list[str]:
    """A record's modelled figures per iteration ("-" without them)."""
    per_iter = (record.get("model") or {}).get("per_iter") or {}
    cells = []
    for _, counter, decimals in columns:
        value = per_iter.get(counter)
        cells.append("-" if value is None else f"{value:.{decimals}f}")
    return cells


def model_title(profile: str, per: str) -> str:
    return (f"modelled by cost-model profile {profile}: per {per}, summed over vCPUs "
            "(m.insns: the region's instructions; itlb..l3: misses)")


def render_bench(records, meta: dict | None = None) -> list[str]:
    rows = bench_rows(records, meta)
    if not rows:
        return []
    profile = model_profile(records)
    if profile is None:
        return render_table(BENCH_COLUMNS, rows, NUMERIC_COLUMNS)
    header = BENCH_COLUMNS + tuple(c[0] for c in MODEL_COLUMNS)
    rows = [row + model_cells(r, MODEL_COLUMNS)
            for row, r in zip(rows, of_kind(records, "bench"))]
    numeric = NUMERIC_COLUMNS | {c[0] for c in MODEL_COLUMNS}
    return [model_title(profile, "iteration of each figure")] + render_table(header, rows, numeric)


def render_tlbstep(records) -> list[str]:
    """Pages, pass, instructions per page, and the model's figures per page."""
    steps = of_kind(records, "tlbstep")
    if not steps:
        return []
    profile = model_profile(records)
    header = ("pages", "pass", "insns")
    rows = []
    for r in steps:
        iters = r.get("iters") or 0
        ticks = r.get("ticks")
        insns = f"{ticks / iters:.1f}" if iters and isinstance(ticks, int) else "-"
        rows.append([format_value(r.get("pages")), format_value(r.get("pass")), insns])
    if profile is None:
        return (["tlbstep: instructions per page (no --model)"]
                + render_table(header, rows, {"pages", "insns"}))
    header += tuple(c[0] for c in TLBSTEP_MODEL)
    rows = [row + model_cells(r, TLBSTEP_MODEL) for row, r in zip(rows, steps)]
    numeric = {"pages", "insns"} | {c[0] for c in TLBSTEP_MODEL}
    return [model_title(profile, "page")] + render_table(header, rows, numeric)


# kperf's modelled columns, per call: (header, case, the plugin's counter).
KPERF_MODEL = (("b.cycles", "best", "cycles"), ("w.cycles", "worst", "cycles"),
               ("w.itlb", "worst", "itlb_miss"), ("w.dtlb", "worst", "dtlb_miss"),
               ("w.l1i", "worst", "l1i_miss"), ("w.l1d", "worst", "l1d_miss"),
               ("w.l3", "worst", "l3_miss"))


def kperf_calls(records) -> list[tuple[int, str, dict]]:
    """(number, name, {case: record}) per call, in number order."""
    calls: dict[tuple[int, str], dict] = {}
    for r in of_kind(records, "kperf"):
        key = (r.get("nr", -1), str(r.get("name", "?")))
        calls.setdefault(key, {})[r.get("case")] = r
    return [(nr, name, cases) for (nr, name), cases in sorted(calls.items())]


def kperf_case(record: dict | None) -> str:
    """"mean (min-max)" instructions of one case, or "-"."""
    if not record or record.get("timed") is False or "mean" not in record:
        return "-"
    lo, hi = record.get("min"), record.get("max")
    return f"{record['mean']} ({lo}-{hi})" if lo != hi else str(record["mean"])


def kperf_model_cells(cases: dict) -> list[str]:
    """The modelled columns of one kperf row (KPERF_MODEL), from its best and worst records."""
    cells = []
    for _, case, counter in KPERF_MODEL:
        per_iter = ((cases.get(case) or {}).get("model") or {}).get("per_iter") or {}
        value = per_iter.get(counter)
        cells.append("-" if value is None else
                     f"{value:.0f}" if counter == "cycles" else f"{value:.1f}")
    return cells


def kperf_model_title(profile: str) -> str:
    return (f"modelled by cost-model profile {profile}: cycles per call, "
            "b. best case, w. worst case (misses per call)")


def render_kperf(records) -> list[str]:
    """Paper 004's table: every call, best and worst case."""
    calls = kperf_calls(records)
    if not calls:
        return []
    profile = model_profile(records)
    header = ("nr", "call", "best", "worst")
    if profile is not None:
        header += tuple(c[0] for c in KPERF_MODEL)
    rows, untimed = [], []
    for nr, name, cases in calls:
        best = cases.get("best")
        if best and best.get("timed") is False:
            untimed.append(f"  {name}: not timed: {best.get('why', '')}")
            continue
        row = [str(nr), name, kperf_case(best), kperf_case(cases.get("worst"))]
        if profile is not None:
            row += kperf_model_cells(cases)
        rows.append(row)
    title = ("kperf: per call, mean (min-max) of the runs in TSC ticks = guest instructions "
             "under icount; worst = caches and TLB purged first")
    if profile is not None:
        title += "\n" + kperf_model_title(profile)
    numeric = set(header) - {"call"}
    return [title] + render_table(header, rows, numeric) + untimed


def render_kperf_internal(records) -> list[str]:
    """The kernel-internal interfaces (kernel/measure/kinternal.c), timed
    in the kernel the kperf way: the same columns as the call table."""
    ifaces: dict[tuple[int, str], dict] = {}
    for r in of_kind(records, "kperf-internal"):
        ifaces.setdefault((r.get("index", -1), str(r.get("name", "?"))), {})[r.get("case")] = r
    if not ifaces:
        return []
    profile = model_profile(records)
    header = ("#", "interface", "best", "worst")
    if profile is not None:
        header += tuple(c[0] for c in KPERF_MODEL)
    rows, notes = [], []
    for (index, name), cases in sorted(ifaces.items()):
        row = [str(index), name, kperf_case(cases.get("best")), kperf_case(cases.get("worst"))]
        if profile is not None:
            row += kperf_model_cells(cases)
        rows.append(row)
        note = (cases.get("best") or {}).get("note")
        if note:
            notes.append(f"  {name}: {note}")
    title = ("kperf: kernel-internal interfaces, timed in the kernel with interrupts off, "
             "mean (min-max) of the runs in TSC ticks; worst = caches and TLB purged first")
    if profile is not None:
        title += "\n" + kperf_model_title(profile)
    numeric = set(header) - {"interface"}
    return [title] + render_table(header, rows, numeric) + notes


def render_isoch_hist(records) -> list[str]:
    """One cyclictest-style histogram per load: a row per non-empty bucket
    (its lower edge in us), a column per CPU, then the totals."""
    out: list[str] = []
    loads: dict[str, list[dict]] = {}
    for r in of_kind(records, "isoch_hist"):
        loads.setdefault(str(r.get("load")), []).append(r)
    for load, rows in loads.items():
        rows.sort(key=lambda r: r.get("cpu", 0))
        width = rows[0].get("bucket_ns", 1000)
        hists = [r.get("hist") or [] for r in rows]
        nb = max((len(h) for h in hists), default=0)
        out.append(f"isoch release latency, {load}: {width} ns buckets, a column per CPU "
                   "(TSC ticks = guest instructions = ns under icount)")
        out.append("# Histogram")
        for b in range(nb):
            counts = [h[b] if b < len(h) else 0 for h in hists]
            if any(counts):
                last = "  (and over)" if b == nb - 1 else ""
                out.append(f"{b * width // 1000:06d} " + " ".join(f"{c:06d}" for c in counts) + last)
        for title, key in (("Total:", "lat_count"), ("Min Latencies:", "lat_min_ns"),
                           ("Avg Latencies:", "lat_mean_ns"), ("Max Latencies:", "lat_max_ns"),
                           ("Missed releases:", "missed"), ("Overruns:", "overruns")):
            unit = "  (ns)" if key.endswith("_ns") else ""
            out.append(f"# {title:<17}" + "".join(f" {int(r.get(key) or 0):06d}" for r in rows) + unit)
        out.append("")
    return out[:-1] if out else out


# The kinds the renderers above know; every other kind gets render_other.
RENDERED_KINDS = frozenset(("meta", "boot", "ktest", "ktest-summary", "utest", "utest-summary", "bench",
                            "tlbstep", "kperf", "kperf-internal", "isoch_hist", "preempt",
                            "section"))
OTHER_COLUMNS = 10
OTHER_ROWS = 20


def render_other(records) -> list[str]:
    """A table per kind no renderer knows (iotest, faults, ...), in order of appearance."""
    kinds: dict[str, list[dict]] = {}
    for r in records:
        kind = r.get("kind")
        if isinstance(kind, str) and kind not in RENDERED_KINDS:
            kinds.setdefault(kind, []).append(r)
    out: list[str] = []
    for kind, rows in kinds.items():
        columns: list[str] = []
        for r in rows:
            columns += [k for k, v in r.items() if k != "kind" and k not in columns
                        and not isinstance(v, (list, dict))]
        shown = columns[:OTHER_COLUMNS]
        more = f", {len(columns) - len(shown)} more fields" if len(columns) > len(shown) else ""
        out.append(f"{kind}: {len(rows)} record{'s' if len(rows) != 1 else ''}{more}")
        numeric = frozenset(c for c in shown if all(isinstance(r.get(c), (int, float))
                                                     and not isinstance(r.get(c), bool)
                                                     for r in rows if c in r))
        out += render_table(shown, [[format_value(r.get(c)) for c in shown]
                                    for r in rows[:OTHER_ROWS]], numeric)
        if len(rows) > OTHER_ROWS:
            out.append(f"... {len(rows) - OTHER_ROWS} more")
        out.append("")
    return out[:-1]


def render_preempt(records) -> list[str]:
    """Paper 004's preemption-off table (papers/p004/preempt.py)."""
    from .papers.p004.preempt import render_preempt as render
    return render(records)


def render_summary(records, meta: dict | None = None) -> str:
    """The whole summary text (sections separated by blank lines)."""
    sections = [render_meta(meta), render_boot(records), render_ktests(records),
                render_bench(records, meta),
                render_tlbstep(records), render_kperf(records), render_kperf_internal(records),
                render_isoch_hist(records), render_preempt(records), render_other(records)]
    blocks = ["\n".join(section) for section in sections if section]
    if not blocks:
        return "no result records\n"
    return "\n\n".join(blocks) + "\n"


def render_bench_only(records, meta: dict | None = None) -> str:
    """Just the bench and tlbstep tables (used by `./hako bench`)."""
    blocks = ["\n".join(b) for b in (render_bench(records, meta), render_tlbstep(records),
                                      render_kperf(records), render_kperf_internal(records),
                                      render_isoch_hist(records),
                                      render_preempt(records)) if b]
    return "\n\n".join(blocks) + "\n" if blocks else "no bench records\n"


SHORT_ROWS = 6           # figures of one run in the short summary
SHORT_FAILS = 5          # failing tests of one run named in it
SHORT_LINES = 40         # what the whole short summary may take


def short_tests(name: str, records) -> list[str]:
    """A run's tests in a line, then up to SHORT_FAILS failing ones."""
    lines = []
    for kind, label in (("ktest", "kernel self-tests"), ("utest", "user-space tests")):
        tests = of_kind(records, kind)
        if not tests:
            continue
        by = {"pass": [], "fail": [], "skip": []}
        for test in tests:
            by[verdict(test)].append(test)
        lines.append(f"{name}: {label}: {len(by['pass'])} passed, {len(by['fail'])} failed, "
                     f"{len(by['skip'])} skipped")
        lines += [f"  FAIL {format_value(t.get('name'))}" for t in by["fail"][:SHORT_FAILS]]
        if len(by["fail"]) > SHORT_FAILS:
            lines.append(f"  ... {len(by['fail']) - SHORT_FAILS} more failed")
    return lines


def short_figures(name: str, records, meta: dict | None) -> list[str]:
    """A run's first SHORT_ROWS figures (median, unit) under a line naming it."""
    benches = of_kind(records, "bench")
    if not benches:
        return []
    rows = [[format_value(r.get("name")), format_value(r.get("median")),
             unit_name(r.get("unit"), meta)] for r in benches[:SHORT_ROWS]]
    table = render_table(("figure", "median", "unit"), rows, frozenset(("median",)))
    lines = [f"{name}: {len(benches)} figure" + ("" if len(benches) == 1 else "s")] + ["  " + line for line in table[2:]]
    if len(benches) > SHORT_ROWS:
        lines.append(f"  ... {len(benches) - SHORT_ROWS} more")
    return lines


def render_short(runs, tail: str = "") -> str:
    """`make run`'s closing summary, at most SHORT_LINES lines.

    RUNS: (name, path, records, meta) of each run; TAIL: lines to end with
    (the report's status).  Each run gets its tests' tally or its first
    figures; the last line says where the whole of each run is."""
    lines = []
    for name, _, records, meta in runs:
        lines += (short_tests(name, records) + short_figures(name, records, meta)
                  or [f"{name}: {len(records)} records"])
    lines += tail.splitlines()
    paths = ", ".join(str(path) for _, path, _, _ in runs)
    pointer = [f"the whole of each run (boot, skipped tests, every figure): ./hako summary FILE "
               f"({paths}); serial logs of failed boots: results/logs/"]
    room = SHORT_LINES - len(pointer)
    if len(lines) > room:
        lines = lines[:room - 1] + [f"... {len(lines) - room + 1} lines more in the files"]
    return "\n".join(lines + pointer) + "\n"
