"""Fuzz tests run Legate on CPUs in this process with fusion enabled (like integration/)."""

from __future__ import annotations

import os
from collections import Counter
from typing import Any

import legate_fuse

# Every window fused, whatever fusion would save these small programs (window/payoff.py): the
# tests are of fusion; integration/test_payoff_switching.py runs the measured switching.
os.environ.setdefault("LEGATE_FUSE_PAYOFF", "0")
legate_fuse.enable()

import cupynumeric  # noqa: E402, F401  (must follow enable())

# Campaign counters, printed at the end of the run.
COUNTS: Counter[str] = Counter()


def pytest_terminal_summary(terminalreporter: Any) -> None:
    if COUNTS:
        terminalreporter.write_line("fuzz: " + ", ".join(f"{k} {v}" for k, v in
                                                           sorted(COUNTS.items())))
