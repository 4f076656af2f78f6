"""The lifting of cuPyNumeric's random draws (BITGENERATOR): drawn inside a fused task, before
its kernel, from cuPyNumeric's own generator (src/cpp/tasks/random_draws.h), so that the work
on the numbers joins them (`2 * np.random.rand(n) - 1` as one task).

cuPyNumeric builds a draw as a task of one output, the result, and scalars: the operation
(RAND_RAW or DISTRIBUTION), the generator's id, type, seed and flags, for a distribution its
code, then the result's strides, and its integer, float32 and float64 parameters. Its CPU task
draws the point's block from a generator it keeps per processor and id; the fused task makes
the same call on the same generator, so the numbers are the same and the generator moves on as
it would. A launch of several points would give each point a block cuPyNumeric's partition may
not, so a draw is lifted only where Legate runs one CPU task at a time, never where Legate has
GPUs (cuPyNumeric's GPU task draws with cuRAND on the device), and only after a probe task has
found cuPyNumeric's generators laid out as the fused task reads them.

A draw has an effect no argument shows: it moves its generator on. The analysis never drops one
as dead (`LiftedTask.draws`), and the fuser keeps draws in program order across tasks
(draw_order.py).
"""

from __future__ import annotations

from functools import cache
from typing import Any

from legate_fuse.capture.task_record import TaskRecord
from legate_fuse.lift.base import WRITE_WHOLE, LiftedArg, LiftedTask, machine_has_gpus
from legate_fuse.lift.draw_args import draw_kind


def draws_fusible() -> bool:
    """Whether draws may be made inside fused tasks: asked for (LEGATE_FUSE_RANDOM), possible
    on this machine, and cuPyNumeric's generators found as the fused task reads them."""
    from legate_fuse import session

    current = session.current()
    return (current is not None and current.config.random and draws_possible()
            and _generators_usable(current.runtime_proxy.unwrapped))


def draws_possible() -> bool:
    """No GPUs, and fused tasks launched now run as one point."""
    from legate_fuse.backend.launch import runs_one_point

    return not machine_has_gpus() and runs_one_point()


# The verdict store of the probe submitted at the program's first task (submit_probe), until
# the first draw reads it.
_submitted: list[Any] = []


def submit_probe(runtime: Any) -> None:
    """Submits the probe without waiting for it, at the program's first task. The first draw
    reads its verdict at the first flush, by when it has run: a probe submitted only then
    waits for every task submitted before it (a tenth of a second in a program whose first
    window draws), inside whatever the program times."""
    if not _submitted and _generators_usable.cache_info().currsize == 0:
        verdict = _submit_probe(runtime)
        if verdict is not None:
            _submitted.append(verdict)


@cache
def _generators_usable(runtime: Any) -> bool:
    """The probe's verdict (once per process): cuPyNumeric's random functions loaded, and a
    generator its holder makes found and laid out as the fused task reads it."""
    verdict = _submitted.pop() if _submitted else _submit_probe(runtime)
    if verdict is None:
        return False
    import numpy

    allocation = verdict.get_physical_store().get_inline_allocation()
    return bool(numpy.asarray(allocation)[0] == 1)


def _submit_probe(runtime: Any) -> Any | None:
    """The store the probe writes its verdict to (1: usable), None when cuPyNumeric's random
    functions are not loaded: a task of the plugin's library, submitted to Legate's own
    `runtime`, run on the CPU."""
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


def lift_draw(record: TaskRecord, args: tuple[LiftedArg, ...]) -> LiftedTask | None:
    """The lifted draw, or None (opaque) for any draw not built as cuPyNumeric builds one of
    DISTRIBUTIONS or RAND_RAW, of a 0-d result or a view, or where draws are not fusible."""
    (result,) = args
    # (A result given by the program, `out=` a view, would be filled in the memory order of
    # whatever instance Legate maps the view to: only new arrays are drawn into.)
    if (result.store.ndim == 0 or result.store.transformed
            or draw_kind(record, str(result.store.type)) is None
            or any(name != "add_output" and name != "add_scalar_arg" for name, _ in record.calls)
            or not draws_fusible()):
        return None
    return LiftedTask("BITGENERATOR", (LiftedArg(result.store, WRITE_WHOLE),), aligned=True,
                      fused_alone=True, draws=True)
