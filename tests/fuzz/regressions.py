"""Programs the fuzzer once found failing, kept as regression examples (shrunk)."""

from __future__ import annotations

from .programs import Statement

REGRESSIONS: list[list[Statement]] = [
    # A group computing only on 0-d values (no partitioned store) ran no element.
    [("read", "sum", "v0"), ("reduce_scale", "mean", "v1", "v2"), ("read", "max", "v2")],
]
