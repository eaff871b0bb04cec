"""The cost model's bandwidth bench (hakotool/bandwidth.py) on canned
`kperf --copy --bw` lines, and the slowdown bench's table (hakotool/modelspeed.py)."""
import json

from hakotool import bandwidth, modelspeed


def joined(cycles, memory=None, lmbench=None):
    """kperf --copy --bw's joined lines.  CYCLES: {(op, case): cycles per pass}
    of kperf --copy's at 256 KiB (op read, zero or copy); MEMORY: {(op, case):
    (mem_cycles, walk_cycles)} where the pass has them; LMBENCH: {op: (bytes,
    cycles)} of the lmbench-style passes (op rd, wr or bcopy)."""
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
    for op, (size, cyc) in (lmbench or {}).items():
        out.append({"kind": "kperf-bwmem", "op": op, "bytes": size, "case": "steady", "n": 1,
                    "model": {"profile": "t", "per_iter": {"cycles": cyc, "mem_cycles": cyc // 2,
                                                           "walk_cycles": 0}}})
    out.append({"kind": "kperf-copy", "bytes": 1024, "case": "worst",
                "model": {"per_iter": {"cycles": 1}}})       # another size: not a rate
    return out


def test_rates_are_bytes_times_mhz_over_cycles():
    per = bandwidth.rates(joined({("read", "worst"): 262144, ("copy", "best"): 131072}), 200.0)
    assert per == {("read", "worst"): 200.0, ("copy", "best"): 400.0}


def test_the_zero_pass_is_the_write_row_and_lmbench_passes_use_their_own_size():
    records = joined({("zero", "worst"): 262144},
                     lmbench={"rd": (1 << 24, 1 << 24), "wr": (1 << 24, 1 << 23),
                              "bcopy": (1 << 24, 1 << 25), "frd": (1 << 24, 1)})
    per = bandwidth.rates(records, 100.0)
    assert per == {("write", "worst"): 100.0, ("read", "lmbench"): 100.0,
                   ("write", "lmbench"): 200.0, ("copy", "lmbench"): 50.0}


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
    assert bandwidth.verdict("modern", "write", 1000.0) == ""      # nothing published
    assert bandwidth.verdict("pentiumpro200", "read", None) == ""
    assert bandwidth.PUBLISHED["pentium166"]["write"][2] == "LMB-T i586 write"


def _rows(text):
    """{(machine, op): cells} of a rendered table."""
    return {tuple(line.split()[:2]): line.split()[2:] for line in text.splitlines()[2:-2]}


def test_table_judges_the_lmbench_pass_and_shows_kperfs_passes(tmp_path):
    results = tmp_path / "results"
    results.mkdir()
    for profile, cyc in (("pentiumpro200", 262144 * 2), ("modern", 262144)):
        path = results / f"bench-bandwidth.{profile}.joined.jsonl"
        cycles = {(op, case): cyc for op in ("read", "zero", "copy") for case in bandwidth.CASES}
        # The memory side: a quarter of the pass, all of it misses.
        memory = {key: (c // 4, 0) for key, c in cycles.items()}
        # lmbench-style 16 MiB passes: read at 200 MB/s on the 200 MHz
        # machine (inside 205-214 less 25 %), write at 400 (above 86 plus 25 %).
        lmb = {"rd": (1 << 24, 1 << 24), "wr": (1 << 24, 1 << 23)} if profile != "modern" else {}
        path.write_text("".join(json.dumps(r) + "\n" for r in joined(cycles, memory, lmb)))
    text = bandwidth.render(bandwidth.load(results, "bench-bandwidth",
                                           "pentiumpro200+modern+pentium166"))
    rows = _rows(text)
    # lmbench, verdict, worst, memory, best, published
    assert rows[("pentiumpro200", "read")][:6] == ["200", "holds", "100", "400", "100", "205-214"]
    assert rows[("pentiumpro200", "write")][:6] == ["400", "FAILS", "100", "400", "100", "56-86"]
    assert rows[("pentiumpro200", "copy")][:2] == ["-", "-"]    # no lmbench-style pass: not judged
    assert rows[("modern", "copy")][:6] == ["-", "-", "4000", "16000", "4000", "11400"]
    assert rows[("modern", "write")][5:6] == ["-"]               # no published figure
    assert not any(m == "pentium166" for m, _ in rows)     # no file: left out
    assert "lmbench-style whole pass within 25% of the published range: 1 of 2" in text
    assert bandwidth.render({}).startswith("bandwidth: no joined")


def test_the_memory_side_is_information_not_judged(tmp_path):
    results = tmp_path / "results"
    results.mkdir()
    # A memory side right on the published figure (210 MB/s) and no
    # lmbench-style pass: no verdict.
    path = results / "bench-bandwidth.pentiumpro200.joined.jsonl"
    path.write_text("".join(json.dumps(r) + "\n"
                            for r in joined({("read", "worst"): 600000},
                                            {("read", "worst"): (249000, 1000)})))
    text = bandwidth.render(bandwidth.load(results, "bench-bandwidth", "pentiumpro200"))
    row = _rows(text)[("pentiumpro200", "read")]
    assert row[:5] == ["-", "-", "87", "210", "-"]
    assert "0 of 0" in text


def test_every_default_profile_has_a_clock():
    from hakotool.model import clock_mhz
    assert all(clock_mhz(p) for p in bandwidth.PROFILES)


def test_slowdown_table_prints_both_ratios_against_the_bound():
    text = modelspeed.render("modern", (20.0, 6.0), (40.0, 12.0))
    assert "wall 2.00x, cpu 2.00x (bound 3x: within)" in text
    assert "ABOVE" in modelspeed.render("modern", (10.0, 5.0), (40.0, 12.0))
