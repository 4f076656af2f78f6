"""Where the plugin cannot be sure, it runs what it holds first or runs unfused: an unknown
runtime method, an unknown task call, an exception while running a window, a hook of Legate or
cuPyNumeric that is missing, an interpreter whose reference counts it does not trust."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
import types
from typing import Any

import cupynumeric as num
import numpy
import pytest

import legate_fuse
from legate_fuse.backend import fuser
from legate_fuse.capture import compat
from legate_fuse.capture.proxies import RuntimeProxy
from legate_fuse.session import Session
from legate_fuse.window import liveness


def computed(n: int = 300) -> num.ndarray:
    """An array computed by a task (Legate's own memory), with nothing held after it."""
    x = num.arange(n, dtype=numpy.float64) * 0.5
    legate_fuse.flush()
    return x


def expected(n: int = 300) -> numpy.ndarray:
    return (numpy.arange(n, dtype=numpy.float64) * 0.5 * 3.0 + 1.0) * 2.0


class NewerRuntime:
    """A Legate runtime with a method the proxy has never heard of."""

    def __init__(self, session: Session) -> None:
        self.session = session
        self.held_when_called = -1

    def issue_something_new(self) -> str:
        self.held_when_called = len(self.session.window)
        return "done"


def test_an_unknown_runtime_method_runs_after_everything_held(session: Session) -> None:
    x = computed()
    y = x * 3.0  # held
    assert len(session.window) > 0
    runtime = NewerRuntime(session)
    before = session.stats.flushes["unknown_runtime_call"]
    assert RuntimeProxy(runtime, session).issue_something_new() == "done"
    assert runtime.held_when_called == 0
    assert session.stats.flushes["unknown_runtime_call"] == before + 1
    numpy.testing.assert_array_equal(numpy.asarray(y), numpy.arange(300) * 0.5 * 3.0)


def test_a_known_runtime_method_does_not_flush(session: Session) -> None:
    x = computed()
    y = x * 3.0
    held = len(session.window)
    assert held > 0
    RuntimeProxy(session.runtime_proxy.unwrapped, session).get_machine()
    assert len(session.window) == held
    del y


def test_a_task_with_an_unknown_call_runs_at_once(session: Session,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    x = computed()
    # As if cuPyNumeric had started calling something new on its element-wise tasks.
    monkeypatch.setattr(compat, "TASK_LIFTABLE_CALLS",
                        compat.TASK_LIFTABLE_CALLS - {"add_scalar_arg"})
    fused = session.stats.tasks_fused
    y = x * 3.0
    assert len(session.window) == 0  # not held
    y = (y + 1.0) * 2.0
    assert len(session.window) == 0
    assert session.stats.tasks_fused == fused
    numpy.testing.assert_array_equal(numpy.asarray(y), expected())


def test_an_exception_half_way_through_a_window_runs_the_rest_unfused(
        session: Session, monkeypatch: pytest.MonkeyPatch) -> None:
    x = computed()
    original = fuser.Fuser.execute

    def fails_half_way(self: fuser.Fuser, planned: Any, done: list[bool]) -> None:
        first = planned.records[0]
        first.task.execute()  # one task ran, then the plugin breaks
        done[0] = True
        raise ValueError("broken half-way")

    monkeypatch.setattr(fuser.Fuser, "execute", fails_half_way)
    session._warned = False
    y = (x * 3.0 + 1.0) * 2.0
    legate_fuse.flush()
    monkeypatch.setattr(fuser.Fuser, "execute", original)
    numpy.testing.assert_array_equal(numpy.asarray(y), expected())
    assert session._warned


def test_a_failing_plan_runs_the_window_unfused(session: Session,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    x = computed()

    def broken(*_args: Any) -> None:
        raise KeyError("no plan")

    monkeypatch.setattr(session.planner(), "plan", broken)
    y = (x * 3.0 + 1.0) * 2.0
    legate_fuse.flush()
    monkeypatch.undo()
    numpy.testing.assert_array_equal(numpy.asarray(y), expected())


def test_a_group_that_fails_to_launch_runs_its_tasks(session: Session,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    x = computed()
    launches = session.stats.fused_launches

    def broken(*_args: Any) -> None:
        raise ValueError("cannot build")

    monkeypatch.setattr(fuser, "build_fused_task", broken)
    y = (x * 3.0 + 1.0) * 2.0
    legate_fuse.flush()
    monkeypatch.undo()
    assert session.stats.fused_launches == launches
    numpy.testing.assert_array_equal(numpy.asarray(y), expected())


# -- start-up checks, each in a fresh process --------------------------------------------------
PROGRAM = """
import numpy
{prepare}
import cupynumeric as num
import legate_fuse
x = num.arange(300, dtype=numpy.float64) * 0.5
y = (x * 3.0 + 1.0) * 2.0
assert (numpy.asarray(y) == (numpy.arange(300) * 0.5 * 3.0 + 1.0) * 2.0).all()
print("tasks fused", legate_fuse.stats()["tasks_fused"])
"""


def run_fused(prepare: str) -> subprocess.CompletedProcess[str]:
    environ = {k: v for k, v in os.environ.items() if not k.startswith("LEGATE_FUSE")}
    # Each kernel compiled before its group's first launch: fused from the first window.
    environ["LEGATE_FUSE_COMPILE"] = "wait"
    environ.update(LEGATE_FUSE="1", LEGATE_CONFIG="--cpus 1", LEGATE_AUTO_CONFIG="0")
    program = PROGRAM.format(prepare=textwrap.dedent(prepare))
    return subprocess.run([sys.executable, "-c", program], capture_output=True, text=True,
                          env=environ, timeout=300)


def warnings_of(stderr: str) -> list[str]:
    return [line for line in stderr.splitlines() if line.startswith("legate-fuse: WARNING")]


def test_nothing_missing_fuses_without_warning() -> None:
    result = run_fused("")
    assert result.returncode == 0, result.stderr[-3000:]
    assert warnings_of(result.stderr) == []
    assert "tasks fused 0" not in result.stdout


def test_a_missing_hook_runs_everything_unfused_with_one_warning() -> None:
    result = run_fused("""
        from legate_fuse.capture import compat
        compat.READ_POINTS += (("cupynumeric._thunk.deferred", "DeferredArray",
                                "__gone_in_a_later_release__", "read"),)
    """)
    assert result.returncode == 0, result.stderr[-3000:]
    (warning,) = warnings_of(result.stderr)
    assert "cupynumeric._thunk.deferred.DeferredArray.__gone_in_a_later_release__" in warning
    assert "tasks fused 0" in result.stdout


def test_untrusted_reference_counts_run_everything_unfused() -> None:
    result = run_fused("""
        from legate_fuse import session
        from legate_fuse.window import liveness
        session.reference_counts_as_assumed = lambda: False
    """)
    assert result.returncode == 0, result.stderr[-3000:]
    (warning,) = warnings_of(result.stderr)
    assert "count references" in warning
    assert "tasks fused 0" in result.stdout


def test_the_reference_count_probe_rejects_borrowed_references(
        monkeypatch: pytest.MonkeyPatch) -> None:
    assert liveness.reference_counts_as_assumed()
    # As an interpreter that borrows references would count them: no store looks referenced.
    monkeypatch.setattr(liveness, "foreign_references", lambda stores, held: [])
    assert not liveness.reference_counts_as_assumed()


@pytest.mark.parametrize(("implementation", "version"),
                         [("cpython", (3, 14)), ("cpython", (3, 10)), ("pypy", (3, 11))],
                         ids=["cpython-3.14", "cpython-3.10", "pypy-3.11"])
def test_untested_interpreters_are_not_trusted(monkeypatch: pytest.MonkeyPatch,
                                               implementation: str,
                                               version: tuple[int, int]) -> None:
    # The probe itself passes here: only the interpreter's name and version tell.
    interpreter = types.SimpleNamespace(
        implementation=types.SimpleNamespace(name=implementation),
        version_info=(*version, 0, "final", 0), getrefcount=sys.getrefcount)
    monkeypatch.setattr(liveness, "sys", interpreter)
    assert not liveness.reference_counts_as_assumed()
