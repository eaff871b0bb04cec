"""Modelled cycles: the cost-model plugin beside a boot, and the join.

`--model PROFILE` loads tools/costmodel/'s QEMU plugin
(build/costmodel/libcostmodel.so, built by `make costmodel`) with the
profile tools/costmodel/profiles/PROFILE.profile.  At exit the plugin
writes results/NAME.model.jsonl: a "profile" line, a "vcpu" line per vCPU
and a "region" line per (region, vCPU) that was active, with that region's
instructions, cycles and TLB/cache misses on that vCPU; with irqtrace=on
also a "section" line per (kind, context, vCPU): the longest
preemption-off section in that vCPU's own instructions
(tools/costmodel/sections.h), which join_records appends to the records,
each site also named with the symbols of the kernel that ran.

The guest marks regions (kernel/uapi/hako_region.h) and names one
in a result line with "region":ID and "iters":N, N being how many of the
figure's operations the region covered.  `join_records` gives each such
line a "model" object: the region's totals summed over vCPUs, and those
totals divided by N ("per_iter").  Summing over vCPUs is right for a
region on one CPU (only that vCPU has spans) and for a global region
(every vCPU's work between the markers belongs to the figure, as it does
to an icount TSC difference).  The joined lines go to
results/NAME.joined.jsonl; results/NAME.jsonl stays the guest's text.
"""
from __future__ import annotations

import json
import re
import subprocess
from pathlib import Path

from . import ksyms

PLUGIN = "build/costmodel/libcostmodel.so"
# Each profile's clock in MHz (from its header; the profiles themselves
# model cycles only): for figures in time at a stated clock.
CLOCK_MHZ = {"pentium166": 166, "pentium200-fpm": 200, "pentium200-edo": 200,
             "pentiumpro200": 200, "pentium2-450": 450, "p4": 2800, "modern": 4000,
             "sh7751r": 240}
PROFILES_DIR = "tools/costmodel/profiles"
PROFILE_SUFFIX = ".profile"
MODEL_SUFFIX = ".model.jsonl"
JOINED_SUFFIX = ".joined.jsonl"
# The plugin's per-region counters, in the order tables show them.
COUNTERS = ("insns", "cycles", "itlb_miss", "dtlb_miss", "stlb_miss", "walk_cycles",
            "l1i_miss", "l1d_miss", "l2_miss", "l3_miss", "stream_miss", "wb", "mem_cycles", "io_reads",
            "io_writes", "io_cycles", "l1i_cycles", "paired", "handler_insns", "handler_paired",
            "handler_cycles", "handler_l1i_cycles", "handler_mem_cycles")
PER_ITER_DIGITS = 3


# A model name is PROFILE or PROFILE:OPTION; each option is a plugin
# argument (tools/costmodel/README.md).  l2off: the L2 cache switched off,
# as paper 004 did in its BIOS for Fig. 2; the plugin names the profile
# PROFILE:l2off in its output.
MODEL_OPTIONS = {"l2off": "l2=off"}


# Several models in one boot: "A+B+C" loads one copy of the plugin per
# model (QEMU opens a plugin file once per path, and the plugin's state is
# its file's globals), each with its own output.  The guest runs once; every
# model sees the same instructions and accesses.  The first model's output
# is the run's (results/NAME.model.jsonl, NAME.joined.jsonl); every model's
# is also results/NAME.TAG.model.jsonl and NAME.TAG.joined.jsonl, TAG the
# model name with ":" as "-" (model_tag).
MODEL_SEPARATOR = "+"


def models_of(name: str) -> list[str]:
    """The models of a --model argument, "A" or "A+B+...", in order."""
    return [m for m in name.split(MODEL_SEPARATOR) if m]


def model_tag(model: str) -> str:
    """A model name as a file name part: "pentiumpro200:l2off" -> "pentiumpro200-l2off"."""
    return model.replace(":", "-")


def plugin_file(index: int) -> str:
    """The plugin file the INDEX-th model of a boot loads (0: the built one)."""
    return PLUGIN if index == 0 else PLUGIN.replace(".so", f"-{index}.so")


def copy_plugins(root: Path, count: int) -> None:
    """Copies of the built plugin for the 2nd..COUNT-th model of a boot."""
    built = (root / PLUGIN).read_bytes()
    for i in range(1, count):
        target = root / plugin_file(i)
        if not target.is_file() or target.read_bytes() != built:
            target.write_bytes(built)


def model_out_of(out_rel: str, model: str) -> str:
    """Where one model of a multi-model boot writes, beside OUT_REL."""
    return out_rel.removesuffix(MODEL_SUFFIX) + f".{model_tag(model)}{MODEL_SUFFIX}"


def split_model(name: str) -> tuple[str, tuple[str, ...]]:
    """(profile, options) of a model name "PROFILE[:OPTION...]"."""
    profile, *options = name.split(":")
    return profile, tuple(options)


def clock_mhz(name: str) -> float | None:
    """The clock of a model name's machine (an option keeps the clock), or None."""
    return CLOCK_MHZ.get(split_model(name)[0])


def profile_rel(name: str) -> str:
    """The profile file of model NAME (options dropped), relative to the repo root."""
    return f"{PROFILES_DIR}/{split_model(name)[0]}{PROFILE_SUFFIX}"


def model_rel(run_name: str) -> str:
    """Where the plugin writes its lines for a run, relative to the root."""
    return f"results/{run_name}{MODEL_SUFFIX}"


def joined_path(root: Path, run_name: str, model: str = "") -> Path:
    """The joined records of a run; MODEL: of that model of a multi-model boot."""
    tag = f".{model_tag(model)}" if model else ""
    return root / "results" / f"{run_name}{tag}{JOINED_SUFFIX}"


def plugin_args(profile_name: str, out_rel: str, extra: tuple[str, ...] = ()) -> list[str]:
    """The QEMU arguments that load the plugin for model PROFILE_NAME (its
    options as plugin arguments; EXTRA: more of its arguments); one plugin
    copy per model of "A+B+..." (models_of), the first writing OUT_REL, the
    others model_out_of(OUT_REL, model)."""
    argv = []
    models = models_of(profile_name)
    for i, model in enumerate(models):
        options = tuple(MODEL_OPTIONS[o] for o in split_model(model)[1])
        out = out_rel if i == 0 else model_out_of(out_rel, model)
        argv += ["-plugin", ",".join((f"{plugin_file(i)},profile={profile_rel(model)},out={out}",
                                      *options, *extra))]
    return argv


def epoch_addresses(root: Path, specs: tuple[tuple[str, str], ...]) -> tuple[dict[int, str], list[str]]:
    """The code addresses of SPECS, (ELF relative to ROOT, symbol) pairs, for
    the plugin's epoch=ADDR arguments: {address: symbol}, and the specs not
    found (no ELF, no such symbol)."""
    found, missing, tables = {}, [], {}
    for elf, symbol in specs:
        if elf not in tables:
            try:
                text = subprocess.run(["nm", "-n", str(root / elf)], capture_output=True,
                                      text=True, check=True).stdout
            except (OSError, subprocess.CalledProcessError):
                text = ""
            tables[elf] = {name: addr for addr, name in ksyms.parse_symbols(text)}
        addr = tables[elf].get(symbol)
        if addr is None:
            missing.append(f"{elf}:{symbol}")
        else:
            found[addr] = symbol
    return found, missing


def epoch_args(addresses: dict[int, str]) -> tuple[str, ...]:
    return tuple(f"epoch={addr:x}" for addr in sorted(addresses))


# The kernel's lock release function: the plugin reads the lock from rdi at
# its first instruction (release=ADDR), a happens-before edge of the
# virtual clocks (tools/costmodel/vclock.h) that costs the guest nothing.
RELEASE_SYMBOL = "spin_unlock"


def vclock_args(root: Path, elf: str) -> tuple[str, ...]:
    """The plugin's argument for its virtual clocks: release=ADDR for the
    kernel ELF (relative to ROOT); none if the ELF or the symbol is
    missing.  Its mhz=N stays at the default, the guest's TSC rate under
    icount: testdev's service time is set on the guest's own clock, as a
    share of a busy loop's time, and keeps that share in cycles too."""
    found, _ = epoch_addresses(root, ((elf, RELEASE_SYMBOL),))
    return tuple(f"release={addr:x}" for addr in sorted(found))


# The SH-4 kernel's TLB-miss handler (kernel/arch/sh4/vectors.S): its code
# from the entry at VBR + 0x400 up to the fault path it jumps to when the
# tables have no entry; the plugin counts its work apart (handler=START:END).
SH4_HANDLER_SYMBOLS = ("tlb_miss_entry", "tlb_fault")


def handler_args(root: Path, elf: str, symbols: tuple[str, str] = SH4_HANDLER_SYMBOLS) -> tuple[str, ...]:
    """The plugin's handler=START:END for the code between SYMBOLS in the ELF
    (relative to ROOT); none if the ELF or a symbol is missing."""
    found, missing = epoch_addresses(root, tuple((elf, s) for s in symbols))
    if missing:
        return ()
    by_name = {name: addr for addr, name in found.items()}
    start, end = (by_name[s] for s in symbols)
    return (f"handler={start:x}:{end:x}",) if start < end else ()


def known_profiles(root: Path) -> list[str]:
    directory = root / PROFILES_DIR
    if not directory.is_dir():
        return []
    return sorted(p.name[:-len(PROFILE_SUFFIX)] for p in directory.glob(f"*{PROFILE_SUFFIX}"))


def check_model(root: Path, name: str, mode: str) -> str | None:
    """Why `--model NAME` cannot run (mode, profile file, plugin), or None."""
    if mode != "icount":
        return (f"--model needs --mode icount (got {mode}): the plugin charges cycles per "
                "guest instruction and its regions must see the vCPUs take turns; without "
                "icount the vCPUs race and neither the TSC figures nor the model repeat")
    models = models_of(name)
    if not models or len(set(models)) != len(models):
        return f"--model {name!r}: one or more models, each once, joined by {MODEL_SEPARATOR!r}"
    for model in models:
        bad = [o for o in split_model(model)[1] if o not in MODEL_OPTIONS]
        if bad:
            return (f"unknown cost-model option {bad[0]!r} in {model!r}; options: "
                    + ", ".join(MODEL_OPTIONS))
        if not (root / profile_rel(model)).is_file():
            known = known_profiles(root)
            listed = ", ".join(known) if known else f"none: {PROFILES_DIR}/ has no *{PROFILE_SUFFIX}"
            return f"no cost-model profile {model!r} ({profile_rel(model)}); known profiles: {listed}"
    if not (root / PLUGIN).is_file():
        return f"the cost-model plugin is not built ({PLUGIN}); run `make costmodel`"
    return None


class ModelOutput:
    """The plugin's lines: profile name, vCPU lines, region lines by id."""

    def __init__(self, lines: list[dict]):
        self.profile = ""
        self.base_cpi_milli = 1000
        self.vcpus: list[dict] = []
        self.epochs: list[dict] = []      # epoch=ADDR: per epoch and vCPU (tools/costmodel/epochs.h)
        self.regions: dict[int, list[dict]] = {}
        self.sections: list[dict] = []    # irqtrace=on: longest section per context and vCPU
        for line in lines:
            kind = line.get("kind")
            if kind == "profile":
                self.profile = str(line.get("name", ""))
                self.base_cpi_milli = int(line.get("base_cpi_milli", 1000))
            elif kind == "vcpu":
                self.vcpus.append(line)
            elif kind == "region" and isinstance(line.get("region"), int):
                self.regions.setdefault(line["region"], []).append(line)
            elif kind == "section":
                self.sections.append(line)
            elif kind == "epoch":
                self.epochs.append(line)

    def region_totals(self, region: int) -> dict | None:
        """Counters of REGION summed over vCPUs, with spans and vCPU ids."""
        lines = self.regions.get(region)
        if not lines:
            return None
        totals = {c: sum(int(line.get(c, 0)) for line in lines) for c in COUNTERS}
        totals["spans"] = sum(int(line.get("spans", 0)) for line in lines)
        totals["vcpus"] = sorted(int(line.get("vcpu", 0)) for line in lines)
        spans = {(int(line["elapsed_cycles"]), int(line.get("elapsed_insns", 0)))
                 for line in lines if "elapsed_cycles" in line}
        if len(spans) == 1:     # the per-vCPU clocks' span: a global region's, or one vCPU's
            cycles, insns = spans.pop()
            totals["elapsed"] = {"cycles": cycles, "insns": insns}
        return totals


def load_model(path: Path) -> ModelOutput:
    """Read the plugin's .model.jsonl (lines that are not objects are skipped)."""
    lines = []
    for text in path.read_text(encoding="utf-8", errors="replace").splitlines():
        try:
            value = json.loads(text)
        except ValueError:
            continue
        if isinstance(value, dict):
            lines.append(value)
    return ModelOutput(lines)


def model_of(record: dict, model: ModelOutput) -> dict | None:
    """The "model" object for one result record, or None if it names no region."""
    region, iters = record.get("region"), record.get("iters")
    if not isinstance(region, int) or isinstance(region, bool):
        return None
    totals = model.region_totals(region)
    if totals is None:
        return {"profile": model.profile, "missing": True}
    iters = iters if isinstance(iters, int) and iters > 0 else 0
    per_iter = {c: round(totals[c] / iters, PER_ITER_DIGITS) if iters else None for c in COUNTERS}
    extra = {"profile": model.profile, "iters": iters, "spans": totals["spans"],
             "vcpus": totals["vcpus"], "totals": {c: totals[c] for c in COUNTERS},
             "per_iter": per_iter}
    if "elapsed" in totals:
        extra["elapsed"] = totals["elapsed"]
    return extra


def join_records(records: list[dict], model: ModelOutput,
                 syms: list[tuple[int, str]] | None = None,
                 epoch_names: dict[int, str] | None = None) -> tuple[list[dict], list[int]]:
    """Records with "model" added where they name a region; and the region
    ids named by a record but absent from the plugin's output.  The
    plugin's section lines follow, each with its "site" (an address) also
    named as "site_name" when SYMS, the symbols of the kernel that ran,
    are given: so the result file names its sites after the build changes.
    The plugin's epoch lines (epoch=ADDR) come last, each named by
    EPOCH_NAMES ("at_name") and carrying the profile's base CPI."""
    joined, missing = [], []
    for record in records:
        extra = model_of(record, model)
        if extra is None:
            joined.append(record)
            continue
        if extra.get("missing"):
            missing.append(record["region"])
        joined.append({**record, "model": extra})
    for line in model.sections:
        section = {**line, "profile": model.profile}
        if syms:
            section["site_name"] = ksyms.symbolize(int(str(line.get("site", "0")), 0), syms)
        joined.append(section)
    for line in model.epochs:
        at = int(str(line.get("at", "0")), 0)
        joined.append({**line, "at_name": (epoch_names or {}).get(at, ""),
                       "profile": model.profile, "base_cpi_milli": model.base_cpi_milli})
    return joined, missing


def dump_records(records: list[dict]) -> str:
    """One compact JSON object per line, keys in their given order."""
    return "".join(json.dumps(r, separators=(",", ":")) + "\n" for r in records)


def write_joined(path: Path, records: list[dict], meta: dict | None = None) -> None:
    """The joined records, after the run's meta record when there is one (results.py)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    head = [{"kind": "meta", **meta}] if meta is not None else []
    path.write_bytes(dump_records(head + records).encode("utf-8"))


# ----------------------------------------------------------------------
# The TLB-step check (kernel/measure/tlbstep.c).
# ----------------------------------------------------------------------
_TLB_KEYS = {
    "dtlb": re.compile(r"^\s*(?:l1_?)?dtlb[._]entries\s*[=:]\s*(\d+)", re.I | re.M),
    "stlb": re.compile(r"^\s*(?:l2_?)?stlb[._]entries\s*[=:]\s*(\d+)", re.I | re.M),
}


def profile_tlb_sizes(text: str) -> tuple[int, int] | None:
    """(L1 dTLB entries, STLB entries) from a profile's text, or None."""
    found = [_TLB_KEYS[k].search(text) for k in ("dtlb", "stlb")]
    if not all(found):
        return None
    return int(found[0].group(1)), int(found[1].group(1))


def tlbstep_rows(records: list[dict]) -> list[dict]:
    """The tlbstep records with a model, as {pages, pass, reps, miss counts per rep}."""
    rows = []
    for record in records:
        model = record.get("model") or {}
        if record.get("kind") != "tlbstep" or "totals" not in model:
            continue
        pages, iters = record.get("pages", 0), model.get("iters", 0)
        reps = iters // pages if pages else 0
        if not reps:
            continue
        totals = model["totals"]
        rows.append({"pages": pages, "pass": record.get("pass"), "reps": reps,
                     "dtlb": totals["dtlb_miss"] / reps, "stlb": totals["stlb_miss"] / reps})
    return rows


# Misses that are not the pages' own (a page of stack, the TSC reads' code)
# allowed per pass, and how far from the step a size must be to be judged.
TLB_SLACK = 3
TLB_MARGIN = 2


def check_tlbstep(records: list[dict], dtlb_entries: int, stlb_entries: int) -> list[str]:
    """What is wrong with the modelled TLB step, one message per size; [] if right.

    First pass (after a CR3 reload): every page misses the L1 dTLB and the
    STLB.  Second pass: no misses while pages <= dtlb_entries / 2; an L1
    dTLB miss but an STLB hit per page from 2 * dtlb_entries while
    pages <= stlb_entries / 2; both miss from 2 * stlb_entries.  Sizes
    within a factor TLB_MARGIN of a TLB's size are not judged (the kernel's
    own pages share the TLB, and associativity blurs the edge)."""
    rows = tlbstep_rows(records)
    problems = []
    if not rows:
        return ["no tlbstep records with a model"]

    def near(count: float, want: float) -> bool:
        return abs(count - want) <= TLB_SLACK + 0.05 * want

    for row in rows:
        n, label = row["pages"], f"{row['pages']} pages, {row['pass']} pass"
        want = None
        if row["pass"] == "first":
            want = (n, n)
        elif n * TLB_MARGIN <= dtlb_entries:
            want = (0, 0)
        elif n >= TLB_MARGIN * dtlb_entries and n * TLB_MARGIN <= stlb_entries:
            want = (n, 0)
        elif n >= TLB_MARGIN * stlb_entries:
            want = (n, n)
        if want is None:
            continue
        got = (row["dtlb"], row["stlb"])
        if not (near(got[0], want[0]) and near(got[1], want[1])):
            problems.append(f"{label}: dTLB/STLB misses per pass {got[0]:g}/{got[1]:g}, "
                            f"expected about {want[0]}/{want[1]}")
    return problems
