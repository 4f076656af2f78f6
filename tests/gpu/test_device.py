"""Fused kernels on a GPU give the results of fusion off (run with `legate --gpus 1`)."""

from __future__ import annotations

import cupynumeric as cn
import numpy
import pytest

import legate_fuse

pytestmark = pytest.mark.gpu


def fused_and_unfused(program, *inputs):  # type: ignore[no-untyped-def]
    arrays = [cn.array(x) for x in inputs]
    legate_fuse.flush()
    fused = numpy.asarray(program(*arrays))
    legate_fuse.disable()
    try:
        unfused = numpy.asarray(program(*arrays))
    finally:
        legate_fuse.enable()
    return fused, unfused


def test_elementwise_chain_on_the_gpu() -> None:
    x, y = numpy.linspace(-2, 2, 100_000), numpy.linspace(1, 3, 100_000)
    before = legate_fuse.stats()["fused_launches"]
    fused, unfused = fused_and_unfused(lambda a, b: cn.exp(a * 2.0) + b / 3.0 - a, x, y)
    assert legate_fuse.stats()["fused_launches"] > before
    assert fused.tobytes() == unfused.tobytes()


def test_reduction_on_the_gpu() -> None:
    x = numpy.linspace(0, 1, 1_000_000)
    fused, unfused = fused_and_unfused(lambda a: cn.sum(a * a + 1.0), x)
    numpy.testing.assert_allclose(fused, unfused, rtol=1e-12)
