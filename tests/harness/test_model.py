"""Tests for --model: the plugin argument, its checks, the join of the
plugin's regions to the guest's result lines, the tables and the TLB-step
check, all against fake plugin output."""
import io
import json
from pathlib import Path

import pytest

from hakotool.results import load_records
from hakotool import bench, model, runner
from hakotool.qemu import Profile, build_argv
from hakotool.summary import render_bench_only, render_summary


def region(rid, vcpu, spans, **counts):
    line = {"kind": "region", "region": rid, "vcpu": vcpu, "spans": spans}
    line.update({c: counts.get(c, 0) for c in model.COUNTERS})
    return line


PLUGIN_LINES = [
    {"kind": "profile", "name": "modern"},
    {"kind": "vcpu", "vcpu": 0, "insns": 5000000, "cycles": 9000000},
    {"kind": "vcpu", "vcpu": 1, "insns": 4000000, "cycles": 7000000},
    # null_syscall: one CPU.
    region(1, 0, 10000, insns=1030000, cycles=2575000, dtlb_miss=20, l1d_miss=1500),
    # spawn: global, both vCPUs.
    region(6, 0, 200, insns=20000000, cycles=50000000, dtlb_miss=30000, stlb_miss=8000),
    region(6, 1, 200, insns=5000000, cycles=15000000, dtlb_miss=10000, stlb_miss=2000),
    # process switch: one CPU, two figures from it.
    region(4, 0, 2000, insns=3400000, cycles=6800000, itlb_miss=4000),
]
PLUGIN_TEXT = "".join(json.dumps(line) + "\n" for line in PLUGIN_LINES)

RECORDS = [
    {"kind": "boot", "cpus": 4},
    {"kind": "bench", "name": "null_syscall", "unit": "tsc", "min": 99, "median": 99,
     "mean": 99, "max": 317, "n": 10000, "region": 1, "iters": 10000},
    {"kind": "bench", "name": "process_switch_oneway", "unit": "tsc", "min": 830,
     "median": 830, "mean": 830, "max": 1171, "n": 2000, "region": 4, "iters": 4000},
    {"kind": "bench", "name": "process_switch_roundtrip", "unit": "tsc", "min": 1661,
     "median": 1661, "mean": 1661, "max": 2342, "n": 2000, "region": 4, "iters": 2000},
    {"kind": "bench", "name": "spawn_exit_wait", "unit": "tsc", "min": 120056,
     "median": 125696, "mean": 125296, "max": 131356, "n": 200, "region": 6, "iters": 200},
    {"kind": "bench", "name": "getpid", "unit": "tsc", "min": 115, "median": 115,
     "mean": 115, "max": 115, "n": 10000},
]


def output():
    return model.ModelOutput(PLUGIN_LINES)


def joined():
    records, missing = model.join_records(RECORDS, output())
    assert missing == []
    return {r.get("name"): r for r in records}


def test_per_cpu_region_per_iteration():
    m = joined()["null_syscall"]["model"]
    assert m["profile"] == "modern" and m["vcpus"] == [0] and m["spans"] == 10000
    assert m["per_iter"]["insns"] == 103.0 and m["per_iter"]["cycles"] == 257.5
    assert m["per_iter"]["dtlb_miss"] == 0.002 and m["per_iter"]["l1d_miss"] == 0.15


def test_global_region_sums_vcpus():
    m = joined()["spawn_exit_wait"]["model"]
    assert m["vcpus"] == [0, 1] and m["spans"] == 400
    assert m["totals"]["cycles"] == 65000000
    assert m["per_iter"]["cycles"] == 325000.0 and m["per_iter"]["stlb_miss"] == 50.0


def test_one_region_two_figures_divide_by_their_iters():
    j = joined()
    assert j["process_switch_oneway"]["model"]["per_iter"]["cycles"] == 1700.0
    assert j["process_switch_roundtrip"]["model"]["per_iter"]["cycles"] == 3400.0


def test_records_without_region_are_untouched_and_order_is_kept():
    records, _ = model.join_records(RECORDS, output())
    assert records[0] == RECORDS[0] and records[-1] == RECORDS[-1]
    assert [r.get("name") for r in records] == [r.get("name") for r in RECORDS]
    first = records[1]
    assert list(first)[:-1] == list(RECORDS[1]) and list(first)[-1] == "model"


def test_region_the_plugin_never_saw_is_reported():
    record = {"kind": "bench", "name": "x", "region": 99, "iters": 5}
    records, missing = model.join_records([record], output())
    assert missing == [99] and records[0]["model"] == {"profile": "modern", "missing": True}


def test_table_has_instructions_and_modelled_columns():
    records, _ = model.join_records(RECORDS, output())
    lines = render_bench_only(records).splitlines()
    assert lines[0].startswith("modelled by cost-model profile modern: per iteration")
    header = lines[1].split()
    assert header[:7] == ["name", "unit", "n", "min", "median", "mean", "max"]
    assert header[7:] == ["m.insns", "cycles", "itlb", "dtlb", "stlb", "l1i", "l1d", "l2", "l3"]
    row = {line.split()[0]: line.split() for line in lines[3:]}
    assert row["null_syscall"][5] == "99" and row["null_syscall"][7:10] == ["103.0", "257.5", "0.000"]
    assert row["getpid"][7:] == ["-"] * 9


def test_plugin_argument_and_model_checks(tmp_path):
    argv = build_argv(Profile(model="modern", model_out="results/r.model.jsonl"), env={})
    index = argv.index("-plugin")
    assert argv[index + 1] == ("build/costmodel/libcostmodel.so,"
                               "profile=tools/costmodel/profiles/modern.profile,"
                               "out=results/r.model.jsonl")
    assert "-plugin" not in build_argv(Profile(), env={})
    assert "--mode icount" in model.check_model(tmp_path, "modern", "tcg")
    why = model.check_model(tmp_path, "modern", "icount")
    assert "no cost-model profile 'modern'" in why and "none" in why
    profiles = tmp_path / model.PROFILES_DIR
    profiles.mkdir(parents=True)
    (profiles / "modern.profile").write_text("")
    (profiles / "old.profile").write_text("")
    assert "known profiles: modern, old" in model.check_model(tmp_path, "nehalem", "icount")
    assert "make costmodel" in model.check_model(tmp_path, "modern", "icount")
    (tmp_path / "build/costmodel").mkdir(parents=True)
    (tmp_path / model.PLUGIN).write_bytes(b"\x7fELF")
    assert model.check_model(tmp_path, "modern", "icount") is None


def install_fake_plugin(root: Path) -> None:
    (root / model.PROFILES_DIR).mkdir(parents=True)
    (root / model.PROFILES_DIR / "modern.profile").write_text("dtlb.entries = 64\n")
    (root / "build/costmodel").mkdir(parents=True)
    (root / model.PLUGIN).write_bytes(b"\x7fELF")


def guest_output(records):
    return "".join("@@ " + json.dumps(r, separators=(",", ":")) + "\n" for r in records)


def test_bench_sys_model_end_to_end_is_deterministic(fake_env):
    root = Path(fake_env["HAKO_ROOT"])
    install_fake_plugin(root)
    fake_env["FAKE_QEMU_OUT"] = guest_output(RECORDS)
    fake_env["FAKE_QEMU_MODEL"] = PLUGIN_TEXT
    tables = []
    for _ in range(2):
        out, err = io.StringIO(), io.StringIO()
        status = bench.run_bench("sys", quiet=True, model="modern", out=out, err=err,
                                 root=root, env=fake_env)
        assert status == 0, err.getvalue()
        tables.append(out.getvalue())
    assert tables[0] == tables[1] and "257.5" in tables[0]
    assert "bench-sys.joined.jsonl" in err.getvalue()
    lines = (root / "results/bench-sys.joined.jsonl").read_text().splitlines()
    assert json.loads(lines[0])["kind"] == "meta"          # the run's meta record heads it
    assert json.loads(lines[2])["model"]["per_iter"]["cycles"] == 257.5
    # The guest's own file stays as the guest printed it.
    assert not any("model" in r for r in load_records(root / "results/bench-sys.jsonl"))
    assert "modelled by" in render_summary([json.loads(line) for line in lines])


def test_model_run_without_plugin_output_warns(fake_env):
    root = Path(fake_env["HAKO_ROOT"])
    install_fake_plugin(root)
    fake_env["FAKE_QEMU_OUT"] = guest_output(RECORDS)
    err = io.StringIO()
    outcome = runner.run_boot(Profile(model="modern"), "m", 5, quiet=True, env=fake_env,
                              err=err)
    assert outcome.ok and outcome.joined is None
    assert "wrote no results/m.model.jsonl" in err.getvalue()


def test_model_needs_icount(fake_env):
    root = Path(fake_env["HAKO_ROOT"])
    install_fake_plugin(root)
    outcome = runner.run_boot(Profile(mode="tcg", model="modern"), "m", 5, quiet=True,
                              env=fake_env, err=io.StringIO())
    assert outcome.exit_code == runner.EXIT_USAGE and "icount" in outcome.reason


# ---- the TLB-step check ---------------------------------------------------

SIZES = (1, 8, 16, 32, 64, 96, 128, 256, 512, 1024, 1536, 2048, 3072, 4096)
REPS = 4


def tlbstep_records(dtlb, stlb, broken=False):
    """What an LRU model with DTLB and STLB entries would give."""
    records, lines = [], [{"kind": "profile", "name": "modern"}]
    for k, n in enumerate(SIZES):
        for which, base in (("first", 0x400), ("again", 0x410)):
            if which == "first":
                misses = (n, n)
            else:
                misses = (0 if n <= dtlb else n, 0 if n <= stlb else n)
            if broken and which == "first":
                misses = (0, 0)
            rid = base + k
            records.append({"kind": "tlbstep", "pages": n, "pass": which,
                            "ticks": 10 * n * REPS, "region": rid, "iters": n * REPS})
            lines.append(region(rid, 0, REPS, insns=10 * n * REPS, cycles=30 * n * REPS,
                                dtlb_miss=misses[0] * REPS, stlb_miss=misses[1] * REPS,
                                walk_cycles=20 * misses[1] * REPS))
    joined_records, _ = model.join_records(records, model.ModelOutput(lines))
    return joined_records


def test_tlbstep_check_accepts_the_expected_step():
    assert model.check_tlbstep(tlbstep_records(64, 1536), 64, 1536) == []


def test_tlbstep_check_finds_a_missing_step():
    problems = model.check_tlbstep(tlbstep_records(64, 1536, broken=True), 64, 1536)
    # One page is within the slack of the kernel's own misses; the rest are not.
    assert len(problems) == len(SIZES) - 1
    assert problems[0] == "8 pages, first pass: dTLB/STLB misses per pass 0/0, expected about 8/8"
    # An STLB as big as the L1 dTLB: the again pass misses where it should hit.
    assert any("256 pages, again" in p for p in model.check_tlbstep(tlbstep_records(64, 64), 64, 1536))


def test_tlbstep_check_without_model():
    assert model.check_tlbstep([{"kind": "tlbstep", "pages": 1}], 64, 1536) == [
        "no tlbstep records with a model"]


def test_tlbstep_table():
    text = render_bench_only(tlbstep_records(64, 1536))
    lines = text.splitlines()
    assert lines[0].startswith("modelled by cost-model profile modern: per page")
    assert lines[1].split() == ["pages", "pass", "insns", "cycles", "dtlb", "stlb", "walk",
                                "l1d", "l2", "l3"]
    rows = [line.split() for line in lines[3:]]
    assert rows[0][:5] == ["1", "first", "10.0", "30.0", "1.000"]
    assert rows[-1][:6] == ["4096", "again", "10.0", "30.0", "1.000", "1.000"]
    assert ["256", "again", "10.0", "30.0", "1.000", "0.000", "0.0"] == rows[15][:7]


def test_tlbstep_table_without_model():
    records = [{"kind": "tlbstep", "pages": 8, "pass": "first", "ticks": 320,
                "region": 0x401, "iters": 32}]
    assert render_bench_only(records).splitlines()[3].split() == ["8", "first", "10.0"]


@pytest.mark.parametrize("text,sizes", [
    ("dtlb.entries = 64\nstlb.entries = 1536\n", (64, 1536)),
    ("# modern\nl1_dtlb_entries: 72\nl2_stlb_entries: 2048\n", (72, 2048)),
    ("itlb.entries = 128\n", None),
])
def test_profile_tlb_sizes(text, sizes):
    assert model.profile_tlb_sizes(text) == sizes


def test_cli_takes_model_for_boot_and_bench():
    from hakotool import cli
    args = cli.make_parser().parse_args(["bench", "sys", "--model", "modern"])
    assert args.model == "modern"
    args = cli.make_parser().parse_args(["boot", "--model", "modern"])
    assert cli.profile_from(args, ["tlbstep"]).model == "modern"
    assert cli.make_parser().parse_args(["boot"]).model == ""


def test_a_model_run_rebuilds_the_plugin_first(tmp_path, monkeypatch):
    # A plugin built before its sources changed was used as it was (an old
    # plugin refused an argument the harness had learnt); now `make costmodel`
    # runs first, as `make kernel` does for the image.
    made = []
    monkeypatch.setattr(runner, "run_make", lambda root, target, env, capture=False:
                        (made.append(target), (0, ""))[1])
    profile = Profile(model="modern", model_out="results/r.model.jsonl")
    runner.prepare(profile, tmp_path, {}, build=True)
    assert made[:1] == ["costmodel"]
    made.clear()
    runner.prepare(profile, tmp_path, {"HAKO_NO_BUILD": "1"}, build=True)
    assert made == []


SECTION = {"kind": "section", "region": 0xd00, "epoch": 1, "ctx": 13, "vcpu": 0, "spans": 2,
           "site": "0xffffffff80130c56", "insns": 831, "cycles": 4089}


def test_sections_are_named_with_the_symbols_of_the_kernel_that_ran():
    out = model.ModelOutput(PLUGIN_LINES + [SECTION])
    named, _ = model.join_records(RECORDS, out, [(0xffffffff80130c20, "vm_map")])
    assert named[-1] == {**SECTION, "profile": "modern", "site_name": "vm_map+0x36"}
    bare, _ = model.join_records(RECORDS, out)
    assert bare[-1] == {**SECTION, "profile": "modern"}       # no symbols: the address only


def test_a_run_with_sections_stores_their_names_from_build_hako_sym(fake_env):
    root = Path(fake_env["HAKO_ROOT"])
    install_fake_plugin(root)
    (root / "build/hako.sym").write_text("ffffffff80130c20 T vm_map\n")
    fake_env["FAKE_QEMU_OUT"] = guest_output(RECORDS)
    fake_env["FAKE_QEMU_MODEL"] = PLUGIN_TEXT + json.dumps(SECTION) + "\n"
    outcome = runner.run_boot(Profile(model="modern"), "m", 5, quiet=True, env=fake_env,
                              err=io.StringIO())
    assert outcome.ok
    lines = (root / "results/m.joined.jsonl").read_text().splitlines()
    assert json.loads(lines[-1])["site_name"] == "vm_map+0x36"
    (root / "build/hako.sym").unlink()
    err = io.StringIO()
    runner.run_boot(Profile(model="modern"), "m", 5, quiet=True, env=fake_env, err=err)
    assert "no build/hako.sym: the sections' sites stay addresses" in err.getvalue()
    assert "site_name" not in (root / "results/m.joined.jsonl").read_text()
