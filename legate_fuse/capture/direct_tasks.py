"""Tasks built at once (never fused: a kind no lifting knows, a call site whose tasks are not
lifted, every task while fusion does not pay) handed to cuPyNumeric as Legate built them, without
a proxy: such a task costs the program what it costs without the plugin.

What is held runs before such a task is created, so it may run whenever it is submitted. The
plugin does not see it submitted (Legate's AutoTask is a Cython class: its `execute` cannot be
intercepted), and may hold a task only once no such task can still be submitted: a held task
would run after one submitted later.

So a task goes out without a proxy only to a module known to build each task and submit it
within one function call, with the task in a local variable of that function, never returned
or stored elsewhere, and not in a generator (`BUILT_IN_ONE_CALL`: checked against cuPyNumeric
26.06's sources, where all 75 functions that create a task do so, none a generator). Such a task
can only still be unsubmitted while the function that received it runs, and a task submitted
meanwhile runs at once instead of being held (Session.submit_auto_task). Anyone else gets the
proxy.

Whether the function still runs is read from its frame object's reference count: while it runs,
the interpreter holds a reference to the frame object; once it returned, only `DirectTasks` does.
Interpreters that count otherwise are caught by a probe, and no task goes out without a proxy
there. Where something else refers to the frame object (a traceback the program keeps, a
debugger), the threads' stacks are walked for it. A returned function's frame keeps its
variables, the task among them, until it is dropped: at the next task handed out, held, or
flush. (Walking the stacks for frames known only by id took a new call of the same function,
whose frame object can reuse the memory of the one that returned, for the returned call: a task
of that function was never held again. A frame object kept here cannot be reused.)
"""

from __future__ import annotations

import sys
from types import FrameType

# Modules (and their submodules) that create each task, submit it and drop it within one call.
BUILT_IN_ONE_CALL = ("cupynumeric",)
# References to a remembered frame object once its function returned: the list's and
# sys.getrefcount's argument.
_RETURNED = 2


def builds_in_one_call(frame: FrameType | None) -> bool:
    """Whether the function running in `frame` belongs to a module of BUILT_IN_ONE_CALL."""
    module = frame.f_globals.get("__name__", "") if frame is not None else ""
    return isinstance(module, str) and module.partition(".")[0] in BUILT_IN_ONE_CALL


class DirectTasks:
    """The frame objects of the functions that received a task without a proxy, until they
    are seen to have returned."""

    def __init__(self) -> None:
        self.frames: list[FrameType] = []
        self.enabled = frames_counted_as_assumed()

    def takes(self, frame: FrameType) -> bool:
        """Whether the function running in `frame` may get a task without a proxy."""
        return self.enabled and builds_in_one_call(frame)

    def handed_to(self, frame: FrameType) -> None:
        """A task went out, without a proxy, to the function running in `frame`."""
        if self.frames:
            self.being_built()  # the functions given the previous tasks have returned
        self.frames.append(frame)

    def being_built(self) -> bool:
        """Whether a function that received a task without a proxy may still be building it.
        Drops the frames of those that returned (and with them their variables)."""
        frames = self.frames
        # Newest first: a returned callee's frame refers to its caller's (f_back).
        for i in range(len(frames) - 1, -1, -1):
            if sys.getrefcount(frames[i]) <= _RETURNED:
                del frames[i]
        if frames:
            self._drop_returned()
        return bool(frames)

    def _drop_returned(self) -> None:
        """Drops the frames on no thread's stack: their functions returned, though something
        else refers to their frame objects (a traceback kept by the program, a debugger).
        Exact: a frame object kept here cannot share its address with another."""
        running: set[int] = set()
        # No variable may refer to a frame when this returns: this function's own frame is
        # among them, and a frame referred to when its function returns keeps its variables
        # and its caller's frame (a reference cycle, through the program's objects).
        frame: FrameType | None
        for frame in sys._current_frames().values():
            while frame is not None:
                running.add(id(frame))
                frame = frame.f_back
        self.frames[:] = [kept for kept in self.frames if id(kept) in running]


def frames_counted_as_assumed() -> bool:
    """Whether this interpreter counts a running function's frame object as `being_built`
    assumes: one reference more while the function runs than once it returned."""
    probe = DirectTasks.__new__(DirectTasks)
    probe.frames = []

    def receiver() -> bool:
        probe.frames.append(sys._getframe())
        return probe.being_built()

    return receiver() and not probe.being_built()
