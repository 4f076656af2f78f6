"""The operation DAG of a fused group, in the form the C++ renderers take (codegen/kernel_spec.h).

Walks the group's tasks in program order: a root's latest value lives in a register, reads of a
root not yet written in the group load the kernel argument of their view, written roots that
are live after the group are stored at the end of each element, reductions fold into
accumulators. Shapes and scalar values are not part of it, so the same spec (and kernel) serves
every launch of the same group structure.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from legate_fuse import _core
from legate_fuse.lift import READ, REDUCE, WRITE, LiftedTask

# Operand kinds and argument roles of the renderers' kernel specification (codegen/kernel_spec.h).
ARG, REGISTER, SCALAR = (int(k.value) for k in (
    _core.OperandKind.ARG, _core.OperandKind.REGISTER, _core.OperandKind.SCALAR))
ROLE_INPUT, ROLE_OUTPUT, ROLE_REDUCTION = (int(r.value) for r in (
    _core.ArgRole.INPUT, _core.ArgRole.OUTPUT, _core.ArgRole.REDUCTION))
NO_OPERAND = (REGISTER, -1)

Operand = tuple[int, int]


class UnsupportedGroup(ValueError):
    """The group has an operation the kernel generator cannot express."""


@dataclass(frozen=True)
class KernelSpec:
    args: tuple[tuple[int, str, bool], ...]  # role, dtype, single element
    scalar_types: tuple[str, ...]
    nodes: tuple[tuple[str, str, tuple[Operand, ...]], ...]
    stores: tuple[tuple[int, int], ...]
    reductions: tuple[tuple[int, str, Operand, Operand], ...]

    def _parts(self) -> tuple[list[tuple[int, str, bool]], list[str],
                              list[tuple[str, str, list[Operand]]], list[tuple[int, int]],
                              list[tuple[int, str, Operand, Operand]]]:
        return (list(self.args), list(self.scalar_types),
                [(op, dtype, list(inputs)) for op, dtype, inputs in self.nodes],
                list(self.stores), list(self.reductions))

    @cached_property
    def kernel_id(self) -> str:
        """The content hash FUSED tasks name this kernel by: a function of the specification
        alone, so every process (rank) issues the same task arguments, whatever its hardware,
        compiler or cache folder; each registers its own build of the kernel under it."""
        return hashlib.sha256(repr(self._parts()).encode()).hexdigest()[:32]

    def render_c(self) -> str:
        return _core.render_c(*self._parts())

    def render_cuda(self) -> str:
        return _core.render_cuda(*self._parts())


@dataclass(frozen=True)
class KernelArg:
    store: Any  # LogicalStore
    role: int
    redop: int


@dataclass(frozen=True)
class FusedKernel:
    spec: KernelSpec
    args: tuple[KernelArg, ...]


_ROLE = {
    int(_core.Privilege.READ.value): ROLE_INPUT,
    int(_core.Privilege.WRITE.value): ROLE_OUTPUT,
    int(_core.Privilege.REDUCE.value): ROLE_REDUCTION,
}


def _reduction_name(op: str) -> str:
    # "SCALAR_UNARY_RED.SUM" / "SCALAR_UNARY_RED.MAX.WHERE" -> "SUM" / "MAX"; DOT sums.
    return "SUM" if op == "DOT" else op.split(".")[1]


def build_kernel(lifted: list[LiftedTask | None], stores: list[Any],
                 descriptions: list[str], group: _core.Group,
                 parsed: list[_core.StoreDesc | None] | None = None) -> FusedKernel:
    descs = parsed if parsed is not None else [_core.parse_store_desc(t) for t in descriptions]

    def desc(store_index: int) -> _core.StoreDesc:
        found = descs[store_index]
        if found is None:
            raise UnsupportedGroup(f"unknown store {descriptions[store_index]!r}")
        return found

    positions = {id(store): i for i, store in enumerate(stores)}

    def index_of(store: Any) -> int:
        return positions[id(store)]

    args: list[tuple[int, str, bool]] = []
    kernel_args: list[KernelArg] = []
    read_arg: dict[str, int] = {}
    write_arg: dict[str, int] = {}
    reduce_arg: dict[str, int] = {}
    # The FUSED task sees its stores as inputs, then outputs, then reductions (the order in
    # which Legate's TaskContext lists them), whatever order the plan lists them in.
    by_role = sorted(group.args, key=lambda a: _ROLE[int(a.privilege.value)])
    for fused_arg in by_role:
        d = desc(fused_arg.store)
        role = _ROLE[int(fused_arg.privilege.value)]
        table = {ROLE_INPUT: read_arg, ROLE_OUTPUT: write_arg, ROLE_REDUCTION: reduce_arg}[role]
        table[d.identity_key] = len(args)
        args.append((role, d.dtype, d.is_future))
        kernel_args.append(KernelArg(stores[fused_arg.store], role, fused_arg.redop))

    nodes: list[tuple[str, str, tuple[Operand, ...]]] = []
    reductions: list[tuple[int, str, Operand, Operand]] = []
    current: dict[str, Operand] = {}  # root -> latest value

    def read(store: Any) -> Operand:
        d = desc(index_of(store))
        if d.root_key in current:
            return current[d.root_key]
        if d.identity_key not in read_arg:
            raise UnsupportedGroup(f"no kernel argument reads {d.identity_key}")
        return (ARG, read_arg[d.identity_key])

    def node(op: str, dtype: str, inputs: list[Operand]) -> Operand:
        nodes.append((op, dtype, tuple(inputs)))
        return (REGISTER, len(nodes) - 1)

    for t in group.tasks:
        task = lifted[t]
        if task is None:
            raise UnsupportedGroup(f"task {t} is not lifted")
        if task.scalars:
            raise UnsupportedGroup(f"{task.op} has run-time scalar arguments")
        inputs = [read(a.store) for a in task.args if a.privilege == READ]
        outputs = [a for a in task.args if a.privilege == WRITE]
        reduced = [a for a in task.args if a.privilege == REDUCE]
        if outputs:
            (out,) = outputs
            d = desc(index_of(out.store))
            current[d.root_key] = node(task.op, d.dtype, inputs)
            continue
        (target,) = reduced
        d = desc(index_of(target.store))
        if d.identity_key not in reduce_arg:
            continue  # a reduction nothing observes
        if task.op == "DOT":
            value, mask = node("BINARY_OP.MULTIPLY", d.dtype, inputs), NO_OPERAND
        else:
            value, mask = inputs[0], (inputs[1] if len(inputs) > 1 else NO_OPERAND)
        reductions.append((reduce_arg[d.identity_key], _reduction_name(task.op), value, mask))

    stores_spec = []
    for identity, arg in write_arg.items():
        root = next(d for d in descs if d is not None and d.identity_key == identity).root_key
        computed = current.get(root)
        if computed is None or computed[0] != REGISTER:
            raise UnsupportedGroup(f"output {identity} is never computed")
        stores_spec.append((arg, computed[1]))

    spec = KernelSpec(tuple(args), (), tuple(nodes), tuple(stores_spec), tuple(reductions))
    return FusedKernel(spec, tuple(kernel_args))
