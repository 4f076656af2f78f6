"""Turns a flushed window into a plan: lifting, the compact encoding, and one call to `_core`."""

from __future__ import annotations

import logging
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from legate_fuse import _core
from legate_fuse.lift import READ, LiftedTask, lift, task_name
from legate_fuse.stats import Stats
from legate_fuse.window.holding import TaskRecord
from legate_fuse.window.liveness import ArrayTracker, foreign_references, held_references

logger = logging.getLogger("legate_fuse")

@dataclass
class PlannedWindow:
    records: list[TaskRecord]
    lifted: list[LiftedTask | None]
    stores: list[Any]  # LogicalStores, in first-appearance order (the plan's store indices)
    descriptions: list[str]  # Legate's description of each store
    plan: _core.Plan
    cache_hit: bool
    live: list[str] = field(default_factory=list)  # what the program can reach (descriptions)
    live_arrays: list[str] = field(default_factory=list)  # of those, the live arrays' stores
    tracker: ArrayTracker | None = None

    @cached_property
    def parsed(self) -> list[_core.StoreDesc | None]:
        """The descriptions parsed, once per window (the kernel builder needs them)."""
        return [_core.parse_store_desc(text) for text in self.descriptions]


class Planner:
    def __init__(self, stats: Stats, tracker: ArrayTracker, log_plans: bool = False) -> None:
        self.stats = stats
        self.tracker = tracker
        self.log_plans = log_plans
        self.analyzer = _core.Analyzer()
        self._op_ids: dict[str, int] = {}
        self.listeners: list[Callable[[PlanSummary], None]] = []
        self.use_cache = True
        self.last_encoding: tuple[list[str], list[str], list[int]] | None = None

    def op_id(self, op: str) -> int:
        return self._op_ids.setdefault(op, len(self._op_ids))

    def plan(self, records: list[TaskRecord], later: Sequence[TaskRecord] = ()) -> PlannedWindow:
        """`later`: tasks that stay held and run after these (a cut window): whatever they
        touch is live, through whichever store object they hold."""
        lifted = [lift(record) for record in records]
        stores, encoded = self._encode(records, lifted)
        descriptions = [str(store) for store in stores]
        live_arrays = self.tracker.live_descriptions()
        live = list(live_arrays)
        held = held_references(records, lifted)
        position = {id(store): i for i, store in enumerate(stores)}
        live += [descriptions[position[id(s)]] for s in foreign_references(stores, held)]
        live += [str(store) for record in later for store in record.stores]
        self.last_encoding = (descriptions, live, encoded)
        plan, hit = self.analyzer.analyze(descriptions, live, encoded, self.use_cache)
        self.stats.windows_planned += 1
        self.stats.plan_cache_hits += int(hit)
        planned = PlannedWindow(records, lifted, stores, descriptions, plan, hit, live,
                                live_arrays, self.tracker)
        if self.log_plans:
            print(format_plan(planned), file=sys.stderr, flush=True)
        if self.listeners:
            summary = PlanSummary.of(planned)
            for listener in self.listeners:
                listener(summary)
        return planned

    def _encode(
        self, records: list[TaskRecord], lifted: list[LiftedTask | None]
    ) -> tuple[list[Any], list[int]]:
        """The task encoding of ir/window.h; stores numbered by first appearance."""
        stores: list[Any] = []
        index: dict[int, int] = {}
        encoded: list[int] = []

        def store_index(store: Any) -> int:
            if id(store) not in index:
                index[id(store)] = len(stores)
                stores.append(store)
            return index[id(store)]

        for record, task in zip(records, lifted, strict=True):
            if task is not None:
                encoded += [self.op_id(task.op), int(task.aligned), len(task.args)]
                for arg in task.args:
                    encoded += [store_index(arg.store), arg.privilege, arg.redop]
            else:
                # Opaque: only which roots it touches matters (for liveness).
                encoded += [-1, 0, len(record.stores)]
                for touched in record.stores:
                    encoded += [store_index(touched), READ, -1]
        return stores, encoded


def task_label(record: TaskRecord, task: LiftedTask | None) -> str:
    if task is not None:
        return task.op
    return f"opaque {task_name(record)}"


@dataclass(frozen=True)
class PlanSummary:
    """What a plan decided, without references to stores (safe to keep)."""

    ops: tuple[str, ...]
    groups: tuple[tuple[str, tuple[int, ...], int, str], ...]  # kind, tasks, temporaries, reason
    cache_hit: bool
    dead_tasks: tuple[int, ...] = ()

    @staticmethod
    def of(planned: PlannedWindow) -> PlanSummary:
        ops = tuple(task_label(r, t) for r, t in zip(planned.records, planned.lifted, strict=True))
        groups = tuple((g.kind, tuple(g.tasks), len(g.temporaries), g.end_reason)
                       for g in planned.plan.groups)
        dead = tuple(t for g in planned.plan.groups for t in g.dead_tasks)
        return PlanSummary(ops, groups, planned.cache_hit, dead)


def format_plan(planned: PlannedWindow) -> str:
    lines = [f"legate-fuse plan ({len(planned.records)} tasks"
             f"{', from the plan cache' if planned.cache_hit else ''}):"]
    for i, (record, task) in enumerate(zip(planned.records, planned.lifted, strict=True)):
        lines.append(f"  task {i}: {task_label(record, task)}")
    for line in planned.plan.describe().splitlines():
        lines.append(f"  {line}")
    return "\n".join(lines)
