"""Paper 004's Tables 2-4 on the four PCs (hakotool/papers/p004/permachine.py)
and the multi-model boot behind them (hakotool.model: "A+B" loads one plugin
copy per model, each writing its own output)."""
import json

from hakotool import model as costmodel
from hakotool.papers.p004 import criteria, permachine as pm
from hakotool.papers.p004 import preempt as pt

MODELS = "pentium166+pentiumpro200:l2off"


def test_multi_model_plugin_args_load_one_copy_per_model():
    args = costmodel.plugin_args(MODELS, "results/r.model.jsonl", ("release=10",))
    assert args[0::2] == ["-plugin", "-plugin"]
    first, second = (a.split(",") for a in args[1::2])
    assert first == ["build/costmodel/libcostmodel.so",
                     "profile=tools/costmodel/profiles/pentium166.profile",
                     "out=results/r.model.jsonl", "release=10"]
    assert second == ["build/costmodel/libcostmodel-1.so",
                      "profile=tools/costmodel/profiles/pentiumpro200.profile",
                      "out=results/r.pentiumpro200-l2off.model.jsonl", "l2=off", "release=10"]


def test_multi_model_names_are_checked_each(tmp_path):
    (tmp_path / "tools/costmodel/profiles").mkdir(parents=True)
    (tmp_path / "tools/costmodel/profiles/pentium166.profile").write_text("name = x\n")
    (tmp_path / "build/costmodel").mkdir(parents=True)
    (tmp_path / costmodel.PLUGIN).write_bytes(b"plugin")
    assert costmodel.check_model(tmp_path, "pentium166+pentium166:l2off", "icount") is None
    assert "each once" in costmodel.check_model(tmp_path, "pentium166+pentium166", "icount")
    assert "'nope'" in costmodel.check_model(tmp_path, "pentium166:nope", "icount")
    assert "pentiumpro200" in costmodel.check_model(tmp_path, "pentium166+pentiumpro200", "icount")
    costmodel.copy_plugins(tmp_path, 3)
    assert (tmp_path / costmodel.plugin_file(2)).read_bytes() == b"plugin"
    assert costmodel.joined_path(tmp_path, "r", "pentiumpro200:l2off").name == \
        "r.pentiumpro200-l2off.joined.jsonl"


def section(epoch, ctx, cycles, profile):
    return {"kind": "section", "region": 0xd00, "epoch": epoch, "ctx": ctx, "vcpu": 0,
            "spans": 1, "site": "0x1", "site_name": "f", "insns": cycles, "cycles": cycles,
            "profile": profile}


def preempt_records(profile, scale):
    return [{"kind": "preempt", "case": "spawn", "ctx": 6, "max": 10},
            section(1, 6, int(4000 * scale), profile), section(1, 13, int(2000 * scale), profile)]


def test_table2_per_machine_is_microseconds_at_each_clock(tmp_path):
    for p, scale in (("pentium166", 1.0), ("pentiumpro200", 1.1)):
        (tmp_path / f"bench-preempt-after.{p}.joined.jsonl").write_text(
            "".join(json.dumps(r) + "\n" for r in preempt_records(p, scale)))
    recs = pm.per_machine_records(tmp_path, "bench-preempt-after")
    assert list(recs) == ["pentium166", "pentiumpro200"]
    sections = {p: pm.section_us(r) for p, r in recs.items()}
    names = pt.call_names()
    assert sections["pentium166"][pt.ctx_name(6, names)] == 4000 / 166
    assert sections["pentiumpro200"][pt.ctx_name(13, names)] == 2200 / 200
    text = pm.render_table2(sections, 100.0, criteria.PAPER_T2)
    assert "over the 100 µs bound: pentium166 0, pentiumpro200 0" in text
    assert "paper (machines 1-4), longest: 71 / 61.5 / 55.1 / 60.5 µs" in text


def test_isoch_per_machine_beside_the_paper():
    recs = [{"kind": "bench", "name": name, "model": {"per_iter": {"cycles": c}}}
            for name, c in (("isoch_start", 3000), ("isoch_stop", 2000),
                            ("switch_periodic_to_periodic", 660), ("switch_normal_to_normal", 600))]
    times = {"pentium166": pm.isoch_us(recs, 166), "pentiumpro200": pm.isoch_us(recs, 200)}
    assert times["pentiumpro200"]["isoch_start"] == 15.0
    text = pm.render_isoch(times, criteria.PAPER_T3, criteria.PAPER_T4)
    assert "6740.0" in text and "1.100" in text and "1.914" in text


def test_table2_takes_pentium166_from_preempt_and_the_others_from_preempt_pcs(tmp_path):
    (tmp_path / "bench-preempt-after.joined.jsonl").write_text(
        "".join(json.dumps(r) + "\n" for r in preempt_records("pentium166", 1.0)))
    for p in ("pentium200-fpm", "pentium200-edo", "pentiumpro200"):
        (tmp_path / f"bench-preempt-pcs.{p}.joined.jsonl").write_text(
            "".join(json.dumps(r) + "\n" for r in preempt_records(p, 1.2)))
    runs = pm.preempt_per_machine(tmp_path)
    assert list(runs) == list(pm.PAPER_PROFILES)
    assert runs["pentium166"][1]["profile"] == "pentium166"
    check = next(c for c in criteria.table2_machines(tmp_path, 100.0))
    assert check.what == "every section under 100 µs on all four PCs" and check.held, check.detail
