"""The cost model's bandwidth bench (hakotool/bandwidth.py) on canned
`kperf --copy --bw` lines, and the slowdown bench's table (hakotool/modelspeed.py)."""
import json

from hakotool import bandwidth, modelspeed


def joined(cycles, lmbench=None):
    """kperf --copy --bw's joined lines.  CYCLES: {(op, case): cycles per pass}
    of kperf --copy's at 256 KiB (op read, zero or copy); LMBENCH: {op: (bytes,
    cycles)} of the lmbench-style passes (op rd, wr, bcopy or rd4)."""
    out = []
    for (op, case), cyc in cycles.items():
        kind = "kperf-copy" if op == "copy" else "kperf-bw"
        per_iter = {"cycles": cyc}
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
                              "bcopy": (1 << 24, 1 << 25), "rd4": (1 << 24, 1 << 22),
                              "frd": (1 << 24, 1)})
    per = bandwidth.rates(records, 100.0)
    assert per == {("write", "worst"): 100.0, ("read", "lmbench"): 100.0,
                   ("write", "lmbench"): 200.0, ("copy", "lmbench"): 50.0,
                   ("read4", "lmbench"): 400.0}


def test_a_pass_without_cycles_has_no_rate():
    records = joined({("read", "worst"): 262144})
    records[0]["model"]["per_iter"] = {"mem_cycles": 5}
    assert bandwidth.rates(records, 200.0) == {}


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
        # lmbench-style 16 MiB passes: read at 200 MB/s on the 200 MHz
        # machine (inside 205-214 less 25 %), write at 400 (above 86 plus
        # 25 %); modern's read4 at 20,000 (inside 25,400 less 25 %).
        lmb = ({"rd": (1 << 24, 1 << 24), "wr": (1 << 24, 1 << 23)} if profile != "modern"
               else {"rd": (1 << 24, 1 << 22), "rd4": (1 << 24, 3355443)})
        path.write_text("".join(json.dumps(r) + "\n" for r in joined(cycles, lmb)))
    text = bandwidth.render(bandwidth.load(results, "bench-bandwidth",
                                           "pentiumpro200+modern+pentium166"))
    rows = _rows(text)
    # lmbench, verdict, worst, best, published
    assert rows[("pentiumpro200", "read")][:5] == ["200", "holds", "100", "100", "205-214"]
    assert rows[("pentiumpro200", "write")][:5] == ["400", "FAILS", "100", "100", "56-86"]
    assert rows[("pentiumpro200", "copy")][:2] == ["-", "-"]    # no lmbench-style pass: not judged
    assert rows[("modern", "copy")][:5] == ["-", "-", "4000", "4000", "11400"]
    assert rows[("modern", "write")][4:5] == ["-"]               # no published figure
    # modern's read is not judged (its published read is set beside read4)
    assert rows[("modern", "read")][:2] == ["16000", "-"]
    assert rows[("modern", "read4")][:2] == ["20000", "holds"]
    assert not any(m == "pentium166" for m, _ in rows)     # no file: left out
    assert "lmbench-style whole pass within 25% of the published range: 2 of 3" in text
    assert bandwidth.render({}).startswith("bandwidth: no joined")


def test_every_default_profile_has_a_clock():
    from hakotool.model import clock_mhz
    assert all(clock_mhz(p) for p in bandwidth.PROFILES)


def test_slowdown_table_prints_both_ratios_against_the_bound():
    text = modelspeed.render("modern", (20.0, 6.0), (40.0, 12.0))
    assert "wall 2.00x, cpu 2.00x (bound 3x: within)" in text
    assert "ABOVE" in modelspeed.render("modern", (10.0, 5.0), (40.0, 12.0))
