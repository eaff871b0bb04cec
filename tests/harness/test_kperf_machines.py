"""Paper 004's Fig. 1 tool (hakotool/papers/p004/machines.py) on canned kperf lines."""
from hakotool.papers.p004 import machines as km


def rec(kind, name, case, cycles):
    return {"kind": kind, "name": name, "case": case, "model": {"per_iter": {"cycles": cycles}}}


def machine(null_b, null_w, spawn_b, spawn_w):
    return [rec("kperf", "null", "best", null_b), rec("kperf", "null", "worst", null_w),
            rec("kperf-internal", "proc_create", "best", spawn_b),
            rec("kperf-internal", "proc_create", "worst", spawn_w),
            {"kind": "kperf", "name": "exit", "case": "best", "timed": False}]


def test_cycles_per_call_labels_calls_and_kernel_interfaces():
    cycles = km.cycles_per_call(machine(100, 3000, 40000, 90000))
    assert cycles == {"call null": {"best": 100.0, "worst": 3000.0},
                      "kernel proc_create": {"best": 40000.0, "worst": 90000.0}}


def test_claim_holds_when_the_pentium_pro_is_fastest_warm_and_slowest_purged():
    times = {"pentium166": km.times_us(km.cycles_per_call(machine(100, 3000, 40000, 90000)), 166),
             "pentiumpro200": km.times_us(km.cycles_per_call(machine(90, 4000, 38000, 150000)), 200)}
    calls, ratio, summary = km.compare(times, "pentium166")
    assert calls == ["call null", "kernel proc_create"]
    assert abs(ratio["pentiumpro200"]["call null"]["best"] - (90 / 200) / (100 / 166)) < 1e-9
    text = km.render(times, "pentium166")
    assert "call null" in text and "166 MHz" in text
    assert text.count("the paper's claim (pentiumpro200 both) holds") == 2


def test_claim_fails_when_another_machine_is_slowest_purged():
    times = {"pentium166": km.times_us(km.cycles_per_call(machine(100, 9000, 40000, 400000)), 166),
             "pentiumpro200": km.times_us(km.cycles_per_call(machine(90, 4000, 38000, 150000)), 200)}
    text = km.render(times, "pentium166")
    assert "slowest purged pentium166" in text and "does not hold" in text


def test_fig1_figures_are_relative_to_the_references_best_case_mean():
    times = {"pentium166": km.times_us(km.cycles_per_call(machine(100, 3000, 40000, 90000)), 166),
             "pentiumpro200": km.times_us(km.cycles_per_call(machine(90, 4000, 38000, 150000)), 200)}
    paper_form, geomeans, per_call = km.fig1_figures(times, "pentium166")
    assert paper_form["pentium166"]["best"] == 1.0
    # the paper's form: the worst case too is over the reference's best-case mean
    assert abs(paper_form["pentium166"]["worst"] - 93000 / 40100) < 1e-9
    assert abs(paper_form["pentiumpro200"]["worst"] - (154000 / 200) / (40100 / 166)) < 1e-9
    assert geomeans["pentium166"] == {"best": 1.0, "worst": 1.0}
    assert len(per_call["pentiumpro200"]["best"]) == 2
    assert abs(per_call["pentiumpro200"]["best"][0] - (90 / 200) / (100 / 166)) < 1e-9
