"""A fused group's kernel: its specification, built by the analysis (`_core.KernelSpec`, see
src/cpp/ir/kernel_spec.h and analysis/kernel_builder.h), its content-hash id, and the stores
the FUSED task passes it."""

from __future__ import annotations

import hashlib
from typing import Any, NamedTuple

from legate_fuse import _core

KernelSpec = _core.KernelSpec

# Operand kinds and argument roles of the kernel specification.
ARG, REGISTER, SCALAR, INDEX = (int(k.value) for k in (
    _core.OperandKind.ARG, _core.OperandKind.REGISTER, _core.OperandKind.SCALAR,
    _core.OperandKind.INDEX))
ROLE_INPUT, ROLE_OUTPUT, ROLE_REDUCTION = (int(r.value) for r in (
    _core.ArgRole.INPUT, _core.ArgRole.OUTPUT, _core.ArgRole.REDUCTION))
NO_OPERAND = (REGISTER, -1)
# The fused task's own roles beyond the kernel's: a store only a product reads (whole), a
# product's result (an output of the task, computed before the kernel, which reads it), and
# likewise a store only a row call reads and a row call's result (partitioned with the group).
ROLE_READ_WHOLE, ROLE_PRODUCT, ROLE_CALL_READ, ROLE_CALL_RESULT = 3, 4, 5, 6

_ROLE = {
    int(_core.Privilege.READ.value): ROLE_INPUT,
    int(_core.Privilege.WRITE.value): ROLE_OUTPUT,
    int(_core.Privilege.REDUCE.value): ROLE_REDUCTION,
    int(_core.Privilege.READ_WHOLE.value): ROLE_READ_WHOLE,
    int(_core.Privilege.WRITE_WHOLE.value): ROLE_PRODUCT,
    int(_core.Privilege.READ_CALL.value): ROLE_CALL_READ,
    int(_core.Privilege.WRITE_CALL.value): ROLE_CALL_RESULT,
}


class UnsupportedGroup(ValueError):
    """The group has an operation the kernel generator cannot express."""


def kernel_id(spec: KernelSpec) -> str:
    """The content hash FUSED tasks name this kernel by: a function of the specification's
    canonical text alone, so every process (rank) issues the same task arguments, whatever its
    hardware, compiler or cache folder; each registers its own build of the kernel under it."""
    return hashlib.sha256(spec.describe().encode()).hexdigest()[:32]


# Named tuples: one is built for every argument of every fused launch, and a frozen
# dataclass is built several times slower.
class KernelArg(NamedTuple):
    store: Any  # LogicalStore
    role: int
    redop: int


class FusedKernel(NamedTuple):
    spec: KernelSpec
    kernel_id: str


# A kernel's number (`Group.kernel_number`: its canonical text's, in this process) -> its
# specification and id: a plan not kept by launch_steps.Steps (a window planned afresh) names
# the same kernels as earlier ones, whose texts are neither read nor hashed again.
_KNOWN: dict[int, FusedKernel] = {}


def group_kernel(group: _core.Group) -> FusedKernel:
    """The kernel the analysis built for a fused group; UnsupportedGroup when it has none."""
    number = group.kernel_number
    known = _KNOWN.get(number)
    if known is None:
        spec = group.kernel
        if spec is None or number < 0:
            raise UnsupportedGroup(group.kernel_error or "the group has no kernel")
        if len(_KNOWN) >= 4096:
            _KNOWN.clear()  # programs rarely have that many kernels; start again
        known = _KNOWN[number] = FusedKernel(spec, kernel_id(spec))
    return known


def argument_roles(group: _core.Group) -> tuple[tuple[int, int, int], ...]:
    """The fused task's arguments: (store number in the window, role, reduction operator)."""
    return tuple((store, _ROLE[privilege], redop) for store, privilege, redop in group.arg_triples)
