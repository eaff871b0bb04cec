"""The cost model's bandwidth bench (hakotool/bandwidth.py) on canned
`kperf --copy` lines, and the slowdown bench's table (hakotool/modelspeed.py)."""
import json

from hakotool import bandwidth, modelspeed


def joined(cycles, memory=None):
    """kperf --copy's joined lines at 256 KiB; CYCLES: {(op, case): cycles per pass};
    MEMORY: {(op, case): (mem_cycles, walk_cycles)} where the pass has them."""
    out = []
    for (op, case), cyc in cycles.items():
        kind = "kperf-copy" if op == "copy" else "kperf-bw"
        per_iter = {"cycles": cyc}
        if memory and (op, case) in memory:
            per_iter["mem_cycles"], per_iter["walk_cycles"] = memory[(op, case)]
        record = {"kind": kind, "bytes": bandwidth.BYTES, "case": case, "n": 5,
                  "model": {"profile": "t", "per_iter": per_iter}}
        if kind == "kperf-bw":
            record["op"] = op
        out.append(record)
    out.append({"kind": "kperf-copy", "bytes": 1024, "case": "worst",
                "model": {"per_iter": {"cycles": 1}}})       # another size: not a rate
    return out


def test_rates_are_bytes_times_mhz_over_cycles():
    per = bandwidth.rates(joined({("read", "worst"): 262144, ("copy", "best"): 131072}), 200.0)
    assert per == {("read", "worst"): 200.0, ("copy", "best"): 400.0}


def test_memory_side_is_mem_plus_walk_cycles_and_needs_both():
    records = joined({("read", "worst"): 4 * 262144, ("zero", "worst"): 262144},
                     {("read", "worst"): (262144 - 1000, 1000)})
    assert bandwidth.memory_rates(records, 200.0) == {("read", "worst"): 200.0}
    assert bandwidth.rates(records, 200.0)[("read", "worst")] == 50.0


def test_verdict_holds_within_the_tolerance_of_the_published_range():
    low, high, _ = bandwidth.PUBLISHED["pentiumpro200"]["read"]
    tol = bandwidth.TOLERANCE
    assert bandwidth.verdict("pentiumpro200", "read", low) == "holds"
    assert bandwidth.verdict("pentiumpro200", "read", low * (1 - tol)) == "holds"
    assert bandwidth.verdict("pentiumpro200", "read", high * (1 + tol)) == "holds"
    assert bandwidth.verdict("pentiumpro200", "read", low * (1 - tol) - 1) == "FAILS"
    assert bandwidth.verdict("pentiumpro200", "read", high * (1 + tol) + 1) == "FAILS"
    assert bandwidth.verdict("modern", "zero", 1000.0) == ""      # nothing published
    assert bandwidth.verdict("pentiumpro200", "read", None) == ""


def test_table_reads_every_models_file_and_shows_published_figures(tmp_path):
    results = tmp_path / "results"
    results.mkdir()
    for profile, cyc in (("pentiumpro200", 262144 * 2), ("modern", 262144)):
        path = results / f"bench-bandwidth.{profile}.joined.jsonl"
        cycles = {(op, case): cyc for op in bandwidth.OPS for case in bandwidth.CASES}
        # The memory side: a quarter of the pass, all of it misses.
        memory = {key: (c // 4, 0) for key, c in cycles.items()}
        path.write_text("".join(json.dumps(r) + "\n" for r in joined(cycles, memory)))
    text = bandwidth.render(bandwidth.load(results, "bench-bandwidth",
                                           "pentiumpro200+modern+pentium166"))
    rows = {tuple(line.split()[:2]): line.split()[2:] for line in text.splitlines()[2:-2]}
    # worst, memory, best, verdict, published
    assert rows[("pentiumpro200", "read")][:5] == ["100", "400", "100", "FAILS", "205-214"]
    assert rows[("modern", "copy")][:5] == ["4000", "16000", "4000", "FAILS", "11400"]
    assert rows[("modern", "zero")][3:5] == ["-", "-"]          # no published figure
    assert not any(m == "pentium166" for m, _ in rows)     # no file: left out
    assert "within 25% of the published range: 0 of 5" in text
    assert bandwidth.render({}).startswith("bandwidth: no joined")


def test_a_memory_side_near_the_published_figure_holds(tmp_path):
    results = tmp_path / "results"
    results.mkdir()
    # 262144 bytes x 200 MHz / 250,000 cycles = 210 MB/s: inside 205-214.
    cycles = {("read", "worst"): 600000}
    path = results / "bench-bandwidth.pentiumpro200.joined.jsonl"
    path.write_text("".join(json.dumps(r) + "\n"
                            for r in joined(cycles, {("read", "worst"): (249000, 1000)})))
    text = bandwidth.render(bandwidth.load(results, "bench-bandwidth", "pentiumpro200"))
    row = next(line.split() for line in text.splitlines() if line.split()[:2] == ["pentiumpro200", "read"])
    assert row[2:6] == ["87", "210", "-", "holds"]
    assert "1 of 1" in text


def test_every_default_profile_has_a_clock():
    from hakotool.model import clock_mhz
    assert all(clock_mhz(p) for p in bandwidth.PROFILES)


def test_slowdown_table_prints_both_ratios_against_the_bound():
    text = modelspeed.render("modern", (20.0, 6.0), (40.0, 12.0))
    assert "wall 2.00x, cpu 2.00x (bound 3x: within)" in text
    assert "ABOVE" in modelspeed.render("modern", (10.0, 5.0), (40.0, 12.0))
