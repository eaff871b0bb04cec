"""Tests for paper 004's release-latency plot (hakotool/papers/p004/plots.py):
the histogram series and a stable SVG."""
import pytest

from hakotool.papers.p004 import plots as plot_isoch

RECORDS = [{"kind": "isoch_hist", "load": load, "cpu": cpu, "bucket_ns": 1000,
            "hist": [0, 400 - cpu, 90, 10 + cpu]}
           for load in ("hogs", "ispc") for cpu in range(2)]


def test_series_groups_by_load_then_cpu():
    loads, bucket = plot_isoch.series(RECORDS + [{"kind": "bench", "name": "x"}])
    assert bucket == 1000
    assert [name for name, _ in loads] == ["hogs", "ispc"]
    assert loads[1][1][1] == [0, 399, 90, 11]


def test_no_records_is_an_error():
    with pytest.raises(ValueError):
        plot_isoch.series([{"kind": "bench"}])


def test_svg_is_the_same_bytes_every_time(tmp_path):
    src = tmp_path / "r.jsonl"
    import json
    src.write_text("".join(json.dumps(r) + "\n" for r in RECORDS))
    one, two = tmp_path / "one.svg", tmp_path / "two.svg"
    assert plot_isoch.main([str(src), str(one)]) == 0
    assert plot_isoch.main([str(src), str(two)]) == 0
    assert one.read_bytes() == two.read_bytes()
    assert b"hogs-cpu0" in one.read_bytes() and b"<svg" in one.read_bytes()
