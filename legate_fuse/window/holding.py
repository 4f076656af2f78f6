"""The window: tasks held back, in program order, until something needs them to have run.

Pure Python and independent of Legate, so its rules are unit-tested without a runtime: a held
task only needs `execute()`, and the stores it touches only need `overlaps(other)`.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from typing import Any

from legate_fuse.capture.task_record import TaskRecord
from legate_fuse.counters import Stats
from legate_fuse.stage_clock import StageClock
from legate_fuse.window.recycling import StoreRecycler

logger = logging.getLogger("legate_fuse")


# How many leading records of a full window to run (see src/cpp/analysis/cut.h); all without.
CutChooser = Callable[[Sequence[TaskRecord]], int]

# Executes a flushed batch of records, in order. Pass-through executes each task as built;
# the fusion pipeline replaces it.
BatchExecutor = Callable[[Sequence[TaskRecord]], None]


def execute_in_order(records: Sequence[TaskRecord]) -> None:
    """Runs every task, as built, in program order; re-raises the first error after all ran.

    The program issued every held task before the flush, so all of them run even if an earlier
    one fails, as they would have without the window.
    """
    first_error: BaseException | None = None
    for record in records:
        try:
            record.task.execute()
        except BaseException as error:
            if first_error is None:
                first_error = error
    if first_error is not None:
        raise first_error


def release_in_program_order(records: list[TaskRecord]) -> None:
    """Drops the references to a window's records, first to last, so that the stores only they
    hold are freed in the order the program made them. Legate recycles freed fields first-in,
    first-out, each with the memory it holds: the next stores of the same shape then take them
    in the same order (a temporary the field of a temporary, a result the field of a result,
    which has memory already), as without the plugin. Freed last to first (the order in which
    CPython drops a list's items), a temporary never written takes the field of a result, and the
    next result gets a field without memory: new memory, first touched, at every window."""
    records.reverse()
    records.clear()


class Window:
    def __init__(
        self, capacity: int, stats: Stats, executor: BatchExecutor = execute_in_order,
        cut: CutChooser | None = None, clock: StageClock | None = None,
    ) -> None:
        if capacity < 1:
            raise ValueError(f"window capacity must be >= 1, got {capacity}")
        self.capacity = capacity
        self.stats = stats
        self.executor = executor
        self.cut = cut
        self.clock = clock or StageClock({}, enabled=False)
        # The held tasks, in program order: one list for the window's life, so that the hot
        # paths test it directly (`if window.tasks:`) without a call of `len(window)`.
        self.tasks: list[TaskRecord] = []
        # While a cut window runs: the records that stay held. They run later and may read
        # what the running part writes, through store objects of their own.
        self.held_back: Sequence[TaskRecord] = ()
        # Why the window is being flushed, while the executor runs it ("" otherwise).
        self.flush_reason = ""
        # The store the program created last, and how many tasks were held then: no task held
        # before a store was created can touch it (a new store has storage of its own), so
        # a fill that follows at once (cuPyNumeric zeroes every product's result, every
        # `zeros`) asks only the tasks held since. A reference, not an id(): a freed store's
        # id() is soon another store's, a view of an array held tasks may write. Dropped
        # whenever tasks leave the window, and at the first fill; never kept while no task is
        # held (there is nothing to ask then): a reference kept after the program let the
        # store go makes Legate give the next store of its shape a new field, and memory not
        # yet touched (a conversion built at once took 80 ms instead of 13 at 2e7 elements).
        self._created: tuple[Any, int] | None = None
        self.recycler = StoreRecycler(most_kept=capacity)  # (a window's temporaries, at most)

    def __len__(self) -> int:
        return len(self.tasks)

    @property
    def records(self) -> tuple[TaskRecord, ...]:
        return tuple(self.tasks)

    def hold(self, record: TaskRecord) -> None:
        self.stats.tasks_held += 1
        self.tasks.append(record)
        if len(self.tasks) >= self.capacity:
            self.flush_full()

    def flush_full(self) -> None:
        """Runs the leading tasks of a full window that the cut chooser picks (all of them
        without one); the others stay held, in order, ahead of the tasks still to come."""
        count = len(self.tasks)
        if self.cut is not None:
            try:
                count = min(max(1, self.cut(self.tasks)), len(self.tasks))
            except Exception as error:  # a cheaper window, never a broken program
                logger.warning("legate-fuse: choosing where to cut the window failed: %r", error)
        self._run("window_full", count)

    def touches(self, stores: Sequence[Any], since: int = 0) -> bool:
        """Whether any held task (from the `since`-th on) touches (overlaps) any of
        `stores`."""
        if len(self.tasks) <= since or not stores:
            return False
        # (Sliced only when needed: every runtime operation on a store asks from the first.)
        records = self.tasks[since:] if since else self.tasks
        return any(
            held.overlaps(store)
            for record in records
            for held in record.stores
            for store in stores
        )

    def created(self, store: Any) -> None:
        """`store` is new: no task held now touches it."""
        self._created = (store, len(self.tasks)) if self.tasks else None

    def held_since_created(self, store: Any) -> int:
        """How many of the held tasks, counted from the first, cannot touch `store`: those
        held before it was created, if it is the store created last; else none. Forgets that
        store."""
        created, self._created = self._created, None
        if created is not None and created[0] is store:
            return created[1]
        return 0

    def forget_created(self) -> None:
        self._created = None

    def flush(self, reason: str) -> None:
        """Executes every held task, in program order. An empty window is not counted."""
        if self.tasks:
            self._run(reason, len(self.tasks))
        else:  # the stores created since the last flush are the program's alone
            self.recycler.release_created()

    def _run(self, reason: str, count: int) -> None:
        """Executes the first `count` held tasks; the rest stay held, ahead of any the
        executor's work adds."""
        # Taken out first: anything the executor triggers sees an empty window.
        run, kept = self.tasks[:count], self.tasks[count:]
        self.tasks.clear()
        self._created = None  # (positions change)
        self.stats.flushes[reason] += 1
        logger.debug("flushing %d tasks (%d kept): %s", len(run), len(kept), reason)
        self.held_back, self.flush_reason = kept, reason
        try:
            self.executor(run)
        finally:
            self.held_back, self.flush_reason = (), ""
            self.tasks[:0] = kept
            with self.clock.stage("release"):
                release_in_program_order(run)
                self.recycler.window_flushed(kept)
