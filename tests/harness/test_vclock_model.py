"""The per-vCPU clocks end to end: boots user/vclockcheck on 4 CPUs with the
real cost-model plugin (`modern`) and checks that four CPUs in parallel take a
quarter of one's elapsed time and four serialised by a lock the sum, on both
clocks (vclockcheck.py).  The pure checks run on made-up records, and fail on
wrong ones.  The boot is skipped until the plugin is built (`make costmodel`)."""
import io
import json

from hakotool import bench, model, vclockcheck


def records(one: int, parallel: int, serial: int, k: int = 4) -> list[dict]:
    def rec(way, value):
        return {"kind": "vclock", "way": way, "k": 1 if way == "one" else k,
                "model": {"elapsed": {"cycles": 2 * value, "insns": value}}}
    return [rec("one", one), rec("parallel", parallel), rec("serial", serial)]


def test_exact_ratios_hold_and_wrong_ones_fail():
    assert vclockcheck.failures(records(4000, 1000, 4000)) is None
    assert vclockcheck.failures(records(4000, 1020, 4090)) is None          # within 3 %
    why = vclockcheck.failures(records(4000, 1560, 4000))                  # 2.56, not 4
    assert why and "parallel cycles" in why and "serial" not in why
    assert "serial insns" in vclockcheck.failures(records(4000, 1000, 5000))
    assert "FAILS" in vclockcheck.render(records(4000, 1560, 4000), "modern")


def test_without_elapsed_times_the_table_says_so():
    assert "no elapsed times" in vclockcheck.render([{"kind": "vclock", "way": "one", "k": 1}], "m")


def test_the_clocks_on_known_work(model_tree):
    run_root, env = model_tree
    out, err = io.StringIO(), io.StringIO()
    status = bench.run_bench("vclock", quiet=True, model="modern", out=out, err=err,
                             root=run_root, env=env)
    assert status == 0, err.getvalue()
    lines = model.joined_path(run_root, "bench-vclock").read_text().splitlines()
    joined = [json.loads(line) for line in lines]
    assert vclockcheck.failures(joined) is None, out.getvalue()
