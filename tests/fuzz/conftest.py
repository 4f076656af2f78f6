"""Fuzz tests run Legate on CPUs in this process with fusion enabled (like integration/), at
the default settings: LEGATE_FUSE_PAYOFF=0 in the environment fuses every window instead."""

from __future__ import annotations

import os
import sys
from collections import Counter
from collections.abc import Iterator
from typing import Any

import pytest

import legate_fuse
from legate_fuse import session as fusion_session

# Kernels compile before their group's first launch (LEGATE_FUSE_COMPILE=wait): these tests
# check fused results from a program's first window. test_background_compile.py runs the
# default, a group unfused until its kernel is ready.
os.environ["LEGATE_FUSE_COMPILE"] = "wait"
legate_fuse.enable()
del os.environ["LEGATE_FUSE_COMPILE"]

import cupynumeric  # noqa: E402, F401  (must follow enable())

from legate_fuse import _tasks  # noqa: E402

# Campaign counters, printed at the end of the run.
COUNTS: Counter[str] = Counter()


def current() -> fusion_session.Session:
    session = fusion_session.current()
    assert session is not None
    return session


def as_in_a_new_process() -> None:
    """What the plugin learns of a program as it runs, as a new process starts with: each
    generated program stands for a whole program, and one process running hundreds of them is
    not one long program. The measurement of whether fusion pays (mode/payoff.py) starts again
    with its warm-up: a tuner shared by all of them would rightly run some unfused (they read
    values back all the time, on small arrays). The call sites whose tasks were not lifted
    (capture/call_sites.py) are forgotten: every program runs the interpreter's lines, and one
    whose operation does not lift on a dtype would have another program's tasks there built
    at once. The plugin comes back if it stepped aside, and holds tasks. (The tuner and the
    call sites start afresh in place, with their settings: other parts of the plugin hold
    them.)"""
    session = current()
    payoff = session.payoff
    if payoff is not None:
        type(payoff).__init__(payoff, payoff.settings, payoff.clock, payoff.cpu_clock)
    session.waits_at_tasks = False
    sites = session.call_sites
    type(sites).__init__(sites, sites.stats, sites.enabled)
    legate_fuse.enable()
    session.step_aside.come_back()
    session.mode.fire("fusion_pays")
    session.update_mode()
    assert session.mode.holds, session.mode.mode


def reads_before_unfused() -> int:
    """Values a program may read back before the plugin may run it unfused: the payoff tuner
    fuses through its warm-up, then measures the current way, fused, for a phase; only then
    may it probe running unfused (mode/payoff.py). Every window is fused without a tuner."""
    payoff = current().payoff
    if payoff is None:
        return sys.maxsize
    return payoff.settings.warmup_reads + payoff.settings.phase_reads


@pytest.fixture(autouse=True, scope="module")
def small_kernel_parts() -> Iterator[None]:
    """Fused kernels run in parts of at least 64 elements in these tests (65,536 in real
    programs: see LEGATE_FUSE_THREADS), so that the generated arrays, a few thousand elements
    at most, cross part boundaries, and their parts run on the helper threads where Legate
    leaves a core. Only here: the setting is the process's, and other tests share it."""
    before = _tasks.kernel_part_elements()
    _tasks.set_kernel_part_elements(64)
    try:
        yield
    finally:
        _tasks.set_kernel_part_elements(before)


def pytest_terminal_summary(terminalreporter: Any) -> None:
    COUNTS["fused kernels run in parts on several threads"] = _tasks.split_kernel_runs()
    COUNTS["random draws made in parts on several threads"] = _tasks.split_draw_runs()
    if COUNTS:
        terminalreporter.write_line("fuzz: " + ", ".join(f"{k} {v}" for k, v in
                                                           sorted(COUNTS.items())))
