"""A plan as the steps that run it: what a launch needs of each group, read from the plan once.

Reading a plan's groups goes through the native extension for every field of every group; a
loop's windows get the same plan from the analysis' cache (`Plan.cache_id`), so their steps are
derived once per cached plan and kept, and a repeated window is launched from them: its fused
tasks' kernels and arguments by store number, their provenance, what each step counts.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from legate_fuse import _core
from legate_fuse.plan.kernel_spec import (
    FusedKernel,
    UnsupportedGroup,
    argument_roles,
    group_kernel,
)
from legate_fuse.unfused import NOT_LIFTED, WINDOW_ENDED, alone_by_rule

# Plans whose steps are kept; past this many, forgotten (the analysis keeps 4096 plans).
MOST_PLANS = 4096


class Step(NamedTuple):
    """One group of a plan: its tasks run as one fused task ("fused"), or as built."""

    kind: str  # "fused", "single" or "opaque"
    tasks: tuple[int, ...]
    dead_tasks: tuple[int, ...]  # tasks whose results nothing observes: never run
    temporaries: tuple[int, ...]  # numbers of the stores the fused task does not allocate
    # A fused group's kernel (None: it has none, for `kernel_error`), its arguments as
    # (store number, role, reduction operator), and the fused task's provenance.
    kernel: FusedKernel | None = None
    kernel_error: str = ""
    args: tuple[tuple[int, int, int], ...] = ()
    provenance: str = ""
    # Of a fused step: where each of its kernel's run-time scalars comes from, as (task, index
    # of the task's run-time value); read from the window's records at each launch.
    scalar_sources: tuple[tuple[int, int], ...] = ()
    # Of a fused step: the matrix products its task computes before the kernel, as
    # positions in `args` of their (result, first factor, second factor) (lift/products.py).
    products: tuple[tuple[int, int, int], ...] = ()
    # Of a fused step: the random draws its task makes before the kernel, as (position in
    # `args` of the result, the task of the window that draws it) (lift/random_draws.py). A
    # step of draws only has no kernel: its task only draws.
    draws: tuple[tuple[int, int], ...] = ()
    # Of a fused step: the row calls its task makes before the kernel, as (the operation of
    # the task each stands for, positions in `args` of its arguments) (lift/row_calls.py).
    calls: tuple[tuple[str, tuple[int, ...]], ...] = ()
    # Of a step run as built: why each of its tasks was not fused (unfused.py; WINDOW_ENDED
    # where the window ended first, the flush that ended it known only when it runs).
    why_unfused: tuple[str, ...] = ()


def why_alone(task: int, ended_before: str, end_reason: str) -> str:
    """Why a lifted task ran alone: the rule that kept it out of the group before it (that
    group's end names it), else the rule that kept the next task out of its own group, else the
    end of the window."""
    if ended_before.startswith(f"task {task}: "):
        return alone_by_rule(ended_before)
    if end_reason != "end of window":
        return alone_by_rule(end_reason)
    return WINDOW_ENDED


class PlanError(ValueError):
    """A plan that does not run or drop each task of its window exactly once."""


def steps_of(plan: _core.Plan, labels: Sequence[str], tasks: int) -> tuple[Step, ...]:
    """The steps of `plan`, for a window of `tasks` tasks labelled `labels` (each task's
    operation). PlanError if the groups do not account for every task exactly once."""
    steps = []
    ended_before = ""  # why the group before ended
    for group in plan.groups:  # a new list at each access: read once
        step = Step(group.kind, tuple(group.tasks), tuple(group.dead_tasks),
                    tuple(group.temporaries))
        end_reason = group.end_reason
        # (A group may run no task: all of its are dead.)
        if step.kind == "opaque":
            step = step._replace(why_unfused=tuple(
                NOT_LIFTED if labels[t].startswith("opaque ") else alone_by_rule(end_reason)
                for t in step.tasks))
        elif step.kind == "single":
            step = step._replace(why_unfused=tuple(why_alone(t, ended_before, end_reason)
                                                   for t in step.tasks))
        elif step.kind == "fused":
            args = argument_roles(group)
            position = {store: i for i, (store, _, _) in enumerate(args)}
            draws = tuple((position[r], t) for r, t in group.draws)
            kernel, error = None, ""
            if len(draws) < len(step.tasks):
                try:
                    kernel = group_kernel(group)
                except UnsupportedGroup as unsupported:
                    error = str(unsupported)
            ops = ", ".join(labels[t] for t in step.tasks)
            step = step._replace(kernel=kernel, kernel_error=error, args=args,
                                 provenance=f"legate_fuse[{ops}]",
                                 scalar_sources=tuple(group.scalar_sources),
                                 products=tuple((position[r], position[m], position[v])
                                                for r, m, v in group.products), draws=draws,
                                 calls=tuple((labels[t], tuple(position[s] for s in stores))
                                             for t, stores in group.calls))
        steps.append(step)
        ended_before = end_reason
    seen = sorted(t for step in steps for t in (*step.tasks, *step.dead_tasks))
    if seen != list(range(tasks)):
        raise PlanError("a plan did not account for every task of its window")
    return tuple(steps)


class Steps:
    """The steps of every cached plan seen (by `Plan.cache_id`); a plan not cached (the cache
    turned off) gets its steps afresh."""

    def __init__(self) -> None:
        self._kept: dict[int, tuple[Step, ...]] = {}

    def of(self, plan: _core.Plan, labels: Sequence[str], tasks: int) -> tuple[Step, ...]:
        cache_id = plan.cache_id
        kept = self._kept.get(cache_id)
        if kept is None:
            kept = steps_of(plan, labels, tasks)
            if cache_id >= 0:
                if len(self._kept) >= MOST_PLANS:
                    self._kept.clear()
                self._kept[cache_id] = kept
        return kept
