"""What a window's plan decided, for people and tests: its printed form (LEGATE_FUSE_LOG=plan)
and a summary that holds no reference to the window's stores."""

from __future__ import annotations

from collections.abc import Sized
from dataclasses import dataclass
from typing import Protocol

from legate_fuse import _core


class Planned(Protocol):
    """What is read of a planned window (planner.PlannedWindow)."""

    @property
    def records(self) -> Sized: ...
    @property
    def labels(self) -> tuple[str, ...]: ...
    @property
    def plan(self) -> _core.Plan: ...
    @property
    def cache_hit(self) -> bool: ...


@dataclass(frozen=True)
class PlanSummary:
    """What a plan decided, without references to stores (safe to keep)."""

    ops: tuple[str, ...]
    groups: tuple[tuple[str, tuple[int, ...], int, str], ...]  # kind, tasks, temporaries, reason
    cache_hit: bool
    dead_tasks: tuple[int, ...] = ()

    @staticmethod
    def of(planned: Planned) -> PlanSummary:
        ops = planned.labels
        plan_groups = planned.plan.groups  # a new list at each access: read once
        groups = tuple((g.kind, tuple(g.tasks), len(g.temporaries), g.end_reason)
                       for g in plan_groups)
        dead = tuple(t for g in plan_groups for t in g.dead_tasks)
        return PlanSummary(ops, groups, planned.cache_hit, dead)


def format_plan(planned: Planned) -> str:
    lines = [f"legate-fuse plan ({len(planned.records)} tasks"
             f"{', from the plan cache' if planned.cache_hit else ''}):"]
    for i, label in enumerate(planned.labels):
        lines.append(f"  task {i}: {label}")
    for line in planned.plan.describe().splitlines():
        lines.append(f"  {line}")
    return "\n".join(lines)
