"""Tests for paper 000's Fig. 6 (hakotool/papers/p000/plots.py): intrbench's
interference records to an SVG chart."""
import xml.etree.ElementTree as ET

import pytest

from hakotool.papers.p000 import plots as plot_intr

RECORDS = [{"kind": "intr-interference", "k": 0, "mode": "none", "loops": 1000}]
for k in (2, 1):
    RECORDS += [{"kind": "intr-interference", "k": k, "mode": "sequential", "loops": 1000 - 40 * k},
                {"kind": "intr-interference", "k": k, "mode": "packed", "loops": 1000 - 30 * k}]
RECORDS.append({"kind": "bench", "name": "other"})


def test_series_sorts_by_k_and_finds_the_baseline():
    base, lines = plot_intr.series(RECORDS)
    assert base == 1000
    assert lines["sequential"] == [(1, 960), (2, 920)]
    assert lines["packed"] == [(1, 970), (2, 940)]


def test_series_without_records_says_so():
    with pytest.raises(ValueError):
        plot_intr.series([{"kind": "bench"}])


def test_render_is_svg_with_one_line_per_mode():
    svg = plot_intr.render(*plot_intr.series(RECORDS))
    root = ET.fromstring(svg)
    ids = {e.get("id") for e in root.iter()}
    assert {"sequential", "packed", "sequential-lost", "packed-lost"} <= ids
    assert "no I/O (1,000)" in svg or "<svg" in svg


def test_render_is_the_same_every_time_and_undated():
    a = plot_intr.render(*plot_intr.series(RECORDS))
    assert a == plot_intr.render(*plot_intr.series(RECORDS))
    assert "<dc:date>" not in a and "Matplotlib v" not in a


def test_main_writes_the_file(tmp_path):
    src = tmp_path / "r.jsonl"
    src.write_text("\n".join(__import__("json").dumps(r) for r in RECORDS) + "\n")
    out = tmp_path / "f.svg"
    assert plot_intr.main([str(src), str(out)]) == 0
    assert out.read_text().startswith("<svg")
    assert plot_intr.main([str(tmp_path / "missing.jsonl"), str(out)]) == 1
