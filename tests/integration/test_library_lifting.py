"""Another Legate library's tasks, lifted through the public extension point
(`legate_fuse.register_lifting`, the one cuPyNumeric's lifting is registered with): a toy
library whose one task adds two arrays is fused with cuPyNumeric's element-wise work around it,
and runs as its library built it when its lifting lifts nothing."""

from __future__ import annotations

import math
from collections.abc import Iterator
from typing import Any

import numpy
import pytest

import legate_fuse
from legate_fuse import lift
from legate_fuse.session import Session

from .compare import assert_identical

TOY_LIBRARY = "legate_fuse_toy"


class ToyLifting:
    """The toy library's lifting: its ADD task is cuPyNumeric's BINARY_OP.ADD (out = a + b,
    aligned), or nothing when `lifts` is False."""

    def __init__(self, task_id: int, lifts: bool) -> None:
        self.task_id, self.lifts, self.lifted = task_id, lifts, 0

    def lifted_task_ids(self) -> list[int]:
        return [self.task_id]

    def scalar_limits(self) -> dict[int, int]:
        return {self.task_id: 0}

    def task_names(self) -> dict[int, str]:
        return {self.task_id: "ADD"}

    def lift(self, record: Any) -> lift.LiftedTask | None:
        kinds = [arg.kind for arg in record.args]
        if not self.lifts or kinds != ["add_output", "add_input", "add_input"]:
            return None
        self.lifted += 1
        privileges = (lift.WRITE, lift.READ, lift.READ)
        args = tuple(lift.LiftedArg(arg.store, privilege)
                     for arg, privilege in zip(record.args, privileges, strict=True))
        aligned = [call for call in record.calls if call[0] == "add_constraint"]
        return lift.LiftedTask("BINARY_OP.ADD", args, aligned=len(aligned) == 2)

    def pays_alone(self, record: Any) -> bool:
        return False

    def runtime_scalar(self, record: Any, index: int) -> bytes:
        raise ValueError("no run-time values")


@pytest.fixture(scope="module")
def toy_add() -> Any:
    """The toy library's one task, registered with Legate (a Python task)."""
    from legate.core import ResourceConfig, VariantCode, get_legate_runtime
    from legate.core.task import InputStore, OutputStore, PyTask

    def add(a: Any, b: Any, out: Any) -> None:
        result = numpy.asarray(out.get_inline_allocation())
        result[:] = numpy.asarray(a.get_inline_allocation()) + numpy.asarray(
            b.get_inline_allocation())

    # Legate reads the arguments' roles from the annotations, as objects (this module's
    # annotations are strings).
    add.__annotations__ = {"a": InputStore, "b": InputStore, "out": OutputStore,
                           "return": None}

    library, _ = get_legate_runtime().find_or_create_library(
        TOY_LIBRARY, config=ResourceConfig(max_tasks=1, max_dyn_tasks=1))
    return PyTask(func=add, variants=(VariantCode.CPU,), library=library)


@pytest.fixture
def lifting(toy_add: Any) -> Iterator[ToyLifting]:
    toy = ToyLifting(int(toy_add.task_id), lifts=True)
    legate_fuse.register_lifting(TOY_LIBRARY, toy)
    yield toy
    lift._LIFTINGS.pop(TOY_LIBRARY, None)
    lift._LIFTED.clear()


def store_of(array: Any) -> Any:
    (logical_array,) = array.__legate_data_interface__["data"].values()
    return logical_array.data


def toy_program(toy_add: Any) -> Any:
    """cuPyNumeric's work before and after the toy library's task, as one window."""
    import cupynumeric as cn
    from legate.core import align, get_legate_runtime

    a = cn.arange(1000, dtype=numpy.float64)
    b = cn.sqrt(a) * 0.5
    total = cn.empty_like(a)
    doubled = a * 2.0
    # Built as a library builds its tasks, through the runtime cuPyNumeric uses.
    task = get_legate_runtime().create_auto_task(toy_add.library, toy_add.task_id)
    out = task.add_output(store_of(total))
    first, second = task.add_input(store_of(doubled)), task.add_input(store_of(b))
    task.add_constraint(align(out, first))
    task.add_constraint(align(out, second))
    task.execute()
    return numpy.asarray(cn.exp(total * 1e-3) - b)


def expected() -> Any:
    """The toy program's result, its exponential the C library's, as cuPyNumeric's CPU task
    computes it: NumPy's own may differ in the last bit (on a CPU with AVX-512 it does, for 55
    of these 1,000 elements)."""
    a = numpy.arange(1000, dtype=numpy.float64)
    b = numpy.sqrt(a) * 0.5
    exponent = (a * 2.0 + b) * 1e-3
    return numpy.array([math.exp(value) for value in exponent]) - b


def test_a_registered_librarys_task_is_fused_with_cupynumerics(
        always_fuse: Session, toy_add: Any, lifting: ToyLifting) -> None:
    session = always_fuse
    launches, fused = session.stats.fused_launches, session.stats.tasks_fused
    got = toy_program(toy_add)
    assert_identical({"result": got}, {"result": expected()})
    assert lifting.lifted >= 1
    # The toy task and cuPyNumeric's around it: one fused launch for the whole chain.
    assert session.stats.tasks_fused - fused >= 6
    assert session.stats.fused_launches - launches <= 2
    assert session.stats.unfused[TOY_LIBRARY, int(toy_add.task_id), "not lifted"] == 0


def test_a_task_its_lifting_does_not_lift_runs_as_built(
        always_fuse: Session, toy_add: Any, lifting: ToyLifting) -> None:
    session = always_fuse
    lifting.lifts = False
    got = toy_program(toy_add)
    assert_identical({"result": got}, {"result": expected()})
    assert lifting.lifted == 0
    names = {name for name, _, _ in session.stats.unfused}
    assert TOY_LIBRARY in names


def test_a_lifting_without_its_methods_is_refused() -> None:
    with pytest.raises(TypeError, match="lacks"):
        legate_fuse.register_lifting("some_library", object())


def test_a_library_that_builds_tasks_from_the_data_interface_does_not_flush(
        always_fuse: Session) -> None:
    """legate_csr's lifting says it reads cuPyNumeric's data interface only to build tasks: its
    products do not flush what is held (a read of the same interface by the program does)."""
    import cupynumeric as cn
    import scipy.sparse as sp

    import legate_csr

    session = always_fuse
    reference = sp.csr_array(sp.diags([-1.0, 2.0, -1.0], [-1, 0, 1], shape=(50, 50)))
    matrix = legate_csr.csr_array(reference)
    assert lift.builds_tasks_only("legate_csr._stores")
    assert not lift.builds_tasks_only(__name__)
    session.flush("test_setup")
    flushes = session.stats.flushes["data_interface"]
    x = cn.arange(50.0) * 0.5  # held
    y = matrix @ x
    assert session.stats.flushes["data_interface"] == flushes
    numpy.testing.assert_array_equal(numpy.asarray(y), reference @ (numpy.arange(50.0) * 0.5))
    z = x * 2.0  # held
    z.__legate_data_interface__  # noqa: B018 (the program's own read)
    assert session.stats.flushes["data_interface"] == flushes + 1
