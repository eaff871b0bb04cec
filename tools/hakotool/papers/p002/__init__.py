"""Paper 002: its published numbers and criteria (criteria.py), its benches (benches.py),
tables.py its tables, partials.py its operations composed from the partial
operations (Fig. 5's estimate, Fig. 8 per operation), its report section (report.py).
"""
from .benches import BENCHES, REPORT_INPUTS, REPORT_STEPS  # noqa: F401
from .criteria import *  # noqa: F401,F403
from .criteria import CRITERIA, verdicts  # noqa: F401
from .report import section  # noqa: F401

# Its modules run by `./hako paper 002 TOOL [ARGS]` (each has main(argv)).
TOOLS = ("tables", "sh4")
