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

    def describe(self) -> str:
        """The specification as text, one line per argument, node, store and reduction."""
        role_names = {ROLE_INPUT: "input", ROLE_OUTPUT: "output", ROLE_REDUCTION: "reduction"}
        lines = [f"arg {i}: {role_names[role]} {dtype}{' (one value)' if value else ''}"
                 for i, (role, dtype, value) in enumerate(self.args)]
        lines += [f"r{i} = {op} -> {dtype} ({', '.join(map(_operand, inputs))})"
                  for i, (op, dtype, inputs) in enumerate(self.nodes)]
        lines += [f"arg {arg} <- r{register}" for arg, register in self.stores]
        lines += [f"arg {arg} {op}= {_operand(value)}"
                  + (f" where {_operand(mask)}" if mask != NO_OPERAND else "")
                  for arg, op, value, mask in self.reductions]
        return "\n".join(lines)

    def render_c(self) -> str:
        return _core.render_c(*self._parts())

    def render_cuda(self) -> str:
        return _core.render_cuda(*self._parts())


def _operand(operand: Operand) -> str:
    kind, index = operand
    return {ARG: "arg ", REGISTER: "r", SCALAR: "scalar "}[kind] + str(index)


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
    builder = _KernelBuilder(stores, descriptions, descs)
    builder.add_arguments(group)
    for t in group.tasks:
        task = lifted[t]
        if task is None:
            raise UnsupportedGroup(f"task {t} is not lifted")
        builder.add_task(task)
    return builder.kernel()


class _KernelBuilder:
    """The group's kernel arguments, then its tasks in program order: a root's latest value
    lives in a register (`current`), arguments are keyed by store identity (every view of a
    Future is one, as in the analysis)."""

    def __init__(self, stores: list[Any], descriptions: list[str],
                 descs: list[_core.StoreDesc | None]) -> None:
        self.stores, self.descriptions, self.descs = stores, descriptions, descs
        self.positions = {id(store): i for i, store in enumerate(stores)}
        self.args: list[tuple[int, str, bool]] = []
        self.kernel_args: list[KernelArg] = []
        self.arg_of: dict[int, dict[str, int]] = {
            ROLE_INPUT: {}, ROLE_OUTPUT: {}, ROLE_REDUCTION: {}}
        self.nodes: list[tuple[str, str, tuple[Operand, ...]]] = []
        self.reductions: list[tuple[int, str, Operand, Operand]] = []
        self.current: dict[str, Operand] = {}  # root -> latest value

    def desc(self, store_index: int) -> _core.StoreDesc:
        found = self.descs[store_index]
        if found is None:
            raise UnsupportedGroup(f"unknown store {self.descriptions[store_index]!r}")
        return found

    def desc_of(self, store: Any) -> _core.StoreDesc:
        return self.desc(self.positions[id(store)])

    def add_arguments(self, group: _core.Group) -> None:
        # The FUSED task sees its stores as inputs, then outputs, then reductions (the order in
        # which Legate's TaskContext lists them), whatever order the plan lists them in.
        for fused_arg in sorted(group.args, key=lambda a: _ROLE[int(a.privilege.value)]):
            d = self.desc(fused_arg.store)
            role = _ROLE[int(fused_arg.privilege.value)]
            self.arg_of[role][d.identity_key] = len(self.args)
            self.args.append((role, d.dtype, d.is_future))
            self.kernel_args.append(KernelArg(self.stores[fused_arg.store], role, fused_arg.redop))

    def read(self, store: Any) -> Operand:
        d = self.desc_of(store)
        if d.root_key in self.current:
            return self.current[d.root_key]
        inputs = self.arg_of[ROLE_INPUT]
        if d.identity_key not in inputs:
            raise UnsupportedGroup(f"no kernel argument reads {d.identity_key}")
        return (ARG, inputs[d.identity_key])

    def node(self, op: str, dtype: str, inputs: list[Operand]) -> Operand:
        self.nodes.append((op, dtype, tuple(inputs)))
        return (REGISTER, len(self.nodes) - 1)

    def add_task(self, task: LiftedTask) -> None:
        if task.scalars:
            raise UnsupportedGroup(f"{task.op} has run-time scalar arguments")
        inputs = [self.read(a.store) for a in task.args if a.privilege == READ]
        outputs = [a for a in task.args if a.privilege == WRITE]
        if outputs:
            (out,) = outputs
            d = self.desc_of(out.store)
            self.current[d.root_key] = self.node(task.op, d.dtype, inputs)
            return
        (target,) = [a for a in task.args if a.privilege == REDUCE]
        d = self.desc_of(target.store)
        reduced = self.arg_of[ROLE_REDUCTION]
        if d.identity_key not in reduced:
            return  # a reduction nothing observes
        if task.op == "DOT":
            value, mask = self.node("BINARY_OP.MULTIPLY", d.dtype, inputs), NO_OPERAND
        else:
            value, mask = inputs[0], (inputs[1] if len(inputs) > 1 else NO_OPERAND)
        self.reductions.append((reduced[d.identity_key], _reduction_name(task.op), value, mask))

    def kernel(self) -> FusedKernel:
        stores_spec = []
        for identity, arg in self.arg_of[ROLE_OUTPUT].items():
            root = next(d for d in self.descs
                        if d is not None and d.identity_key == identity).root_key
            computed = self.current.get(root)
            if computed is None or computed[0] != REGISTER:
                raise UnsupportedGroup(f"output {identity} is never computed")
            stores_spec.append((arg, computed[1]))
        spec = KernelSpec(tuple(self.args), (), tuple(self.nodes), tuple(stores_spec),
                          tuple(self.reductions))
        return FusedKernel(spec, tuple(self.kernel_args))
