"""The report's plots (tools/hakotool/plots.py) added for paper 002's Fig. 5
and Fig. 8 and paper 004's Fig. 1: the same SVG bytes twice, no date or
version, and an id per series so a test can find each one."""
import xml.etree.ElementTree as ET

from hakotool import plots

FIG5 = [("no data, insns", [("ICA paste", 400), ("ICA peel", 600), ("first access", 1000),
                            ("process switch", 1200), ("system calls", 200), ("rest", 600)], 4000),
        ("4 KiB data, insns", [("ICA paste", 800), ("ICA peel", 1500), ("first access", 2000),
                               ("process switch", 1300), ("system calls", 200), ("rest", -50)],
         5750)]
FIG8 = [("insns", "no data", [("sync round trip (application)", 4000, 2400),
                              ("reply without waiting (server)", 800, 600)]),
        ("insns", "4 KiB data", [("sync round trip (application)", 5600, 2600)]),
        ("p4 cycles", "no data", [("sync round trip (application)", 8000, 5800)])]
MACHINES = ["pentium166", "pentiumpro200"]
FIG1 = ({"pentium166": {"best": 1.0, "worst": 1.6}, "pentiumpro200": {"best": 0.75, "worst": 1.83}},
        {"pentium166": {"best": 1.0, "worst": 1.0}, "pentiumpro200": {"best": 0.82, "worst": 1.2}},
        {"pentium166": {"best": [1.0, 1.0], "worst": [1.0, 1.0]},
         "pentiumpro200": {"best": [0.8, 0.84], "worst": [1.19, 1.21]}})


def ids(svg: str) -> set:
    return {e.get("id") for e in ET.fromstring(svg).iter()}


def stable(draw) -> str:
    """Draw twice; the bytes must match and carry no date or version."""
    one, two = draw(), draw()
    assert one == two and one.startswith("<svg")
    assert "<dc:date>" not in one and "Matplotlib v" not in one
    return one


def test_round_trip_shares_is_stable_with_a_bar_per_part():
    svg = stable(lambda: plots.round_trip_shares(FIG5))
    assert {"fig5-no-data-insns-ica-paste-0", "fig5-no-data-insns-process-switch-0",
            "fig5-no-data-insns-rest-0", "fig5-4-kib-data-insns-first-access-0"} <= ids(svg)
    # a negative rest is not drawn but written beside the bar
    assert "fig5-4-kib-data-insns-rest-0" not in ids(svg)
    assert "(rest -1 %)" in svg and "paper: about 90 %" in svg


def test_basic_operations_is_stable_with_both_modes_per_panel():
    svg = stable(lambda: plots.basic_operations(FIG8))
    assert {"fig8-insns-no-data-baseline-0", "fig8-insns-no-data-fast-1",
            "fig8-insns-4-kib-data-fast-0", "fig8-p4-cycles-no-data-baseline-0"} <= ids(svg)
    assert "40 %" in svg                      # 4000 -> 2400 saved


def test_machine_comparison_is_stable_with_best_and_worst_per_machine():
    svg = stable(lambda: plots.machine_comparison("pentium166", MACHINES, *FIG1))
    assert {"machines-mean-best-1", "machines-mean-worst-1", "machines-geomean-worst-0",
            "machines-calls-best-pentiumpro200"} <= ids(svg)
    assert "1.83" in svg and "pentium166's best-case mean" in svg


def test_slug_makes_ids_from_labels():
    assert plots.slug("4 KiB data, p4 cycles") == "4-kib-data-p4-cycles"


def test_estimate_bars_is_stable_with_a_piece_per_part():
    bars = [("paper: SH-4 measured (Table 2)", [("system call", 1.2), ("ICA paste", 3.0),
                                                ("ICA peel", 9.6), ("first access", 10.3),
                                                ("process switch", 8.3)]),
            ("Hako: p4 cycles x 11.7 / 2.8 GHz", [("system call", 0.5), ("ICA paste", 1.5),
                                                  ("ICA peel", 3.0), ("first access", 2.4),
                                                  ("process switch", 7.9)])]
    svg = stable(lambda: plots.estimate_bars(bars))
    assert {"fig5est-paper-sh-4-measured-table-2-first-access-0",
            "fig5est-hako-p4-cycles-x-11-7-2-8-ghz-process-switch-0"} <= ids(svg)
    assert "32.4 µs" in svg and "52 %" in svg          # the total; 7.9 of 15.3
