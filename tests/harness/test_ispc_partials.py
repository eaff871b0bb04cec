"""Tests for hakotool/papers/p002/partials.py and the criteria that read it:
paper 002's Fig. 5 estimate and Fig. 8's saving per operation, composed from
the partial operations, on canned figures."""
import pytest

from hakotool.papers import p002
from hakotool.papers.p002 import partials
from hakotool.verdict import NOT_YET, PARTLY, REPRODUCED


class Figures:
    """A stand-in for tables.Figures: the same numbers as instructions and as
    `p4` cycles (times CYCLES)."""

    def __init__(self, values: dict, cycles: float = 1.0, no_region: tuple = ()):
        self.values, self.cycles, self.no_region = values, cycles, no_region

    def insns(self, name):
        return self.values.get(name)

    def modelled(self, profile, name, counter="cycles"):
        v = self.values.get(name)
        if v is None or profile != p002.JUDGED_PROFILE or name.startswith(self.no_region):
            return None
        return v * self.cycles


def from_table2(switch_before=8.3, first_access_before=10.3, scale=100.0) -> dict:
    """Partial operations as ispcbench measures them (a paste or peel with its
    own system call, a switch with its two semaphore calls), from the paper's
    Table 2 x SCALE, with the switch and the first access before as given."""
    t2 = dict(p002.PAPER_T2, process_switch=(switch_before, 5.8, 5.8),
              first_access=(first_access_before, 0.5, 5.1))
    calls = {"ica_paste": 1, "ica_peel": 1, "process_switch": 2}
    v = {}
    for mode, units in (("baseline", partials.paper_units("baseline", t2)),
                        ("fast", partials.paper_units("fast", t2))):
        s = units["syscall"]
        named = {"syscall": units["syscall"], "ica_paste": units["paste"],
                 "ica_paste_server": units["paste_server"], "ica_peel": units["peel"],
                 "ica_peel_server": units["peel_server"], "first_access": units["first_access"],
                 "first_access_server": units["first_access_server"],
                 "process_switch": units["switch"]}
        for name, value in named.items():
            extra = calls.get(name.removesuffix("_server"), 0) * s
            v[f"{name}_{mode}"] = (value + extra) * scale
    return v


def test_paper_counts_put_each_part_on_its_side():
    assert partials.paper_counts("request", "application", 2) == {
        "syscall": 1, "peel": 2, "paste_server": 2, "first_access_server": 1, "switch": 1}
    assert partials.paper_counts("return", "application", 1) == {
        "syscall": 1, "peel_server": 1, "paste": 1, "first_access": 1, "switch": 1}
    assert partials.paper_counts("return", "server", 1) == {
        "syscall": 1, "peel_server": 1, "paste_server": 1, "first_access_server": 1, "switch": 1}


def test_hako_counts_follow_the_kept_mappings_of_fast_mode():
    assert partials.hako_counts("sync_request", "baseline", 2)["peel"] == 2
    assert partials.hako_counts("sync_request", "fast", 2)["peel"] == 0
    assert partials.hako_counts("sync_return", "fast", 2)["paste"] == 0
    assert partials.hako_counts("sync_return", "fast", 2)["first_access"] == 2
    assert "switch" not in partials.hako_counts("async_request", "fast", 1)


def test_paper_composition_is_table2_summed():
    before = partials.compose(partials.paper_units("baseline"),
                              partials.paper_counts("request", "application", 1))
    after = partials.compose(partials.paper_units("fast"),
                             partials.paper_counts("request", "application", 1))
    # 1.2 + 4.8 + 1.5 + 10.3 + 8.3, and 1.2 + 5.7 + 1.5 + 0.5 + 5.8
    assert before["total"] == pytest.approx(26.1) and after["total"] == pytest.approx(14.7)
    saved = partials.savings(before, after)
    assert saved["first access"] == pytest.approx(100 * 9.8 / 26.1)
    assert sum(saved[p] for p, _ in partials.PARTS) == pytest.approx(saved["total"])


def test_estimate_is_the_papers_scaling_of_p4_cycles():
    # 2,800 cycles are 1 µs at 2.8 GHz, so 11.7 µs estimated for the SH-4
    assert partials.estimate_us(2800) == pytest.approx(11.7)
    f = Figures(from_table2())
    rows = partials.fig5_estimate(lambda n: f.modelled("p4", n))
    # Hako's cycles = the paper's µs x 100: the same shares as the paper's
    est, pap = partials.shares(rows, "estimate"), partials.shares(rows, "paper")
    assert est == pytest.approx(pap)
    assert rows["first access"]["count"] == 1 and rows["ICA peel"]["count"] == 2
    assert rows["process switch"]["cycles"] == pytest.approx(830)
    assert partials.ranking(pap)[0] == "first access"
    table = "\n".join(partials.fig5_table(rows))
    assert "| first access | 1 | 1,030 | 4.30 | 32 % | 10.3 | 32 % |" in table


def test_fig5_criterion_holds_on_the_papers_shape_and_fails_when_the_switch_dominates():
    values = from_table2()
    values["sync_roundtrip_4k_baseline"] = 10_000    # the four parts: 86 % of it
    assert p002.fig5(Figures(values)).verdict == REPRODUCED
    heavy = from_table2(switch_before=30.0)
    heavy["sync_roundtrip_4k_baseline"] = 13_000
    v = p002.fig5(Figures(heavy))
    assert v.verdict == PARTLY
    assert "estimate: the first access the largest share: the process switch" in v.reason
    assert "estimate: the shares in the paper's order" in v.reason
    assert p002.fig5(None).verdict == NOT_YET


def fig8_figures(request=(1000, 500), ret=(1000, 600), async_request=(1000, 500),
                 async_return=(1000, 600)) -> Figures:
    """As ispcbench's: every one-way window but the asynchronous request has a region."""
    v = from_table2()
    for name, pair in (("sync_request", request), ("sync_return", ret),
                       ("async_request", async_request), ("async_return", async_return)):
        for data in ("nodata", "4k"):
            v[f"{name}_{data}_baseline"], v[f"{name}_{data}_fast"] = pair
    return Figures(v, cycles=2.0, no_region=("async_request",))


def test_fig8_rows_compose_hako_and_the_paper_per_operation():
    rows = partials.fig8_rows(fig8_figures(), "p4")
    assert [(r["name"], r["data"]) for r in rows][:2] == [("sync_request", "none"),
                                                          ("sync_request", "4 KiB")]
    first = rows[0]
    assert first["measured_saving"] == pytest.approx(50.0)
    assert first["cycles"] == [2000, 1000] and first["cycles_saving"] == pytest.approx(50.0)
    assert rows[4]["name"] == "async_request" and rows[4]["cycles_saving"] is None
    # Hako's units are the paper's here, so the two compositions save the same
    assert first["hako_saving"]["total"] == pytest.approx(first["paper_saving"]["total"])
    # the window (no first access on the server) saves the client's peel only
    assert first["window_saving"]["first access"] == 0.0
    assert first["window_saving"]["ICA peel"] > 0
    text = "\n".join(partials.fig8_saving_table(rows, p002.PAPER_FIG8, "p4"))
    assert ("| synchronous request | none | application | 1,000 → 500 | 50.0 % | 2,000 → 1,000 "
            "| 50.0 % |") in text
    assert "| asynchronous request | none | server | 1,000 → 500 | 50.0 % | - | - |" in text
    assert "| 26.1 → 14.7 | 43.7 % | 48–55 % |" in text
    parts = "\n".join(partials.fig8_parts_table(rows))
    assert "+37.5 / +37.5 / +0.0" in parts          # first access: paper / Hako / window
    lines = partials.fig8_explanation(rows, "p4")
    assert len(lines) == 4 and lines[0].startswith("* **Synchronous request**")
    assert "first access 37.5 / 30.2" in lines[0]


def test_fig8_criterion_reads_every_operation_and_fails_where_hako_saves_nothing():
    assert p002.fig8(fig8_figures()).verdict == REPRODUCED
    v = p002.fig8(fig8_figures(async_request=(1000, 1000)))
    assert v.verdict == PARTLY
    # the asynchronous request has no region: judged in instructions
    assert "async request saving, no data (insns): 0 % against the paper's 48…55 %" in v.reason
    v = p002.fig8(fig8_figures(request=(1000, 1000)))
    assert v.verdict == NOT_YET
    assert "main effect fails: sync request saving, no data (p4 cycles): 0 %" in v.reason
