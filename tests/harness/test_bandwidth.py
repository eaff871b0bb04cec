"""The cost model's bandwidth bench (hakotool/bandwidth.py) on canned
`kperf --copy` lines, and the slowdown bench's table (hakotool/modelspeed.py)."""
import json

from hakotool import bandwidth, modelspeed


def joined(cycles):
    """kperf --copy's joined lines at 256 KiB; CYCLES: {(op, case): cycles per pass}."""
    out = []
    for (op, case), cyc in cycles.items():
        kind = "kperf-copy" if op == "copy" else "kperf-bw"
        record = {"kind": kind, "bytes": bandwidth.BYTES, "case": case, "n": 5,
                  "model": {"profile": "t", "per_iter": {"cycles": cyc}}}
        if kind == "kperf-bw":
            record["op"] = op
        out.append(record)
    out.append({"kind": "kperf-copy", "bytes": 1024, "case": "worst",
                "model": {"per_iter": {"cycles": 1}}})       # another size: not a rate
    return out


def test_rates_are_bytes_times_mhz_over_cycles():
    per = bandwidth.rates(joined({("read", "worst"): 262144, ("copy", "best"): 131072}), 200.0)
    assert per == {("read", "worst"): 200.0, ("copy", "best"): 400.0}


def test_table_reads_every_models_file_and_shows_published_figures(tmp_path):
    results = tmp_path / "results"
    results.mkdir()
    for profile, cyc in (("pentiumpro200", 262144 * 2), ("modern", 262144)):
        path = results / f"bench-bandwidth.{profile}.joined.jsonl"
        records = joined({(op, case): cyc for op in bandwidth.OPS for case in bandwidth.CASES})
        path.write_text("".join(json.dumps(r) + "\n" for r in records))
    text = bandwidth.render(bandwidth.load(results, "bench-bandwidth",
                                           "pentiumpro200+modern+pentium166"))
    rows = {tuple(line.split()[:2]): line.split()[2:] for line in text.splitlines()[2:-1]}
    assert rows[("pentiumpro200", "read")][:3] == ["100", "100", "205-214"]
    assert rows[("modern", "copy")][:3] == ["4000", "4000", "11400"]
    assert rows[("modern", "zero")][2] == "-"              # no published figure
    assert not any(m == "pentium166" for m, _ in rows)     # no file: left out
    assert bandwidth.render({}).startswith("bandwidth: no joined")


def test_every_default_profile_has_a_clock():
    from hakotool.model import clock_mhz
    assert all(clock_mhz(p) for p in bandwidth.PROFILES)


def test_slowdown_table_prints_both_ratios_against_the_bound():
    text = modelspeed.render("modern", (20.0, 6.0), (40.0, 12.0))
    assert "wall 2.00x, cpu 2.00x (bound 3x: within)" in text
    assert "ABOVE" in modelspeed.render("modern", (10.0, 5.0), (40.0, 12.0))
