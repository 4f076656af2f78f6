"""Tasks handed to cuPyNumeric as Legate built them, without a proxy, while fusion does not pay
(window/payoff.py): then a task costs the program what it costs without the plugin.

Nothing is held while fusion does not pay, so such a task may run whenever it is submitted. The
plugin does not see it submitted (Legate's AutoTask is a Cython class: its `execute` cannot be
intercepted), and may hold tasks again only once no such task can still be submitted: one
submitted later would run before held tasks the program submitted earlier.

So a task goes out without a proxy only to a module known to build each task and submit it
within one function call, with the task in a local variable of that function, never returned
or stored elsewhere (`BUILT_IN_ONE_CALL`: checked against cuPyNumeric 26.06's sources, where
all 62 calls that create an AutoTask do so). Such a task can only still be unsubmitted while
that function runs, with the task in its variables: fusion resumes at a read only when no
running function of any thread has one (`task_being_built`); anyone else gets the proxy.
Keeping a reference to each task instead, to see when it is submitted, measured slower than
the proxy: Legate's tasks are then freed later than cuPyNumeric drops them.
"""

from __future__ import annotations

import sys
from types import FrameType

# Modules (and their submodules) that create each task, submit it and drop it within one call.
BUILT_IN_ONE_CALL = ("cupynumeric",)


def builds_in_one_call(frame: FrameType | None) -> bool:
    """Whether the function running in `frame` belongs to a module of BUILT_IN_ONE_CALL."""
    module = frame.f_globals.get("__name__", "") if frame is not None else ""
    return isinstance(module, str) and module.partition(".")[0] in BUILT_IN_ONE_CALL


def task_being_built(task_type: type | None = None) -> bool:
    """Whether a running function of any thread has a `task_type` (Legate's AutoTask) in a
    local variable."""
    if task_type is None:
        from legate.core import AutoTask as task_type
    for frame in sys._current_frames().values():
        current: FrameType | None = frame
        while current is not None:
            if any(type(value) is task_type for value in current.f_locals.values()):
                return True
            current = current.f_back
    return False
