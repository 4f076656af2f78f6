"""Tasks handed to cuPyNumeric as Legate built them, without a proxy, while fusion does not pay
(mode/payoff.py): then a task costs the program what it costs without the plugin.

Nothing is held while fusion does not pay, so such a task may run whenever it is submitted. The
plugin does not see it submitted (Legate's AutoTask is a Cython class: its `execute` cannot be
intercepted), and may hold tasks again only once no such task can still be submitted: one
submitted later would run before held tasks the program submitted earlier.

So a task goes out without a proxy only to a package known to build each task and submit it
within one function call, with the task in a local variable of that function, never returned
or stored elsewhere, and not in a generator: cuPyNumeric (checked against cuPyNumeric 26.06's
sources, where all 75 functions that create a task do so, none a generator), and the packages a
library's lifting names in `tasks_built_in_one_call` (lift/protocol.py), from the time its
lifting is loaded (at the library's first task: its first calls get the proxy). Such a task
can only still be unsubmitted while the function that received it runs: `DirectTasks`
remembers those functions' frames, and holding resumes at a read only when none of them is
running on any thread (found by walking the threads' stacks). Anyone else gets the proxy.
Keeping a reference to each task instead, to see when it is submitted, measured slower than
the proxy: Legate's tasks are then freed later than cuPyNumeric drops them.

A frame is remembered by its id() and its code object's, not referenced: a reference would
keep its variables, the task among them, alive after the function returns. (The walk itself
creates frame objects, which may take the memory of a frame that returned: with the code's id
as well, only a later call of the same function can be mistaken for it, which only delays
holding to a later read.)
"""

from __future__ import annotations

import sys
from types import FrameType

# Top-level packages whose code creates each task, submits it and drops it within one call:
# cuPyNumeric's, known before its lifting is loaded (cuPyNumeric takes its runtime object once,
# while it imports), and those liftings declare (`note_built_in_one_call`).
BUILT_IN_ONE_CALL = {"cupynumeric"}
# Frames remembered before those no longer running are dropped (a program that builds tasks
# at once for a long time, holding none).
_PRUNE_AT = 256


def builds_in_one_call(frame: FrameType | None) -> bool:
    """Whether the function running in `frame` belongs to a package of BUILT_IN_ONE_CALL."""
    module = frame.f_globals.get("__name__", "") if frame is not None else ""
    return isinstance(module, str) and module.partition(".")[0] in BUILT_IN_ONE_CALL


def note_built_in_one_call(packages: object) -> None:
    """A lifting declares that the code of `packages` (top-level package names) builds each of
    its library's tasks within one call; anything but a tuple or list of names is an error."""
    if not isinstance(packages, tuple | list) or not all(
            isinstance(name, str) and name and "." not in name for name in packages):
        raise TypeError("tasks_built_in_one_call must be a tuple of top-level package names, "
                        f"not {packages!r}")
    BUILT_IN_ONE_CALL.update(packages)


class DirectTasks:
    """The frames of the functions that received a task without a proxy: (id of the frame, id
    of its code object)."""

    def __init__(self) -> None:
        self.frames: set[tuple[int, int]] = set()
        # Of those, the frames kept alive (handed_to_every_running), by their key in `frames`.
        self._kept: dict[tuple[int, int], FrameType] = {}

    def handed_to(self, frame: FrameType) -> None:
        """A task went out, without a proxy, to the function running in `frame`."""
        self.frames.add((id(frame), id(frame.f_code)))
        if len(self.frames) >= _PRUNE_AT:
            self.being_built()

    def handed_to_every_running(self) -> None:
        """Every function of BUILT_IN_ONE_CALL running on any thread may have received a task
        without a proxy (the plugin stood aside: step_aside.py). These frames are kept, not
        only known by id, until they are off every stack: the walk that finds them gives each
        a frame object, and one freed at return would leave its address to the next call of
        the same function, which, for a function called for every operation, would be taken
        for it for ever. Kept, a frame's variables outlive its return until the next check."""
        frame: FrameType | None
        for frame in sys._current_frames().values():
            while frame is not None:
                if builds_in_one_call(frame):
                    key = (id(frame), id(frame.f_code))
                    self.frames.add(key)
                    self._kept[key] = frame
                frame = frame.f_back

    def being_built(self) -> bool:
        """Whether a function that received a task without a proxy may still be building it:
        its frame is on a thread's stack. Forgets the frames that are not."""
        if not self.frames:
            return False
        running: set[tuple[int, int]] = set()
        # No variable may refer to a frame when this returns: this function's own frame is
        # among them, and a frame referred to when its function returns keeps its variables
        # and its caller's frame (a reference cycle, through the program's objects).
        frame: FrameType | None
        for frame in sys._current_frames().values():
            while frame is not None:
                running.add((id(frame), id(frame.f_code)))
                frame = frame.f_back
        self.frames &= running
        if self._kept:
            self._kept = {key: kept for key, kept in self._kept.items() if key in self.frames}
        return bool(self.frames)
