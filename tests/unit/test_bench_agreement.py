"""The bench harness's agreement rule: fusion off and on give the same checksum bit for bit,
except in fast math mode (LEGATE_FUSE_MATH=fast), whose functions round otherwise than the C
library: there within a stated relative difference, and never more."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "bench"))
from ab import FAST_MATH_RTOL, checksum_disagreement

OFF = 27531031.04904409
CLOSE = 27531031.0490441  # 3 ulp away: what fast mode gave on Black-Scholes


def in_mode(monkeypatch: pytest.MonkeyPatch, mode: str | None) -> None:
    """LEGATE_FUSE_MATH set to `mode`, or unset (the default, exact)."""
    if mode is None:
        monkeypatch.delenv("LEGATE_FUSE_MATH", raising=False)
    else:
        monkeypatch.setenv("LEGATE_FUSE_MATH", mode)


@pytest.mark.parametrize("mode", ["exact", "fast", None])
def test_equal_checksums_agree_in_every_mode(monkeypatch: pytest.MonkeyPatch,
                                             mode: str | None) -> None:
    in_mode(monkeypatch, mode)
    assert checksum_disagreement([OFF, OFF], [OFF, OFF]) == ""


@pytest.mark.parametrize("mode", ["exact", None])
def test_exact_mode_asks_for_the_same_bits(monkeypatch: pytest.MonkeyPatch,
                                           mode: str | None) -> None:
    in_mode(monkeypatch, mode)
    assert "disagree" in checksum_disagreement([OFF], [CLOSE])


def test_fast_mode_allows_its_stated_difference_and_no_more(
        monkeypatch: pytest.MonkeyPatch) -> None:
    in_mode(monkeypatch, "fast")
    assert checksum_disagreement([OFF], [CLOSE]) == ""
    assert "disagree" in checksum_disagreement([OFF], [OFF * (1 + 10 * FAST_MATH_RTOL)])
    # Runs of one way must still agree with each other, bit for bit.
    assert "runs with fusion on disagree" in checksum_disagreement([OFF, OFF], [OFF, CLOSE])
