"""The functions that received a task without a proxy (capture/direct_tasks.py): remembered while
they run, forgotten once they return, and looked for without leaving anything behind."""

from __future__ import annotations

import gc
import sys
from collections.abc import Iterator

import pytest

from legate_fuse.capture.direct_tasks import DirectTasks


class Task:  # stands for Legate's AutoTask, held in a local variable of its builder
    pass


@pytest.fixture
def garbage() -> Iterator[list[object]]:
    """What the cyclic collector finds during the test (nothing is freed by it meanwhile)."""
    gc.collect()
    gc.disable()
    gc.set_debug(gc.DEBUG_SAVEALL)
    try:
        yield gc.garbage
    finally:
        gc.set_debug(0)
        gc.garbage.clear()
        gc.enable()


def test_a_function_given_a_task_is_being_built_until_it_returns() -> None:
    direct = DirectTasks()

    def builder() -> bool:
        task = Task()  # noqa: F841  (as cuPyNumeric holds the task it builds)
        direct.handed_to(sys._getframe())
        return direct.being_built()

    assert builder()
    assert not direct.being_built()
    assert direct.frames == set()  # forgotten once found not running


def test_looking_for_them_leaves_no_reference_cycle(garbage: list[object]) -> None:
    """The walk meets its own frame: were a variable still to refer to a frame when it
    returns, that frame would keep its callers' frames and their variables (the program's
    stores among them) for the cyclic collector, which may run on any thread."""
    direct = DirectTasks()

    def builder() -> None:
        task = Task()  # noqa: F841
        direct.handed_to(sys._getframe())
        direct.being_built()

    def caller() -> None:
        held = Task()  # noqa: F841  (as a store the program holds)
        builder()
        direct.being_built()

    caller()
    gc.collect()
    assert [o for o in garbage if isinstance(o, Task)] == []
