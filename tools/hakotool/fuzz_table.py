"""The soak's summary (`./hako bench soak`): user/fuzz's result and the faults in the log.

user/fuzz prints one "fuzz" record at the end: calls made, the children's
fates, the free frames and ICA pages before and after, and per call the
successes and errors by errno.  A fault is what the kernel did, read from
the console: a process killed for a fault or for want of memory (the
fuzzer never touches a hostile pointer itself, so each such line is the
kernel's doing), a kernel fault report, a panic.  The soak passes when the
fuzzer said ok, it made at least the calls asked for, no fault is in the
log, and the free frames came back.
"""
from __future__ import annotations

import re

# kernel/proc/proc.c proc_fault_exit: "pid 5 (fuzz): page fault at 0, rip 400868: killed"
KILLED = re.compile(r"^pid \d+ \(.*\): .* at [0-9a-f]+, rip [0-9a-f]+: killed$")
KERNEL = re.compile(r"^(KERNEL FAULT|PANIC|panic)\b")


def fault_lines(lines) -> list[str]:
    """Console lines that report a fault (see the module docstring)."""
    return [line for line in lines if KILLED.match(line.strip()) or KERNEL.match(line.strip())]


def fuzz_record(records) -> dict | None:
    runs = [r for r in records if r.get("kind") == "fuzz"]
    return runs[-1] if runs else None


def verdict(record: dict | None, faults: list[str], want_calls: int) -> str | None:
    """Why the soak failed, or None when it passed."""
    if record is None:
        return "no fuzz record (the fuzzer did not finish)"
    if faults:
        return f"{len(faults)} fault line(s) in the log, the first: {faults[0]}"
    if record.get("calls", 0) < want_calls:
        return f"{record.get('calls', 0)} calls, fewer than {want_calls}"
    if record.get("free_after", 0) < record.get("free_before", 0):
        return (f"free frames {record['free_before']} before, {record['free_after']} after")
    if not record.get("ok"):
        return "the fuzzer reported ok=false"
    return None


def errors_by_call(record: dict, top: int = 8) -> list[str]:
    """The calls made most, each with its successes and its commonest errors."""
    calls = record.get("per_call", {})
    lines = []
    for name, c in sorted(calls.items(), key=lambda kv: (-kv[1].get("n", 0), kv[0]))[:top]:
        errs = sorted(((k, v) for k, v in c.items() if k not in ("n", "ok", "tsc")),
                      key=lambda kv: -kv[1])
        text = ", ".join(f"{k} {v}" for k, v in errs[:3])
        lines.append(f"    {name:<14} {c.get('n', 0):>9} calls, {c.get('ok', 0):>9} ok"
                     + (f"; {text}" if text else ""))
    return lines


def render(record: dict | None, faults: list[str], want_calls: int) -> str:
    """The summary block; its last line says passed or FAILED and why."""
    if record is None:
        lines = ["soak: no fuzz record"]
    else:
        ch = record.get("children", {})
        lines = [
            f"soak: {record.get('calls', 0):,} calls in {record.get('ms', 0):,} ms of guest time "
            f"(seed {record.get('seed', 0)}), {len(record.get('per_call', {}))} distinct calls",
            f"  children      {ch.get('spawned', 0)} spawned: {ch.get('finished', 0)} finished, "
            f"{ch.get('killed', 0)} killed by the fuzzer, {ch.get('self_ended', 0)} ended "
            f"themselves, {ch.get('faulted', 0)} faulted; {record.get('helpers', 0)} helper threads",
            f"  free frames   {record.get('free_before', 0)} before, {record.get('free_after', 0)} after; "
            f"ICA pages {record.get('ica_free_before', 0)} before, "
            f"{record.get('ica_free_after', 0)} after",
            f"  faults        {len(faults)} in the log",
            "  most made:",
            *errors_by_call(record),
        ]
    lines += [f"  fault: {line}" for line in faults[:5]]
    why = verdict(record, faults, want_calls)
    lines.append("soak: passed" if why is None else f"soak: FAILED: {why}")
    return "\n".join(lines) + "\n"
