"""Console-line handling and guest result lines.

The guest reports machine-readable results on its serial console as lines
of the form `@@ {json object}`.  This module normalises raw console bytes
into text lines, recognises result lines, and writes/reads the per-run
`results/<name>.jsonl` file.

A result file's first line is the harness's own "meta" record: the commit
(and whether the tree differed from it), date, QEMU version, mode, machine,
CPUs, memory, cost-model profile and command lines of the run.  The lines
after it are the JSON text exactly as the guest printed it (one object per
line), so two identical runs give byte-identical guest lines
(guest_bytes).  Readers get the guest's records from load_records and the
meta record from load_meta.  The record kinds are described by
tools/hakotool/results.schema.json.
"""
from __future__ import annotations

import dataclasses
import json
from pathlib import Path

RESULT_PREFIX = "@@ "


def decode_line(raw: bytes) -> str:
    """Decode one console line, dropping its "\\n" / "\\r\\n" terminator."""
    text = raw.decode("utf-8", errors="replace")
    if text.endswith("\n"):
        text = text[:-1]
    if text.endswith("\r"):
        text = text[:-1]
    return text


def split_console(data: bytes) -> list[str]:
    """Split a whole console capture into normalised lines."""
    lines = data.split(b"\n")
    if lines and lines[-1] == b"":
        lines.pop()
    return [decode_line(line) for line in lines]


def result_text(line: str) -> str | None:
    """The payload of a result line (text after "@@ "), else None."""
    stripped = line.strip()
    if not stripped.startswith(RESULT_PREFIX):
        return None
    return stripped[len(RESULT_PREFIX):].strip()


def parse_result(text: str) -> dict | None:
    """Parse a result payload; only JSON objects are accepted."""
    try:
        value = json.loads(text)
    except ValueError:
        return None
    return value if isinstance(value, dict) else None


@dataclasses.dataclass
class ResultCollector:
    """Accumulates result lines seen on the console."""

    texts: list[str] = dataclasses.field(default_factory=list)
    records: list[dict] = dataclasses.field(default_factory=list)
    malformed: list[str] = dataclasses.field(default_factory=list)

    def feed(self, line: str) -> bool:
        """Inspect one console line; return True if it was a result line."""
        text = result_text(line)
        if text is None:
            return False
        record = parse_result(text)
        if record is None:
            self.malformed.append(text)
            return False
        self.texts.append(text)
        self.records.append(record)
        return True

    def feed_all(self, lines) -> "ResultCollector":
        """Feed every line of an iterable; returns self for chaining."""
        for line in lines:
            self.feed(line)
        return self


def collect(lines) -> ResultCollector:
    """Collect result lines from an iterable of console lines."""
    return ResultCollector().feed_all(lines)


META_KIND = "meta"


def meta_line(meta: dict) -> str:
    return json.dumps({"kind": META_KIND, **meta}, sort_keys=False, separators=(",", ":"))


def write_results(path: Path, texts, meta: dict | None = None) -> None:
    """(Over)write a .jsonl file: the meta record (if given), then the guest's JSON texts
    verbatim."""
    path.parent.mkdir(parents=True, exist_ok=True)
    head = [meta_line(meta)] if meta is not None else []
    body = "".join(f"{text}\n" for text in head + list(texts))
    path.write_bytes(body.encode("utf-8"))


def is_meta(record: dict) -> bool:
    return record.get("kind") == META_KIND


def guest_bytes(data: bytes) -> bytes:
    """A result file's bytes without its meta line: what two identical runs share."""
    lines = data.splitlines(keepends=True)
    if lines:
        first = parse_result(lines[0].decode("utf-8", errors="replace").strip())
        if first is not None and is_meta(first):
            lines = lines[1:]
    return b"".join(lines)


def verdict(record: dict) -> str:
    """"pass", "fail" or "skip" for a test record.

    A test that did not run on that machine says `"skipped": true` and
    why in "reason" (older kernels wrote `"ok": true, "skipped": "why"`:
    a skip too).  "ok": false is a failure whatever else the record says;
    only "ok": true without "skipped" is a pass.
    """
    if record.get("ok") is False:
        return "fail"
    if record.get("skipped"):
        return "skip"
    return "pass" if record.get("ok") is True else "fail"


def skip_reason(record: dict) -> str:
    """Why a test was skipped (older kernels put it in "skipped" itself)."""
    if record.get("reason"):
        return str(record["reason"])
    if isinstance(record.get("skipped"), str) and record["skipped"]:
        return record["skipped"]
    return "skipped"


def load_all(path: Path) -> list[dict]:
    """Every JSON object of a .jsonl file, the meta record included; lines
    that are not objects are skipped, and lines that still carry the "@@ "
    prefix (e.g. a raw console log) are accepted too."""
    records = []
    for line in path.read_text(encoding="utf-8", errors="replace").splitlines():
        text = result_text(line)
        record = parse_result(line.strip() if text is None else text)
        if record is not None:
            records.append(record)
    return records


def load_records(path: Path) -> list[dict]:
    """The guest's records of a .jsonl file (its meta record left out)."""
    return [r for r in load_all(path) if not is_meta(r)]


def load_meta(path: Path) -> dict | None:
    """The harness's meta record of a result file, or None (files written before it had one)."""
    for record in load_all(path):
        return record if is_meta(record) else None
    return None


# What two runs must share for one's figures to stand beside the other's as
# the same experiment: the commit, the built image and initrd (and their
# compiler), the machine and the kernel command line.  The date, the
# harness's command and a cost-model profile may differ.
SAME_RUN_KEYS = ("commit", "build", "machine", "cmdline")


def same_experiment_run(a: dict | None, b: dict | None) -> bool:
    """Two meta records (load_meta) name the same experiment on the same
    kernel (SAME_RUN_KEYS); False when either has no meta or no commit."""
    if not a or not b or not a.get("commit"):
        return False
    return all(a.get(key) == b.get(key) for key in SAME_RUN_KEYS)
