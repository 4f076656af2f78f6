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

from legate_fuse.backend import draw_probe
from legate_fuse.capture.task_record import TaskRecord
from legate_fuse.lift.base import WRITE_WHOLE, LiftedArg, LiftedTask
from legate_fuse.lift.draw_args import draw_kind, generator_type

# Generator types whose draws a fused task makes in parts (cuRAND's XORWOW, cuPyNumeric's
# default).
SPLIT_GENERATORS = frozenset({"DEFAULT", "XORWOW"})


def draws_fusible() -> bool:
    """Whether draws may be made inside fused tasks: asked for (LEGATE_FUSE_RANDOM), possible
    on this machine, and cuPyNumeric's generators found as the fused task reads them."""
    from legate_fuse import session

    current = session.current()
    return (current is not None and current.config.random and draw_probe.draws_possible()
            and draw_probe.generators_usable(current.runtime_proxy.unwrapped))


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


def draw_pays_alone(record: TaskRecord) -> bool:
    """Whether a lifted draw with no other lifted task in its window runs faster as a fused task
    of its own than as cuPyNumeric built it: the fused task draws in parts on the kernel
    threads (src/cpp/tasks/draw_in_parts.h) where cuPyNumeric's draws in one call on one core.
    Only from a XORWOW generator, with more than one kernel thread, a block of at least two
    parts, and once the check that parts give one call's numbers has passed."""
    from legate_fuse import _tasks

    return (generator_type(record) in SPLIT_GENERATORS and _tasks.kernel_threads() > 1
            and record.args[0].store.volume >= 2 * _tasks.kernel_part_elements()
            and _tasks.draws_in_parts_match_one_call())
