"""Switching between fused and unfused at the program's reads, as the payoff measurement does
(mode/payoff.py): every result stays NumPy's, whichever way each part of the program ran."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import cupynumeric as cnp
import numpy
import pytest

from legate_fuse import session as fusion_session
from legate_fuse.counters import Stats


class Alternating:
    """A tuner that changes its mind at every read."""

    def __init__(self, settled: bool) -> None:
        self.fusing = True
        # Between two measurements (the plugin steps aside while unfused), or measuring.
        self.settled = settled

    def at_read(self, stats: Stats) -> bool:
        self.fusing = not self.fusing
        return self.fusing


@pytest.fixture(params=[False, True], ids=["measuring", "settled"])
def switching(session: fusion_session.Session,
              request: pytest.FixtureRequest) -> Iterator[fusion_session.Session]:
    tuner = session.payoff
    session.payoff = Alternating(request.param)  # type: ignore[assignment]
    yield session
    session.payoff = tuner


def step(xp: Any, x: Any, y: Any) -> tuple[Any, float]:
    x = xp.sqrt(x * x + 1.0) - y * 0.5
    x[1:] = x[1:] + x[:-1] * 0.25
    return x, float((x * y).sum())


def test_every_result_is_numpys_when_the_way_changes_at_each_read(
        switching: fusion_session.Session) -> None:
    stats = switching.stats
    fused, unfused, aside = stats.fused_launches, stats.tasks_unfused_by_payoff, stats.steps_aside
    x0, y0 = numpy.linspace(-1.0, 1.0, 1001), numpy.linspace(0.5, 2.0, 1001)
    x, y, nx = cnp.array(x0), cnp.array(y0), x0.copy()
    for _ in range(12):
        x, got = step(cnp, x, y)
        nx, want = step(numpy, nx, y0)
        assert got == pytest.approx(want, rel=1e-12)  # one read per iteration
    numpy.testing.assert_allclose(numpy.asarray(x), nx, rtol=1e-13)
    assert stats.fused_launches > fused  # fused at some reads...
    if switching.payoff.settled:  # type: ignore[union-attr]
        assert stats.steps_aside > aside  # ...and handed to cuPyNumeric unseen at others
    else:
        assert stats.tasks_unfused_by_payoff > unfused  # ...and built at once at others


class AlwaysFusing:
    """A tuner that finds fusion paying at every read."""

    settled = True

    def at_read(self, stats: Stats) -> bool:
        return True


@pytest.fixture
def unfused(session: fusion_session.Session) -> Iterator[fusion_session.Session]:
    """The session as when fusion was measured not to pay, about to find it pays again."""
    tuner, session.payoff = session.payoff, AlwaysFusing()  # type: ignore[assignment]
    assert session.mode.fire("fusion_does_not_pay")
    yield session
    session.payoff = tuner


def build_as_cupynumeric_does(body: str, **names: Any) -> Any:
    """Runs `body` as a function of a cuPyNumeric module would (capture/direct_tasks.py)."""
    scope: dict[str, Any] = {"__name__": "cupynumeric._builder_under_test", **names}
    exec(f"def build():\n{body}", scope)
    return scope["build"]()


def test_unfused_only_cupynumeric_gets_legates_own_tasks(
        unfused: fusion_session.Session) -> None:
    from cupynumeric.config import CuPyNumericOpCode
    from cupynumeric.runtime import runtime as cupynumeric_runtime
    from legate.core import AutoTask, get_legate_runtime

    args = (cupynumeric_runtime.library, CuPyNumericOpCode.BINARY_OP)
    runtime = get_legate_runtime()
    assert build_as_cupynumeric_does("    return type(runtime.create_auto_task(*args))",
                                     runtime=runtime, args=args) is AutoTask
    # Anyone else may keep a task across a read: it runs behind a proxy, seen when submitted.
    assert type(runtime.create_auto_task(*args)) is not AutoTask


def test_fusion_resumes_only_once_no_task_without_a_proxy_is_being_built(
        unfused: fusion_session.Session) -> None:
    from cupynumeric.config import CuPyNumericOpCode
    from cupynumeric.runtime import runtime as cupynumeric_runtime
    from legate.core import get_legate_runtime

    # A read while a task is being built: held tasks would run before it, though submitted
    # after it.
    build_as_cupynumeric_does(
        "    task = runtime.create_auto_task(library, task_id)\n"
        "    session.flush('read')\n"
        "    session.update_mode()  # as the next task submitted would\n"
        "    assert not session.mode.holds\n",
        runtime=get_legate_runtime(), library=cupynumeric_runtime.library,
        task_id=CuPyNumericOpCode.BINARY_OP, session=unfused)
    unfused.flush("read")  # the task was dropped with its function
    unfused.update_mode()
    assert unfused.mode.holds
