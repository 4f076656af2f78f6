"""Dtypes whose fused kernels model cuPyNumeric's CPU kernels only (float16, complex64,
complex128, the argmin/argmax pairs): where Legate has GPUs, their work runs as cuPyNumeric
built it."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import cupynumeric as cn
import numpy
import pytest

from legate_fuse.session import Session

from .test_fused_ops import assert_same_bits, fused_and_unfused

CHAINS: dict[str, Callable[[Any], Any]] = {
    "float16": lambda a: cn.sqrt(a * a + 1) - a,
    "complex64": lambda a: (a * a + 1) - a,
    "complex128": lambda a: (a * a + 1) - a,
}


@pytest.mark.parametrize("dtype", sorted(CHAINS))
def test_stays_unfused_where_legate_has_gpus(session: Session, monkeypatch: pytest.MonkeyPatch,
                                             dtype: str) -> None:
    """On a machine with GPUs, the chain runs as cuPyNumeric built it, with no warning: its GPU
    kernels compute in half precision or with libcu++'s device code, which the kernels' models
    were not checked against. (On this machine, the same chain fuses.)"""
    from legate_fuse import lift
    from legate_fuse.lift import cupynumeric as lifting

    def forget_lifted() -> None:  # what a process with GPUs would never have lifted
        lifting._renderable.cache_clear()
        lift._LIFTED.clear()

    values = (numpy.linspace(-3, 3, 100) * (1 + 0.5j if "complex" in dtype else 1)).astype(dtype)
    monkeypatch.setattr(lifting, "machine_has_gpus", lambda: True)
    forget_lifted()
    try:
        fused, unfused, launches = fused_and_unfused(session, CHAINS[dtype], values, fuses=False)
        assert launches == 0
        assert_same_bits(fused, unfused)
    finally:
        monkeypatch.undo()
        forget_lifted()


def test_argmin_pairs_are_folded_by_cupynumeric_where_legate_has_gpus(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """cuPyNumeric's GPU kernels fold argmin/argmax pairs with atomics, which the kernels'
    fold was not checked against: where Legate has GPUs, the reduction is not lifted."""
    from legate_fuse.lift import cupynumeric as lifting

    args = ("UNARY_RED.ARGMIN.1", "{int64:0,float64:8}", ("float64",))
    lifting._renderable.cache_clear()
    assert lifting._renderable(*args)
    monkeypatch.setattr(lifting, "machine_has_gpus", lambda: True)
    lifting._renderable.cache_clear()
    try:
        assert not lifting._renderable(*args)
    finally:
        monkeypatch.undo()
        lifting._renderable.cache_clear()
