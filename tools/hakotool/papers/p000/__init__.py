"""Paper 000: its published numbers and criteria (criteria.py), its benches (benches.py),
modelled.py the cost model's Table 2 and Fig. 6, plots.py Fig. 6, its report section
(report.py).
"""
from .benches import BENCHES, REPORT_INPUTS, REPORT_STEPS  # noqa: F401
from .criteria import *  # noqa: F401,F403
from .criteria import CRITERIA, verdicts  # noqa: F401
from .report import section  # noqa: F401

# Its modules run by `./hako paper 000 TOOL [ARGS]` (each has main(argv)).
TOOLS = ("plots",)
