"""results/history.jsonl: every report run's figures by commit (`./hako history`).

`./hako report` (after running the experiments, not with --no-run)
appends one JSON line:

    {"commit": "<40 hex>", "dirty": false, "date": "2026-11-24T22:06:48Z",
     "figures": {"ispc/sync_roundtrip_4k_fast.median": 2538, ...}}

`commit` is HEAD when the report ran and `dirty` says whether tracked
files differed from it when the run began (history.jsonl itself aside: the
run rewrites the committed result files and docs/report/); `date` is the run's
UTC time.  A figure's name is stable across runs: the result file it came
from without `bench-` and `.jsonl`/`.joined.jsonl` ("ispc-modern"), then
what identifies the record within it (a bench's or kperf's name and case,
an iotest cell's table/dev/mode/policy/k/wait/loops/rep as key=value, ...),
then "." and the field: "median" for bench lines, and "cycles" (the cost
model's cycles per operation) for every line that has a model join.

The file is kept in git (.gitignore lets it through; .gitattributes merges
it with git's union driver, so branches that each appended keep both
lines): a fresh clone then shows how the figures moved, which is the point
of a history, and one line is a few tens of KiB.

`./hako history NAME` prints the figure across the runs; `./hako history`
lists the names of the last run.
"""
from __future__ import annotations

import datetime
import json
import subprocess
from pathlib import Path

HISTORY = "results/history.jsonl"

# The result files the report reads, in the report's order (report.py).
SOURCES = (
    "bench-intr.jsonl",
    "bench-ispc.jsonl",
    "bench-ispc-modern.joined.jsonl",
    "bench-ispc-p4.joined.jsonl",
    "bench-mp.jsonl",
    "bench-drvproc-kernel-p4.joined.jsonl",
    "bench-drvproc-process-p4.joined.jsonl",
    "bench-drvproc-switch-p4.joined.jsonl",
    "bench-faults.jsonl",
    "kperf-machine-pentium166.joined.jsonl",
    "kperf-machine-pentium200-fpm.joined.jsonl",
    "kperf-machine-pentium200-edo.joined.jsonl",
    "kperf-machine-pentiumpro200.joined.jsonl",
    "bench-kperf.joined.jsonl",
    "bench-preempt-before.joined.jsonl|bench-preempt-before.jsonl",
    "bench-preempt-after.joined.jsonl|bench-preempt-after.jsonl",
    "bench-isoch-calls.jsonl",
    *(f"kperf-copy-{p}{l2}.joined.jsonl" for p in ("pentium166", "pentium200-fpm",
                                                    "pentium200-edo", "pentiumpro200")
      for l2 in ("", "-l2off")),
    *(f"bench-preempt-pcs.{p}.joined.jsonl"
      for p in ("pentium200-fpm", "pentium200-edo", "pentiumpro200")),
    *(f"bench-isoch-calls.{p}.joined.jsonl"
      for p in ("pentium166", "pentium200-fpm", "pentium200-edo", "pentiumpro200")),
    "bench-isoch-calls-table.jsonl",
    *(f"bench-isoch-calls-table.{p}.joined.jsonl"
      for p in ("pentium166", "pentium200-fpm", "pentium200-edo", "pentiumpro200")),
    "bench-tlbstep.joined.jsonl",
    # The peer sitting's files, joined to the cost model when it rode along
    # (`./hako bench peer --model`): "A|B" reads the first that exists.
    "bench-peer-hako-sys.joined.jsonl|bench-peer-hako-sys.jsonl",
    "bench-peer-hako-ispc.joined.jsonl|bench-peer-hako-ispc.jsonl",
    "bench-peer-linux-default.joined.jsonl|bench-peer-linux-default.jsonl",
    "bench-peer-linux-mitigations-off.jsonl",
    "bench-peer-linux-no-erms.jsonl",
)

# kind -> (fields that identify a record, fields that are its figures).
# Kinds not listed: the string fields identify, the integer fields are figures.
KINDS = {
    "bench": (("name",), ("median",)),
    "kperf": (("name", "case"), ("min", "mean", "max")),
    "kperf-copy": (("bytes", "case"), ("min", "mean", "max")),
    "iotest": (("table", "dev", "mode", "policy", "k", "wait", "loops", "rep"), ("elapsed_ns",)),
    "iotest_calib": (("wait",), ("ns",)),
    "tlbstep": (("pages", "pass"), ("ticks",)),
    "intr-total": (("n",), ("seq_measured", "seq_model", "packed_measured", "packed_model",
                            "saving_permille")),
    "intr-delay": (("mode", "n", "t_ns"), ("measured", "model")),
    "intr-interference": (("mode", "k"), ("loops",)),
    "preempt": (("case", "ctx", "cpu"), ("max", "wait")),
    "section": (("ctx", "epoch", "vcpu"), ("insns", "cycles")),
}
# Never figures: what a boot looked like, and bookkeeping.
SKIP_KINDS = ("boot", "bench-target", "peer-linux", "peer-info", "peer-vuln", "peer-done")
NOT_FIGURES = ("region", "iters", "n", "unit", "note", "nr")


def stem(filename: str) -> str:
    """bench-ispc-modern.joined.jsonl -> ispc-modern."""
    name = filename.removesuffix(".jsonl").removesuffix(".joined")
    return name.removeprefix("bench-")


def record_figures(source: str, record: dict) -> dict[str, int | float]:
    """The named figures of one result line (none for bookkeeping lines)."""
    kind = record.get("kind")
    if not isinstance(kind, str) or kind in SKIP_KINDS:
        return {}
    if kind in KINDS:
        ids, values = KINDS[kind]
    else:
        ids = tuple(k for k, v in record.items()
                    if isinstance(v, str) and k not in ("kind",) + NOT_FIGURES)
        values = tuple(k for k, v in record.items()
                       if isinstance(v, int) and not isinstance(v, bool) and k not in NOT_FIGURES)
    if kind in ("bench", "kperf"):
        parts = [str(record.get(k, "")) for k in ids]
    else:
        parts = [kind] + [f"{k}={record[k]}" for k in ids if k in record]
    base = f"{source}/" + "/".join(parts)
    out: dict[str, int | float] = {}
    for field in values:
        value = record.get(field)
        if isinstance(value, (int, float)) and not isinstance(value, bool):
            out[f"{base}.{field}"] = value
    model = record.get("model")
    if isinstance(model, dict):
        cycles = (model.get("per_iter") or {}).get("cycles")
        if isinstance(cycles, (int, float)):
            out[f"{base}.cycles"] = cycles
    return out


def collect(results: Path, sources=SOURCES) -> dict[str, int | float]:
    """Every figure of the report's result files that exist, by name."""
    from .results import load_records
    figures: dict[str, int | float] = {}
    for source in sources:
        filename = next((f for f in source.split("|") if (results / f).is_file()), None)
        if filename is None:
            continue
        for record in load_records(results / filename):
            figures.update(record_figures(stem(filename), record))
    return figures


def git(root: Path, *args: str) -> str:
    try:
        proc = subprocess.run(["git", *args], cwd=root, capture_output=True, text=True)
    except OSError:
        return ""
    return proc.stdout.strip() if proc.returncode == 0 else ""


# What runs write: a run changes these tracked files, and only these, so a
# change there does not make the tree it ran from dirty.
OUTPUTS = ("results/", "docs/report/")


def commit_state(root: Path) -> tuple[str, bool]:
    """(HEAD's commit id or "unknown", whether tracked files other than the runs'
    outputs (OUTPUTS: result files, the generated report) differ from it)."""
    commit = git(root, "rev-parse", "HEAD") or "unknown"
    changed = git(root, "diff", "--name-only", "HEAD").splitlines()
    return commit, any(not path.startswith(OUTPUTS) for path in changed)


def entry(figures: dict, commit: str, dirty: bool, when: datetime.datetime) -> dict:
    return {"commit": commit, "dirty": dirty,
            "date": when.astimezone(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"),
            "figures": dict(sorted(figures.items()))}


def append(root: Path, now: datetime.datetime | None = None,
           state: tuple[str, bool] | None = None) -> tuple[Path, int]:
    """Append this run's figures to results/history.jsonl; (path, figures written).
    STATE: commit_state() taken before the run; now, without it."""
    figures = collect(root / "results")
    commit, dirty = commit_state(root) if state is None else state
    now = datetime.datetime.now(datetime.timezone.utc) if now is None else now
    path = root / HISTORY
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "a", encoding="utf-8") as fh:
        fh.write(json.dumps(entry(figures, commit, dirty, now), separators=(",", ":")) + "\n")
    return path, len(figures)


def load(path: Path) -> list[dict]:
    """The history's entries, oldest first (lines that are not entries are skipped)."""
    if not path.is_file():
        return []
    entries = []
    for line in path.read_text(encoding="utf-8").splitlines():
        try:
            value = json.loads(line)
        except ValueError:
            continue
        if isinstance(value, dict) and isinstance(value.get("figures"), dict):
            entries.append(value)
    return entries


def fmt(value) -> str:
    if isinstance(value, float):
        return f"{value:,.1f}"
    return f"{value:,}"


def change(old, new) -> str:
    if old is None:
        return ""
    if new == old:
        return "="
    delta = new - old
    pct = f" ({100 * delta / old:+.1f} %)" if old else ""
    return (f"{delta:+,.1f}" if isinstance(delta, float) else f"{delta:+,}") + pct


def render_figure(entries: list[dict], name: str) -> str:
    """The figure NAME across the runs: date, commit, value, change from the run before."""
    lines = [f"{name}", f"  {'date':<20} {'commit':<13} {'value':>14}  change"]
    previous = None
    for e in entries:
        if name not in e["figures"]:
            continue
        value = e["figures"][name]
        commit = str(e.get("commit", "?"))[:12] + ("+" if e.get("dirty") else "")
        lines.append(f"  {e.get('date', '?'):<20} {commit:<13} {fmt(value):>14}  "
                     f"{change(previous, value)}".rstrip())
        previous = value
    if len(lines) == 2:
        lines.append("  (not in any run)")
    lines.append("  (+: the tree had uncommitted changes to tracked files)")
    return "\n".join(lines) + "\n"


def names(entries: list[dict]) -> list[str]:
    """The names of the last run's figures (then older ones no longer reported)."""
    if not entries:
        return []
    last = list(entries[-1]["figures"])
    older = sorted({n for e in entries[:-1] for n in e["figures"]} - set(last))
    return last + older


def show(root: Path, name: str | None, out) -> int:
    """`./hako history [NAME]`; returns the exit code."""
    path = root / HISTORY
    entries = load(path)
    if not entries:
        out.write(f"history: no runs yet in {HISTORY}; `./hako report` appends one per run\n")
        return 0 if name is None else 1
    known = names(entries)
    if name is None:
        out.write(f"history: {len(entries)} runs in {HISTORY}, {len(known)} figures; "
                  "`./hako history NAME` shows one\n")
        out.write("".join(f"{n}\n" for n in known))
        return 0
    if name in known:
        out.write(render_figure(entries, name))
        return 0
    matches = [n for n in known if name in n]
    if len(matches) == 1:
        out.write(render_figure(entries, matches[0]))
        return 0
    if not matches:
        out.write(f"history: no figure named {name!r} (`./hako history` lists them)\n")
        return 1
    out.write(f"history: {len(matches)} figures contain {name!r}; name one:\n")
    out.write("".join(f"  {n}\n" for n in matches[:50]))
    if len(matches) > 50:
        out.write(f"  ... and {len(matches) - 50} more\n")
    return 1
