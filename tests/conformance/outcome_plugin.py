"""A pytest plugin that appends each test's outcome to a file as soon as it is known.

Loaded into the conformance runs (`-p outcome_plugin`, with this folder on PYTHONPATH). One JSON
object per line, flushed at once, so that a process that aborts half-way (a Legion assertion,
a segfault) still leaves the outcomes of every test that finished before the abort.
"""

from __future__ import annotations

import json
import os
from typing import Any

import pytest

_PATH_VARIABLE = "LEGATE_FUSE_CONFORMANCE_OUTCOMES"


def _outcome(report: pytest.TestReport) -> str | None:
    """The test's outcome from one phase's report, or None while it is still undecided."""
    xfail = hasattr(report, "wasxfail")
    if report.when == "call":
        if xfail:
            return "xfailed" if report.skipped else "xpassed"
        return str(report.outcome)
    if report.failed:
        return "error"  # a setup or teardown failure
    if report.when == "setup" and report.skipped:
        return "xfailed" if xfail else "skipped"
    return None


def pytest_runtest_logreport(report: pytest.TestReport) -> None:
    path = os.environ.get(_PATH_VARIABLE)
    outcome = _outcome(report)
    if not path or outcome is None:
        return
    record: dict[str, Any] = {"test": report.nodeid, "outcome": outcome, "when": report.when}
    with open(path, "a") as stream:
        stream.write(json.dumps(record) + "\n")
        stream.flush()
