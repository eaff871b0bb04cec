"""Paper 004's Fig. 2 (hakotool/papers/p004/copyfig.py and criteria.fig2) on
canned `kperf --copy` lines, and the cost model's PROFILE:l2off names."""
import json

from hakotool import model as costmodel
from hakotool.papers.p004 import copyfig, criteria

SIZES = (1024, 16384, 262144)


def lines(cycles_of):
    """kperf --copy's joined lines; cycles_of(bytes, case) -> cycles per copy."""
    return [{"kind": "kperf-copy", "bytes": b, "case": case, "mean": b, "n": 5,
             "model": {"profile": "t", "per_iter": {"cycles": cycles_of(b, case),
                                                    "l1d_miss": 0, "l2_miss": 0}}}
            for b in SIZES for case in ("best", "worst")]


def machine(warm, miss):
    """A machine whose warm copy costs WARM cycles a byte and whose copies
    that miss (L2 off, or purged) cost MISS cycles a byte."""
    return {"on": lambda b, c: b * (warm if c == "best" else miss),
            "off": lambda b, c: b * (warm if b <= 8192 else miss)}


def write(tmp_path, machines):
    for p, states in machines.items():
        for l2, cyc in states.items():
            path = tmp_path / f"{copyfig.run_name(p, l2)}.joined.jsonl"
            path.write_text("".join(json.dumps(r) + "\n" for r in lines(cyc)))


def test_model_names_carry_the_l2off_option():
    assert costmodel.split_model("pentiumpro200:l2off") == ("pentiumpro200", ("l2off",))
    assert costmodel.profile_rel("pentiumpro200:l2off") == \
        "tools/costmodel/profiles/pentiumpro200.profile"
    args = costmodel.plugin_args("pentium166:l2off", "results/x.model.jsonl", ("release=10",))
    assert args[1].split(",")[1:] == ["profile=tools/costmodel/profiles/pentium166.profile",
                                      "out=results/x.model.jsonl", "l2=off", "release=10"]
    assert costmodel.clock_mhz("pentium166:l2off") == 166
    assert copyfig.model_name("p", "off") == "p:l2off" and copyfig.run_name("p", "off") == \
        "kperf-copy-p-l2off"


def test_copy_times_are_microseconds_at_the_clock():
    times = copyfig.copy_times(lines(lambda b, c: 2 * b) + [{"kind": "kperf"}], 200)
    assert times[(1024, "best")] == 2 * 1024 / 200
    assert len(times) == 2 * len(SIZES)


def test_fig2_reproduced_when_the_pentium_pro_is_fastest_warm_and_slowest_missing(tmp_path):
    write(tmp_path, {"pentium166": machine(1.2, 3.0), "pentium200-fpm": machine(1.1, 3.4),
                     "pentium200-edo": machine(1.1, 3.2), "pentiumpro200": machine(1.0, 4.5)})
    v = criteria.fig2(tmp_path)
    assert v.verdict == "reproduced", v.reason
    times = copyfig.load(tmp_path, criteria.MACHINES)
    text = copyfig.render(times)
    assert "L2 off best : fastest to slowest (all sizes summed): " in text
    assert text.splitlines()[-3].endswith("pentiumpro200")      # L2 off, best: slowest
    svg = copyfig.figure(times)
    assert svg == copyfig.figure(times) and "copy-best-pentiumpro200-l2off" in svg


def test_fig2_not_yet_when_another_machine_is_slowest_with_l2_off(tmp_path):
    write(tmp_path, {"pentium166": machine(1.2, 5.0), "pentium200-fpm": machine(1.1, 3.4),
                     "pentium200-edo": machine(1.1, 3.2), "pentiumpro200": machine(1.0, 4.5)})
    v = criteria.fig2(tmp_path)
    assert v.verdict == "not yet"
    assert "slowest copying with the L2 off" in v.reason


def test_fig2_not_run_without_every_file(tmp_path):
    write(tmp_path, {"pentium166": machine(1.2, 3.0)})
    assert criteria.fig2(tmp_path).verdict == "not yet"


def test_one_run_table_prints_cycles_and_misses():
    text = copyfig.one_run(lines(lambda b, c: 3 * b))
    assert "cost model t" in text and "262144 worst" in text
