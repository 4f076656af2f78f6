"""The functions that received a task without a proxy (capture/direct_tasks.py): remembered while
they run, forgotten once they return, and never mistaken for another call of the same function."""

from __future__ import annotations

import gc
import sys
import weakref
from collections.abc import Iterator

import pytest

from legate_fuse.capture.direct_tasks import DirectTasks, frames_counted_as_assumed


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
    assert direct.frames == []  # forgotten once found not running


def test_a_new_call_of_the_same_function_is_not_taken_for_one_that_returned() -> None:
    direct = DirectTasks()

    def builder(hand_out: bool) -> bool:
        if hand_out:
            direct.handed_to(sys._getframe())
        return direct.being_built()

    assert builder(True)
    for _ in range(100):  # frame objects come and go at the same addresses
        assert not builder(False)


def test_a_returned_functions_variables_are_freed_at_the_next_look() -> None:
    direct = DirectTasks()

    def builder() -> weakref.ref[Task]:
        task = Task()
        direct.handed_to(sys._getframe())
        return weakref.ref(task)

    task = builder()
    assert task() is not None  # kept by the frame until the plugin looks again
    direct.being_built()
    assert task() is None


def test_this_interpreter_counts_a_running_functions_frame_as_assumed() -> None:
    assert frames_counted_as_assumed()
    assert DirectTasks().enabled


def test_remembering_them_leaves_no_reference_cycle(garbage: list[object]) -> None:
    """A frame kept after its function returned refers to its caller's frame: once dropped,
    nothing of the program (stores among it) is left for the cyclic collector, which may run
    on any thread."""
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
    direct.being_built()
    gc.collect()
    assert [o for o in garbage if isinstance(o, Task)] == []


def test_a_returned_function_whose_frame_a_traceback_keeps_is_not_taken_for_running() -> None:
    direct = DirectTasks()

    def builder() -> None:
        direct.handed_to(sys._getframe())
        raise ValueError("as a cuPyNumeric function rejecting its arguments")

    try:
        builder()
    except ValueError as error:
        kept = error  # the program keeps the exception, its traceback and the builder's frame
    assert not direct.being_built()
    assert kept.__traceback__ is not None
