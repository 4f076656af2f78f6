"""The probe of cuPyNumeric's random generators: whether a fused task may draw from them
(lift/random_draws.py). A task of the plugin's library, run on the CPU, makes a generator the
way cuPyNumeric's task does and compares its numbers with those of one it makes itself
(src/cpp/tasks/random_draws.cc); its one value, 1 when they agree, is the verdict.

The probe is submitted ahead (`submit`), when the program's first store or task starts
fusion, and its verdict is read when the first draw is lifted, by when it has run. Submitted
only at that draw, it waited for every task submitted before it (a tenth of a second in a
program whose first window draws, inside whatever the program times).
"""

from __future__ import annotations

from functools import cache
from typing import Any

from legate_fuse.lift.base import machine_has_gpus

# The verdict store of the probe submitted ahead, until the first draw reads it.
_submitted: list[Any] = []


def draws_possible() -> bool:
    """No GPUs, and fused tasks launched now run as one point."""
    from legate_fuse.backend.launch import runs_one_point

    return not machine_has_gpus() and runs_one_point()


def submit(runtime: Any) -> None:
    """Submits the probe to Legate's own `runtime` without waiting for it, unless one was
    submitted or read already, or draws cannot be fused on this machine."""
    if _submitted or generators_usable.cache_info().currsize or not draws_possible():
        return
    verdict = _submit(runtime)
    if verdict is not None:
        _submitted.append(verdict)


@cache
def generators_usable(runtime: Any) -> bool:
    """The probe's verdict (once per process): cuPyNumeric's random functions loaded, and a
    generator its holder makes found and laid out as the fused task reads it."""
    verdict = _submitted.pop() if _submitted else _submit(runtime)
    if verdict is None:
        return False
    import numpy

    allocation = verdict.get_physical_store().get_inline_allocation()
    return bool(numpy.asarray(allocation)[0] == 1)


def _submit(runtime: Any) -> Any | None:
    """The store the probe writes its verdict to, None when cuPyNumeric's random functions
    are not loaded."""
    from legate_fuse import _tasks

    if not _tasks.random_draws_available():
        return None
    from legate.core import broadcast, types

    from legate_fuse.backend import tasks

    verdict = runtime.create_store(types.int32, shape=(1,))
    task = runtime.create_auto_task(tasks.library(), _tasks.RANDOM_PROBE_TASK_ID)
    task.add_constraint(broadcast(task.add_output(verdict)))
    task.execute()
    return verdict
