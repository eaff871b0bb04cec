"""Paper 004: its published numbers and criteria (criteria.py), its report section (report.py)."""
from .criteria import *  # noqa: F401,F403
from .criteria import CRITERIA, verdicts  # noqa: F401
from .report import section  # noqa: F401
