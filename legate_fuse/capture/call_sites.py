"""Call sites whose tasks gain nothing from being recorded: their next tasks are built at once.

A task of a kind the lifting knows is recorded and built only if it runs unfused
(lazy_task.py). Recording it, then building it by replaying the calls, costs the program tens of
microseconds more than building it at once; that is repaid only when the task is fused. Some
tasks never are:

- not lifted: an isclose (its tolerances are run-time values of another type than its
  operands), a complex function;
- lifted but alone: a task every plan runs by itself, e.g. each copy of a `concatenate` (each
  writes another slice of the result), or an operation that divides by a reduction just held.

A line of the program issues the same operations each time it runs, so the plugin remembers,
per call site and task kind, what became of its tasks:

- a site is the program's instruction that called into cuPyNumeric (the first frame outside
  Legate, cuPyNumeric and this plugin: its code object and instruction offset), with the
  library and task id of the task; one call that issues several tasks has one site per kind;
- once a task of a site is fused (or dropped as dead), the site's tasks are always recorded;
- while none is, each recorded task of the site that is not fused builds the next ones at
  once: 1, then 2, 4, ... up to `LONGEST_RUN` tasks, after which one is recorded again to see
  whether it still is not fused (a helper called first on complex, then on float data, is
  recorded again after at most `LONGEST_RUN` tasks built at once);
- a site whose tasks were lifted but alone is built at once only when nothing is held: a task
  built at once runs what is held first (proxies.py), which would cut the window where it is
  created; at the start of a window, nothing is cut.

Finding the site reads two of the caller's frames at a remembered depth (about a microsecond),
so it is done only for task kinds of which a task was not lifted, or, where nothing is held,
of which a lifted task ran alone: a program whose tasks all fuse pays nothing for this. Turned
off by LEGATE_FUSE_SITES=0: every task of a kind the lifting knows is recorded.
"""

from __future__ import annotations

import enum
import sys
from types import CodeType, FrameType
from typing import Any

from legate_fuse.counters import Stats

# Most tasks of a site built at once before one is recorded again.
LONGEST_RUN = 128
# Sites remembered; past this many (a program generating code?), forgotten and learned again.
MOST_SITES = 4096
# Modules whose frames are not the program's: the call site is the first frame outside them.
LIBRARY_PACKAGES = frozenset({"legate", "cupynumeric", "legate_fuse"})

Site = tuple[int, int, str, int]  # id(code), instruction offset, library, task id


class Outcome(enum.Enum):
    """What became of a recorded task, as its window ran."""

    NOT_LIFTED = "not lifted"
    ALONE = "lifted, run alone"
    FUSED = "fused"  # or dropped: nothing observed its result


class _LibraryModules(dict[Any, bool]):
    """Module name -> whether it is Legate's, cuPyNumeric's or this plugin's. A name seen
    before costs a dictionary lookup, without a call (the common case: `__missing__` runs once
    per module)."""

    def __missing__(self, module: Any) -> bool:
        inside = self[module] = str(module).partition(".")[0] in LIBRARY_PACKAGES
        return inside


class CallSites:
    def __init__(self, stats: Stats, enabled: bool = True) -> None:
        self.stats = stats
        self.enabled = enabled
        # (library, task id) of which a task was not lifted: only their sites are looked up;
        # and of which a lifted task ran alone: looked up only where nothing is held (the only
        # place a task of such a site is built at once).
        self.watched: set[tuple[str, int]] = set()
        self.watched_alone: set[tuple[str, int]] = set()
        # Site -> [tasks still to build at once, length of the last run, 1 if its last task
        # recorded was lifted (built at once only when nothing is held)]; None once fused.
        self._sites: dict[Site, list[int] | None] = {}
        # Which frames run a library's code, by the name of their module (frame.f_globals).
        self._in_library = _LibraryModules()
        # Depths of the program's frame from site_of_caller, per library function creating
        # tasks (id of its code object).
        self._depths: dict[int, list[int]] = {}
        # Every code object known by id (those creating tasks, those of the program's frames
        # at a site), kept so that no id is reused while it is a key.
        self._codes: dict[int, CodeType] = {}

    def site_of_caller(self, library_name: str, task_id: int, creator: int = 2) -> Site | None:
        """The program's call site of the task its caller is creating (None if every frame
        is a library's, e.g. a task created at exit). `creator`: the depth, from here, of the
        library function creating it (its caller's caller by default)."""
        # Reaching a frame through f_back makes Python build a frame object for each frame
        # passed (a cuPyNumeric call is about ten frames deep), while sys._getframe(n) builds
        # only the one it returns: the depth of the program's frame is remembered per library
        # function creating the task (sys._getframe(creator)), and checked on the frame object
        # of that depth and of the one it called, which must be a library's.
        in_library = self._in_library
        try:
            creator_code = sys._getframe(creator).f_code
        except ValueError:  # called from the top of the stack: no library function
            return None
        frame: FrameType | None = None
        for depth in self._depths.get(id(creator_code), ()):
            try:
                callee = sys._getframe(depth - 1)
            except ValueError:  # the stack is not that deep
                continue
            caller = callee.f_back
            if (caller is not None and in_library[callee.f_globals.get("__name__")]
                    and not in_library[caller.f_globals.get("__name__")]):
                frame = caller
                break
        if frame is None:  # the first task of this function, or reached in another way
            depth, frame = creator, sys._getframe(creator)
            while frame is not None and in_library[frame.f_globals.get("__name__")]:
                depth, frame = depth + 1, frame.f_back
            if frame is None:
                return None
            self._remember_depth(creator_code, depth)
        code = frame.f_code
        self._codes[id(code)] = code  # the site's key has its id
        return (id(code), frame.f_lasti, library_name, task_id)

    def _remember_depth(self, creator: CodeType, depth: int) -> None:
        if len(self._codes) >= MOST_SITES:  # forgotten together: the ids are their keys
            self._codes.clear()
            self._depths.clear()
            self._sites.clear()
        depths = self._depths.get(id(creator))
        if depths is None:
            depths = self._depths[id(creator)] = []
            self._codes[id(creator)] = creator
        if len(depths) < 4:  # a function reached from the program in different ways
            # Shallowest first: the first match is the first frame outside the libraries.
            depths.append(depth)
            depths.sort()

    def build_at_once(self, site: Site | None, nothing_held: bool) -> bool:
        """Whether the task created at `site` is to be built at once (counts it);
        `nothing_held`: whether the window is empty."""
        state = self._sites.get(site) if site is not None else None
        if state is None or state[0] == 0 or (state[2] and not nothing_held):
            return False
        state[0] -= 1
        self.stats.tasks_built_at_once += 1
        return True

    def note(self, library_name: str, task_id: int, site: Site | None,
             outcome: Outcome) -> None:
        """What became of a recorded task of `site`: not lifted (planned as opaque, or given a
        call that made it be built while it was recorded), lifted but run alone, or fused."""
        if not self.enabled:
            return
        if outcome is Outcome.FUSED:
            if site is not None:
                self._sites[site] = None
            return
        lifted = int(outcome is Outcome.ALONE)
        (self.watched_alone if lifted else self.watched).add((library_name, task_id))
        if site is None:
            return
        if site not in self._sites:
            if len(self._sites) >= MOST_SITES:
                self._sites.clear()
            self._sites[site] = [1, 1, lifted]
            return
        state = self._sites[site]
        if state is not None:  # a run of tasks built at once ended with one not fused
            state[1] = min(2 * state[1], LONGEST_RUN)
            state[0] = state[1]
            state[2] = lifted

    def state(self, site: Site) -> Any:
        """What is known of `site` (for tests): None once fused, else [to build at once,
        length of the last run, whether lifted]; KeyError if nothing."""
        return self._sites[site]
