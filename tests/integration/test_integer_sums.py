"""Sums and products of narrower integers into 64 bits (`sum(mask)`, the count of a comparison,
`sum` of int8 or uint16 arrays, as NumPy widens them) fused: exact, so bit for bit."""

from __future__ import annotations

from typing import Any

import cupynumeric as np
import pytest

import legate_fuse

from . import compare

NARROW = ["bool", "int8", "int16", "int32", "uint8", "uint16", "uint32"]


@pytest.mark.parametrize("dtype", NARROW)
def test_sums_and_products_widened_fuse(always_fuse: Any, dtype: str) -> None:
    def program() -> list[Any]:
        x = np.random.default_rng(5).random(100_000)
        v = (x * 300).astype(dtype)
        ranged = np.arange(1000, dtype=dtype) if dtype != "bool" else v
        return [np.sum(v), np.prod(v[:7] % 3 + 1), np.sum(ranged), np.sum((v * 3)[10:900]),
                np.sum(x > 0.5), np.sum(x < 0.25)]

    before = legate_fuse.stats()["unfused"].get("cupynumeric.SCALAR_UNARY_RED", {})
    compare.run_both(program)
    after = legate_fuse.stats()["unfused"].get("cupynumeric.SCALAR_UNARY_RED", {})
    # (Run unfused only as the reference, with fusion disabled.)
    not_lifted = after.get("why", {}).get("not lifted", 0) - before.get("why", {}).get(
        "not lifted", 0)
    assert not_lifted == 0
