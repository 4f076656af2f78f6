"""Turns a flushed window into a plan: lifting, the compact encoding, and one call to `_core`."""

from __future__ import annotations

import logging
import sys
from collections.abc import Callable, Container, Sequence
from dataclasses import dataclass, field
from typing import Any

from legate_fuse import _core
from legate_fuse.backend.launch import runs_one_point
from legate_fuse.capture.call_sites import CallSites, Outcome
from legate_fuse.capture.task_record import TaskRecord
from legate_fuse.counters import Stats
from legate_fuse.lift import READ, WRITE, LiftedArg, LiftedTask, lift, task_name
from legate_fuse.plan.launch_steps import Step, Steps
from legate_fuse.plan.replay import Encoding, Encodings, Stream, held_by_number, read_stream
from legate_fuse.plan.summary import PlanSummary, format_plan
from legate_fuse.stage_clock import StageClock
from legate_fuse.window.liveness import ArrayTracker, foreign_references
from legate_fuse.window.recycling import StoreRecycler

logger = logging.getLogger("legate_fuse")


@dataclass
class PlannedWindow:
    records: list[TaskRecord]
    labels: tuple[str, ...]  # each task's operation (task_label)
    # LogicalStores, in first-appearance order (the plan's store indices), those of the tasks
    # held back after a cut included.
    stores: list[Any]
    descriptions: list[str]  # Legate's description of each store
    plan: _core.Plan
    steps: tuple[Step, ...]  # the plan's groups, as launched
    cache_hit: bool
    # Numbers of the stores of the temporaries left unallocated by the fused tasks launched.
    unallocated: list[int] = field(default_factory=list)
    # Numbers of the tasks the fused tasks launched ran, and the stores those wrote.
    fused_tasks: list[int] = field(default_factory=list)
    written: list[Any] = field(default_factory=list)


@dataclass
class EncodedWindow:
    """A window in the form the analysis takes (ir/window.h), with what the program can reach
    (the roots of the arrays it holds, and the window's stores it refers to otherwise): the one
    input of every liveness decision (temporaries, dead tasks, where to cut)."""

    encoding: Encoding  # of the window's stream: the same for every window with it
    stores: list[Any]
    descriptions: list[str]
    live: list[int]  # the numbers of the window's stores referenced from outside it
    # Root keys of the stores of the arrays the program holds, but those over the window's own
    # stores (they are in `live` when the program holds them).
    live_roots: set[str]
    # Root keys over memory not Legate's own (None: every root's is such).
    foreign_roots: Container[str] | None = None


class Planner:
    def __init__(self, stats: Stats, tracker: ArrayTracker, log_plans: bool = False,
                 clock: StageClock | None = None, call_sites: CallSites | None = None,
                 recycler: StoreRecycler | None = None,
                 foreign_roots: Callable[[], Container[str]] | None = None) -> None:
        self.stats = stats
        # The roots whose memory the plan must never hand to another array (None: every root).
        self.foreign_roots = foreign_roots
        # Holds a reference to each store created since the last flush (counted below).
        self.recycler = recycler or StoreRecycler()
        # Told what became of each record, so that sites whose tasks never fuse are not
        # recorded.
        self.call_sites = call_sites or CallSites(stats, enabled=False)
        self.clock = clock or StageClock(stats.stage_seconds, enabled=False)
        self.tracker = tracker
        self.log_plans = log_plans
        self.analyzer = _core.Analyzer()
        self.encodings = Encodings()
        self.steps = Steps()
        self._op_ids: dict[str, int] = {}
        # The encoding choose_cut made of a full window, for plan() to reuse: the window runs
        # its first part right after the cut is chosen, with the same records and no program
        # code in between (so the same stores, reachable from the same places).
        self._cut_window: tuple[list[TaskRecord], EncodedWindow] | None = None
        self.listeners: list[Callable[[PlanSummary], None]] = []

    def op_id(self, op: str) -> int:
        found = self._op_ids.get(op)
        if found is None:  # the analysis numbers operations; looked up here once per name
            found = self._op_ids[op] = self.analyzer.op_id(op)
        return found

    def lifted_form(self, record: TaskRecord) -> LiftedTask | None:
        """The record's lifted form, lifted once (a cut window plans its tasks twice)."""
        if record.lifted is None:
            task = lift(record)
            record.lifted = (task,)
            self._note_site(record, task is not None)
        return record.lifted[0]

    def _note_site(self, record: TaskRecord, lifted: bool) -> None:
        """Tells the call sites of a record that did not lift, once per record (one that did
        is told whether it fused when its window is planned: _note_planned_sites)."""
        if not lifted:
            self.call_sites.note(record.library_name, record.task_id, record.site,
                                 Outcome.NOT_LIFTED)
            record.site = None

    def _note_planned_sites(self, records: Sequence[TaskRecord],
                            steps: Sequence[Step] = ()) -> None:
        """Tells the call sites whether each lifted record of a planned window was fused
        (none was when the window was not worth planning). A record has a site only when its
        kind is watched; one of a kind not watched yet that was not fused makes it watched."""
        sites = self.call_sites
        fused: set[int] = set()
        for step in steps:
            fused.update(step.dead_tasks)
            if step.kind == "fused" and not step.kernel_error:  # (a task of draws has none)
                fused.update(step.tasks)
        for number, record in enumerate(records):
            site, kind = record.site, (record.library_name, record.task_id)
            if site is None and (number in fused or not record.lazy or kind in sites.watched
                                 or kind in sites.watched_alone):
                continue  # nothing to learn
            sites.note(record.library_name, record.task_id, site,
                       Outcome.FUSED if number in fused else Outcome.ALONE)
            record.site = None

    def lifted_flags(self, records: Sequence[TaskRecord]) -> tuple[bool, ...]:
        """Whether each record lifted, for a window `plan` found not worth planning: from the
        encoding of its stream when one is known, else lifting each (once per record)."""
        encoding = self.encodings.get(read_stream(records))
        if encoding is not None:
            return encoding.lifted
        return tuple(self.lifted_form(record) is not None for record in records)

    def choose_cut(self, records: Sequence[TaskRecord], earliest: int) -> int:
        """How many leading tasks of a full window to run (analysis/cut.h); all of them when
        fewer than two of its tasks are lifted."""
        window = self.encode(records)
        if window is None:
            return len(records)
        self._cut_window = (list(records), window)
        with self.clock.stage("analysis"):
            return self.analyzer.choose_cut(window.descriptions, window.live,
                                            window.encoding.tasks, earliest,
                                            live_roots=window.live_roots)

    def plan(self, records: list[TaskRecord], later: Sequence[TaskRecord] = (),
             spares: Sequence[Any] = ()) -> PlannedWindow | None:
        """The plan of `records`, None when it would run them as built anyway. `later`: tasks
        that stay held and run after them (a cut window); the analysis plans the first part of
        the window they form together, so what the later tasks touch is live, as whatever else
        the program reaches. `spares`: whole stores of arrays an earlier window let go, whose
        memory the window's arrays may take (numbered after the window's own)."""
        # Taken first, whatever happens next: it holds references to the window's stores.
        cut_window, self._cut_window = self._cut_window, None
        window = self._encoding_of([*records, *later], cut_window, len(records))
        if window is None:
            if self.call_sites.enabled:
                self._note_planned_sites(records)
            return None
        stores, descriptions = window.stores, window.descriptions
        if spares:
            stores = [*stores, *spares]
            descriptions = [*descriptions, *(str(spare) for spare in spares)]
        with self.clock.stage("analysis"):
            plan, hit = self.analyzer.analyze(descriptions, window.live, window.encoding.tasks,
                                              prefix=len(records), live_roots=window.live_roots,
                                              foreign_roots=window.foreign_roots,
                                              spares=len(spares), one_point=runs_one_point())
            labels = window.encoding.labels[:len(records)]
            steps = self.steps.of(plan, labels, len(records))
        if self.call_sites.enabled:
            self._note_planned_sites(records, steps)
        self.stats.windows_planned += 1
        self.stats.plan_cache_hits += int(hit)
        planned = PlannedWindow(records, labels, stores, descriptions, plan, steps, hit)
        if self.log_plans:
            print(format_plan(planned), file=sys.stderr, flush=True)
        if self.listeners:
            summary = PlanSummary.of(planned)
            for listener in self.listeners:
                listener(summary)
        return planned

    def _encoding_of(self, records: list[TaskRecord],
                     cut_window: tuple[list[TaskRecord], EncodedWindow] | None, prefix: int
                     ) -> EncodedWindow | None:
        """The encoding of `records`: choose_cut's when it encoded these very records."""
        if cut_window is not None:
            encoded_records, window = cut_window
            if len(encoded_records) == len(records) and all(
                    a is b for a, b in zip(encoded_records, records, strict=True)):
                return window if window.encoding.worth_planning(records, prefix) else None
        return self.encode(records, prefix)

    def encode(self, records: Sequence[TaskRecord], prefix: int | None = None
               ) -> EncodedWindow | None:
        """The task encoding of ir/window.h, stores numbered by first appearance, and the
        stores the program can reach: the live arrays' and those referenced from outside the
        window's records. None when fewer than two of the first `prefix` records (all by
        default) are lifted: fusion could not change how they run, and they run as built
        without their stores being described (which costs Legate work) or the window
        analysed; a lifted task alone runs as cuPyNumeric built it, even where nothing
        observes its result."""
        with self.clock.stage("lift"):
            stream = read_stream(records)
            encoding = self.encodings.get(stream)
            if encoding is None:
                encoding = self._encoding(records, stream)
                stream.lifted = True  # (the records hold their lifted forms now)
                self.encodings.remember(stream, encoding)
            elif self.call_sites.watched:  # a stream seen before: nothing is lifted (a
                # record has a call site only when its kind is watched)
                for record, lifted in zip(records, encoding.lifted, strict=True):
                    if record.site is not None:
                        self._note_site(record, lifted)
            if not encoding.worth_planning(records, prefix):
                return None
        with self.clock.stage("encode"):
            return self._described(records, stream, encoding)

    def _encoding(self, records: Sequence[TaskRecord], stream: Stream) -> Encoding:
        """Lifts `records` and encodes their stream."""
        lifted = [self.lifted_form(record) for record in records]
        index = stream.index
        encoded: list[int] = []
        for record, task in zip(records, lifted, strict=True):
            if task is not None:
                args: Sequence[LiftedArg] = task.args
                # ir::decode_tasks
                flags = int(task.aligned) | 2 * int(task.fused_alone) | 4 * int(task.draws)
                encoded += (self.op_id(task.op), flags, len(args))
            else:  # opaque: which roots it touches, and which it may write
                args = opaque_args(record)
                encoded += (-1, 0, len(args))
            for arg in args:
                encoded += (index[id(arg.store)], arg.privilege, arg.redop)
        labels = tuple(task_label(r, t) for r, t in zip(records, lifted, strict=True))
        return Encoding(_core.TaskEncoding(encoded, len(stream.stores)), labels,
                        tuple(task is not None for task in lifted),
                        tuple(held_by_number(records, stream)))

    def _described(self, records: Sequence[TaskRecord], stream: Stream, encoding: Encoding
                   ) -> EncodedWindow:
        """The window's stores described, and which of them the program reaches."""
        stores, index = stream.stores, stream.index
        # An array over one of the window's own stores makes it live through its reference
        # (foreign_references below): only the other arrays' roots are needed.
        live_roots = self.tracker.live_roots(referenced=index)
        descriptions = [str(store) for store in stores]
        held = list(encoding.held)
        for record in records if stream.lifted else ():  # a lifted form holds its
            if record.lifted is not None and record.lifted[0] is not None:  # stores too
                for arg in record.lifted[0].args:
                    held[index[id(arg.store)]] += 1
        for number in self.recycler.held_numbers(index):
            held[number] += 1
        foreign = self.foreign_roots() if self.foreign_roots is not None else None
        return EncodedWindow(encoding, stores, descriptions, foreign_references(stores, held),
                             live_roots, foreign)


def opaque_args(record: TaskRecord) -> list[LiftedArg]:
    """An opaque task's stores as arguments: read if it takes them as inputs, else written."""
    written = opaque_writes(record)
    return [LiftedArg(store, WRITE if written is None or id(store) in written else READ)
            for store in record.stores]


def opaque_writes(record: TaskRecord) -> set[int] | None:
    """id() of the stores an opaque task may write: every store it touches that it does not
    take as an input; None (all of them) when its arguments are unknown."""
    if not record.args:
        return None
    inputs = {id(arg.store) for arg in record.args if arg.kind == "add_input"}
    return {id(store) for store in record.stores if id(store) not in inputs}


def task_label(record: TaskRecord, task: LiftedTask | None) -> str:
    if task is not None:
        return task.op
    return f"opaque {task_name(record)}"
