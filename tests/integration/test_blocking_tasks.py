"""A task that may throw makes Legate wait for it at submission (the scope's exception mode is
immediate by default): the program waits there for every task before it, as at a read, and
whether fusion pays is measured there too (session.WAITS). Advanced indexing with bounds
checks is such a task: a loop that gathers every iteration and never reads a value back is
still measured, and its measurement completes whichever way it runs."""

from __future__ import annotations

import dataclasses
from typing import Any

import cupynumeric as cnp
import numpy
import pytest

from legate_fuse.capture.task_proxy import exceptions_are_immediate
from legate_fuse.session import Session


def step(xp: Any, a: Any, indices: Any) -> Any:
    gathered = a[indices]  # a task that may throw IndexError: Legate waits for it
    return xp.sqrt(gathered * gathered + 1.0) - 0.5 * gathered


def test_legate_handles_task_exceptions_at_once_by_default() -> None:
    assert exceptions_are_immediate()


def test_a_gather_every_iteration_is_where_fusion_is_measured(session: Session) -> None:
    tuner = session.payoff
    if tuner is None:
        pytest.skip("the payoff measurement is off (LEGATE_FUSE_PAYOFF=0)")
    # Probed whatever the share of the main thread's time (a busy CI machine).
    tuner.settings = dataclasses.replace(tuner.settings, min_busy=0.0)
    values = numpy.linspace(-1.0, 1.0, 2000)
    order = numpy.random.default_rng(3).permutation(values.size)
    a, indices, expected = cnp.array(values), cnp.array(order), values
    fused = session.stats.fused_launches
    rounds = tuner.settings.warmup_reads + 2 * tuner.settings.phase_reads + 4
    for _ in range(rounds):
        a = step(cnp, a, indices)
        expected = step(numpy, expected, order)
    numpy.testing.assert_array_equal(numpy.asarray(a), expected)
    assert session.stats.fused_launches > fused  # fused in its warm-up
    # Measured both ways and decided: the unfused phase saw its waits too (no task went to
    # cuPyNumeric without the plugin's proxy, which would have hidden them).
    assert session.stats.payoff_rounds >= 1
    assert session.waits_at_tasks
