"""LEGATE_FUSE_MATH at each of its values, through a real program: exact (the default) gives the
bits fusion off gives; fast fuses the same program with the C library's vector math, within a
few ulp of them."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy

from .test_activation import run

PROGRAM = """
import json, sys, numpy, cupynumeric as np, legate_fuse
a = np.array(numpy.linspace(0.1, 50.0, 100003))
got = numpy.asarray(np.exp(-a / 7.0) * np.sin(a) + np.log(a) * np.tanh(a / 9.0))
numpy.save(sys.argv[1], got)
print("RESULT " + json.dumps(legate_fuse.stats()))
"""


def values(tmp_path: Path, label: str, **env: str) -> tuple[numpy.ndarray, dict[str, object]]:
    out = tmp_path / f"{label}.npy"
    result = run([sys.executable, "-c", PROGRAM, str(out)], LEGATE_FUSE_CACHE_DIR=str(tmp_path),
                 **env)
    assert result.returncode == 0, result.stderr[-3000:]
    line = next(ln for ln in result.stdout.splitlines() if ln.startswith("RESULT "))
    return numpy.load(out), json.loads(line[len("RESULT "):])


def test_exact_is_fusion_off_bit_for_bit_and_fast_is_within_a_few_ulp(tmp_path: Path) -> None:
    off, _ = values(tmp_path, "off")
    exact, exact_stats = values(tmp_path, "exact", LEGATE_FUSE="1")
    fast, fast_stats = values(tmp_path, "fast", LEGATE_FUSE="1", LEGATE_FUSE_MATH="fast")
    assert exact_stats["fused_launches"] and fast_stats["fused_launches"]  # type: ignore[index]
    assert exact.tobytes() == off.tobytes()
    scale = numpy.abs(off).max()
    assert numpy.abs(fast - off).max() <= 1e-14 * scale
    assert fast.tobytes() != off.tobytes(), "fast mode computed the C library's values"
