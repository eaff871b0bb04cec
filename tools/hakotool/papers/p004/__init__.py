"""Paper 004: its published numbers and criteria (criteria.py), its benches (benches.py),
preempt.py Table 2, machines.py Fig. 1, plots.py the release-latency histograms, its
report section (report.py).
"""
from .benches import BENCHES, REPORT_INPUTS, REPORT_STEPS  # noqa: F401
from .criteria import *  # noqa: F401,F403
from .criteria import CRITERIA, verdicts  # noqa: F401
from .report import section  # noqa: F401

# Its modules run by `./hako paper 004 TOOL [ARGS]` (each has main(argv)).
TOOLS = ("machines", "plots")
