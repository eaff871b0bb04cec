"""harnessbench.py: the bound, the sittings and the record, with fake boots."""
from __future__ import annotations

import json
from pathlib import Path

from hakotool import harnessbench
from hakotool.runner import BootOutcome


def test_bound_is_perfect_packing_plus_the_longest_boot():
    assert harnessbench.bound([10.0, 20.0, 30.0], 2) == 30.0 + 30.0
    assert harnessbench.bound([5.0], 8) == 5.0 / 8 + 5.0
    assert harnessbench.bound([], 4) == 0.0


def test_cases_leave_out_disks_the_iso_and_other_arches():
    cases = harnessbench.bench_cases()
    assert cases
    assert all(c.disk == "none" and not c.iso and c.arch == "x86_64" for c in cases)
    assert harnessbench.bench_cases(2) == cases[:2]


def fake_boot(tmp_path: Path, outputs: dict[str, bytes], times: dict[str, float]):
    def boot(case, name):
        path = tmp_path / f"{name}.jsonl"
        path.write_bytes(b'{"kind":"meta","date":"' + name.encode() + b'"}\n' + outputs[case.label])
        return BootOutcome(name, 0, "passed", elapsed=times[case.label], jsonl=path)
    return boot


def test_identical_outputs_give_a_record_that_passes(tmp_path):
    cases = harnessbench.bench_cases(3)
    outputs = {c.label: f'{{"kind":"test","name":"{c.label}"}}\n'.encode() for c in cases}
    times = {c.label: float(i + 1) for i, c in enumerate(cases)}
    serial = harnessbench.sitting(cases, 1, fake_boot(tmp_path, outputs, times))
    parallel = harnessbench.sitting(cases, 2, fake_boot(tmp_path, outputs, times))
    record = harnessbench.summary(serial, parallel, cores=2)
    assert record["identical"] and record["boots"] == 3 and record["failed"] == []
    assert record["bound_s"] == round(6.0 / 2 + 3.0, 1)
    assert not list(tmp_path.glob("*.jsonl"))          # each boot's file is removed
    json.dumps(record)
    assert "identical in both sittings" in harnessbench.render(record)


def test_a_different_output_is_reported(tmp_path):
    cases = harnessbench.bench_cases(2)
    times = {c.label: 1.0 for c in cases}
    first = {c.label: b'{"a":1}\n' for c in cases}
    second = dict(first, **{cases[1].label: b'{"a":2}\n'})
    serial = harnessbench.sitting(cases, 1, fake_boot(tmp_path, first, times))
    parallel = harnessbench.sitting(cases, 2, fake_boot(tmp_path, second, times))
    record = harnessbench.summary(serial, parallel, cores=2)
    assert not record["identical"]
    assert "DIFFERENT" in harnessbench.render(record)
