"""Partition variables and constraints of tasks not built yet (lazy_task.py): what Legate's
`align`/`broadcast` return over them, as the session installs those functions in legate.core.
"""

from __future__ import annotations

import enum
import weakref
from collections.abc import Sequence
from typing import Any, Protocol

import numpy
from legate.core import Scalar

from legate_fuse.capture.patches import PATCHES


class LazyTask(Protocol):
    """What a pending variable needs of its task (lazy_task.LazyAutoTask)."""

    variables: Sequence[Any]  # the real partition variables, once built

    def build(self) -> Any: ...

# Legate's constraint functions (legate.core.align...), replaced in legate.core by the session.
CONSTRAINT_FUNCTIONS = ("align", "broadcast", "image", "scale", "bloat")
ORIGINAL_CONSTRAINTS: dict[str, Any] = {}

# Scalars that cannot change between the call and the moment the task is built.
_IMMUTABLE_SCALARS = (bool, int, float, complex, str, bytes, enum.Enum, numpy.generic, Scalar)


class PendingVariable:
    """The partition variable of argument `index` of a lazy task (referred to weakly: the
    task's record refers to its variables)."""

    __slots__ = ("index", "task_ref")

    def __init__(self, task: LazyTask, index: int) -> None:
        self.task_ref = weakref.ref(task)
        self.index = index

    @property
    def task(self) -> LazyTask | None:
        return self.task_ref()

    def __repr__(self) -> str:
        return f"PendingVariable(argument {self.index})"


class PendingConstraint:
    """`align(*variables)`, `broadcast(variable, axes)` or `image(function, range, hint)` over
    pending variables."""

    __slots__ = ("args", "kind")

    def __init__(self, kind: str, args: tuple[Any, ...]) -> None:
        self.kind = kind
        self.args = args

    def variables(self) -> list[PendingVariable]:
        return [a for a in self.args if isinstance(a, PendingVariable)]

    def __repr__(self) -> str:
        return f"PendingConstraint({self.kind}, {self.args!r})"


def immutable(value: Any) -> bool:
    if isinstance(value, tuple):
        return all(immutable(v) for v in value)
    return isinstance(value, _IMMUTABLE_SCALARS)


def real(value: Any) -> Any:
    """`value` with pending variables and constraints replaced by Legate's own (their tasks
    are built for it)."""
    if isinstance(value, PendingVariable):
        task = value.task
        if task is None:  # as Legate rejects a variable of another task
            raise ValueError("a partition variable of a task that no longer exists")
        task.build()
        return task.variables[value.index]
    if isinstance(value, PendingConstraint):
        return ORIGINAL_CONSTRAINTS[value.kind](*map(real, value.args))
    return value


def constraint_function(kind: str, original: Any) -> Any:
    """legate.core's `kind` constraint function, as the session installs it: over variables of
    lazy tasks it returns a PendingConstraint (`align`, `broadcast`, `image`), or builds their
    tasks first (any other); over real variables it is Legate's own."""

    pends = kind in ("align", "broadcast", "image")

    def constraint(*args: Any, **kwargs: Any) -> Any:
        if (len(args) == 2 and type(args[0]) is PendingVariable
                and type(args[1]) is PendingVariable and pends and not kwargs):
            return PendingConstraint(kind, args)  # align(v1, v2): cuPyNumeric's common call
        pending = 0
        for arg in args:
            pending += type(arg) is PendingVariable
        if not pending:  # over real variables only (a task built at once): Legate's own
            return original(*args, **kwargs)
        # align(v1, v2), the common case, has nothing but pending variables to check.
        if pends and not kwargs and (pending == len(args) or all(
                type(arg) is PendingVariable or immutable(arg) or type(arg) is range
                for arg in args)):
            return PendingConstraint(kind, args)
        return original(*map(real, args), **kwargs)

    constraint.__doc__ = original.__doc__
    constraint.__wrapped__ = original  # type: ignore[attr-defined]
    return constraint


def install_constraint_functions(core: Any) -> None:
    """Replaces legate.core's constraint functions by `constraint_function`s. Runs as soon as
    legate.core is imported: cuPyNumeric imports them from it afterwards."""
    for kind in CONSTRAINT_FUNCTIONS:
        original = getattr(core, kind)
        if getattr(original, "__wrapped__", None) is None:
            ORIGINAL_CONSTRAINTS[kind] = original
            PATCHES.replace(core, kind, constraint_function(kind, original))
