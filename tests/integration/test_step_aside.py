"""The plugin steps aside while nothing fuses (mode/step_aside.py): cuPyNumeric's tasks go
straight to Legate, nothing is held, and the plugin comes back after enough arrays, holding
tasks again only once no function of cuPyNumeric can still be building one of Legate's."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from typing import Any

import cupynumeric as num
import numpy
import pytest
from cupynumeric.config import CuPyNumericOpCode
from legate.core import get_legate_runtime

from legate_fuse.capture.lazy_task import LazyAutoTask
from legate_fuse.capture.task_proxy import AutoTaskProxy
from legate_fuse.mode.step_aside import COME_BACK_FACTOR, MOST_COME_BACK_FACTOR
from legate_fuse.session import Session

from .tasks_by_hand import add_arguments, add_task

AFTER = 16  # tasks built at once, none fused, before stepping aside, in these tests


@pytest.fixture
def stepping(session: Session) -> Iterator[Session]:
    aside = session.step_aside
    after = aside.after
    aside.after, aside.run = AFTER, 0  # a new run (earlier tests' ran up to the default)
    aside.come_back_factor = COME_BACK_FACTOR  # and the first wait
    yield session
    aside.come_back()
    aside.after = after


def as_cupynumeric(source: str, name: str) -> Callable[..., Any]:
    """The function `name` defined by `source` in a module the plugin takes for cuPyNumeric's
    (direct_tasks.BUILT_IN_ONE_CALL): it is given Legate's own tasks while the plugin stands
    aside."""
    namespace: dict[str, Any] = {"__name__": "cupynumeric._step_aside_test",
                                 "get_legate_runtime": get_legate_runtime, "add_task": add_task,
                                 "add_arguments": add_arguments,
                                 "BINARY_OP": CuPyNumericOpCode.BINARY_OP}
    exec(compile(source, "<cupynumeric._step_aside_test>", "exec"), namespace)
    function: Callable[..., Any] = namespace[name]
    return function


def test_a_stream_that_never_fuses_steps_aside_and_comes_back(stepping: Session) -> None:
    stats = stepping.stats
    values = numpy.linspace(-1.0, 1.0, 100)
    a, expected = num.array(values), values
    steps, seen = stats.steps_aside, stats.tasks_seen
    for _ in range(6 * AFTER):
        a, expected = num.cumsum(a) / 50.0, numpy.cumsum(expected) / 50.0
    numpy.testing.assert_allclose(numpy.asarray(a), expected, rtol=1e-12)
    assert stats.steps_aside > steps
    assert stats.tasks_seen - seen < 6 * AFTER  # the tasks run while aside are not seen
    # Arrays created while aside bring the plugin back: fusible work is fused again. (Each
    # time it came back and stepped aside again in the stream above, the wait doubled.)
    for _ in range(MOST_COME_BACK_FACTOR * AFTER):
        num.zeros(4)
        if not stepping.step_aside.aside:
            break
    launches = stats.fused_launches
    b = num.array(values)
    numpy.testing.assert_array_equal(numpy.asarray((b * 2.0 + 1.0) * b),
                                     (values * 2.0 + 1.0) * values)
    assert not stepping.step_aside.aside
    assert stats.fused_launches > launches


def test_a_program_that_fuses_now_and_then_does_not_step_aside(stepping: Session) -> None:
    values = numpy.linspace(-1.0, 1.0, 100)
    a, b = num.array(values), num.array(values)
    steps = stepping.stats.steps_aside
    for _ in range(8):
        b = (b * 0.5 + 1.0) * b  # fused: launched when the next scan flushes the window
        for _ in range(AFTER // 4):  # two tasks built at once each, and one recorded
            a = num.cumsum(a) / 50.0
    numpy.asarray(a)
    assert stepping.stats.steps_aside == steps


def test_only_cupynumeric_gets_legates_own_tasks_while_aside(stepping: Session) -> None:
    a, out = num.array(numpy.arange(10.0)), num.zeros(10)
    stepping.step_aside.begin()
    build = as_cupynumeric("def build(a, out):\n"
                           "    return add_task(get_legate_runtime(), out, a, a)\n", "build")
    from_cupynumeric = build(a, out)
    assert not isinstance(from_cupynumeric, AutoTaskProxy | LazyAutoTask)
    from_elsewhere = add_task(get_legate_runtime(), out, a, a)
    # Through the plugin, built at once: aside, nothing is recorded to be held.
    assert isinstance(from_elsewhere, AutoTaskProxy)
    from_cupynumeric.execute()
    from_elsewhere.execute()  # not held while aside: it runs at once
    assert len(stepping.window) == 0
    numpy.testing.assert_array_equal(numpy.asarray(out), numpy.arange(10.0) * 2)


def test_a_task_recorded_before_stepping_aside_runs_at_once(stepping: Session) -> None:
    a, out = num.array(numpy.arange(10.0)), num.zeros(10)
    task = add_task(get_legate_runtime(), out, a, a)
    assert isinstance(task, LazyAutoTask)  # recorded while fusing
    stepping.step_aside.begin()
    task.execute()  # submitted aside: not held
    assert len(stepping.window) == 0
    numpy.testing.assert_array_equal(numpy.asarray(out), numpy.arange(10.0) * 2)


def test_no_task_is_held_while_cupynumeric_may_still_build_one_of_legates(
        stepping: Session) -> None:
    # A function of cuPyNumeric is given Legate's own task; the plugin comes back while it
    # builds it (the array counter fires in the middle), and the program's next operation runs
    # before that task is submitted: it must run first, not be held behind it.
    a, out = num.array(numpy.arange(10.0)), num.zeros(10)
    stepping.step_aside.begin()
    build = as_cupynumeric(
        "def build(a, out, step_aside, meanwhile):\n"
        "    task = get_legate_runtime().create_auto_task(out._thunk.library, BINARY_OP)\n"
        "    step_aside.come_back()\n"
        "    meanwhile()\n"
        "    add_arguments(task, out, a, a).execute()\n", "build")

    def meanwhile() -> None:
        a[:] = a + 1.0
        assert len(stepping.window) == 0

    build(a, out, stepping.step_aside, meanwhile)
    numpy.testing.assert_array_equal(numpy.asarray(out), (numpy.arange(10.0) + 1.0) * 2)
    b = a * 3.0  # the function has returned: tasks are held again
    assert len(stepping.window) == 1
    numpy.testing.assert_array_equal(numpy.asarray(b), (numpy.arange(10.0) + 1.0) * 3)


def test_a_library_whose_lifting_says_so_gets_legates_own_tasks_while_aside(
        stepping: Session) -> None:
    # legate_csr's lifting declares that its package builds each task within one call
    # (`tasks_built_in_one_call`): aside, its products go to Legate unseen, as cuPyNumeric's
    # tasks do; without the declaration, each would pass through the plugin's proxy.
    import scipy.sparse

    import legate_csr

    matrix = scipy.sparse.random(60, 60, density=0.2, format="csr", random_state=3)
    product = legate_csr.csr_array(matrix)
    x = numpy.linspace(-1.0, 1.0, 60)
    numpy.asarray(product @ num.array(x))  # the library's first task loads its lifting
    stepping.step_aside.begin()
    seen = stepping.stats.tasks_seen
    for _ in range(3):
        y = product @ num.array(x)
    numpy.testing.assert_allclose(numpy.asarray(y), matrix @ x, rtol=1e-12)
    assert stepping.step_aside.aside
    assert stepping.stats.tasks_seen == seen
