"""Paper 000's bench: `./hako bench intr` (user/intrbench) and its table."""
from __future__ import annotations

from ...bench import Bench, Boots
from ...qemu import Profile
from ...reportkit import Step
from ...summary import render_bench_only
from . import modelled, triggers

# intrbench's calls where the cost model starts an epoch (--model): one per
# configuration of Table 2, case of Fig. 6 and run of the grouping part, and
# the parts that follow them, so each call's epoch ends where the next thing
# starts (modelled.py).
INTR_ELF = "build/user/intrbench.elf"
INTR_EPOCHS = tuple((INTR_ELF, symbol) for symbol in
                    ("run_config", "part_delay", "part_interference", "one_case", "part_adaptive",
                     "part_grouping", "g_run", "part_urgent"))


def intr_table(boots: Boots) -> str:
    """The bench table, the grouping, trigger and adaptive experiments, and
    with --model the modelled Table 2 and Fig. 6."""
    if not boots.records:
        return ""
    text = render_bench_only(boots.records, boots.meta)
    more = triggers.render(boots.records)
    if more:
        text += "\n" + more
    if boots.joined:
        text += "\n" + modelled.render(modelled.figures(boots.records))
        text += modelled.render_grouping(modelled.grouping(boots.records))
    return text


BENCHES: dict[str, Bench] = {
    "intr": Bench(
        profile=Profile(machine="pc", smp=2, mode="icount", net="hub", words=("intrbench",),
                        model_epochs=INTR_EPOCHS),
        timeout=3600.0,
        about="interrupt packaging, paper 000 (intrbench), sequential/packed/adaptive, "
              "both NICs on a hub, pc, 2 CPUs, icount",
        table=intr_table,
    ),
}

# The report's runs of them (`make report`, report.py) and the result files
# its section reads, each with the bench that makes it.
REPORT_STEPS = (
    Step("intr", "000", ("intr", "--model", "pentium2-450"), "interrupt packaging, intrbench, "
         "with the cost model's Pentium II 450 (the paper's machine; ~30 min)", seconds=1800),
)
REPORT_INPUTS = (("bench-intr.jsonl", "./hako bench intr --model pentium2-450"),
                 ("bench-intr.joined.jsonl", "./hako bench intr --model pentium2-450"))
