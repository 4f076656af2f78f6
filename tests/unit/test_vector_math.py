"""The vector form of float64 exp (codegen/c_vector_math.h) and the check that guards it."""

from __future__ import annotations

import re
from pathlib import Path

import numpy
import pytest

from legate_fuse import _core
from legate_fuse.backend import vector_math
from legate_fuse.backend.compiler import KernelCache
from legate_fuse.backend.cpu_kernels import KernelCompiler

from .c_kernels import run
from .repository_scripts import load_script
from .test_staged_loops import STAGED, inputs, strided_copy


def generator() -> object:
    return load_script("gen_exp_table")


def test_the_table_in_the_kernels_is_2_to_the_i_over_128() -> None:
    words = [int(w, 16) for w in re.findall(r"0x([0-9a-f]{16})ULL",
                                            _core.vector_math_check_program())]
    assert words == generator().exp_table()  # type: ignore[attr-defined]
    # Spot check: entry 64 is 2^(1/2) = sqrt(2), its bits minus 64 << 45.
    assert words[129] + (64 << 45) == numpy.float64(numpy.sqrt(2.0)).view(numpy.uint64)


def verdict_of(source: str, tmp_path: Path) -> str:
    cache = KernelCache(tmp_path, ".verdict", lambda: {}, vector_math.check_producer("cc"))
    return cache.build(source).read_text()


def test_the_check_finds_a_vector_form_that_rounds_differently(tmp_path: Path) -> None:
    # The last step unfused, as the C library's build for CPUs without FMA computes it: most
    # results still agree, some do not, and the check must say so.
    source = _core.vector_math_check_program()
    assert "return fma(scale, tmp, scale);" in source
    broken = source.replace("return fma(scale, tmp, scale);", "return scale + scale * tmp;")
    verdict = verdict_of(broken, tmp_path)
    assert verdict.startswith("different") and "C library" in verdict


def test_a_check_that_cannot_be_compiled_means_no_vector_form(tmp_path: Path) -> None:
    vector_math.vector_exp_available.cache_clear()
    try:
        assert not vector_math.vector_exp_available(tmp_path, "false")
        assert vector_math.kernel_defines(tmp_path, "false") == ("-DLF_VECTOR_EXP=0",)
    finally:
        vector_math.vector_exp_available.cache_clear()


@pytest.mark.filterwarnings("ignore::RuntimeWarning")
@pytest.mark.parametrize("available", [False, True])
def test_kernels_agree_with_and_without_the_vector_form(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, available: bool
) -> None:
    if available and not vector_math.vector_exp_available(tmp_path / "check", "cc"):
        pytest.skip("the vector exp does not round as this machine's C library")
    monkeypatch.setattr(vector_math, "vector_exp_available", lambda *_: available)
    compiler = KernelCompiler(tmp_path / "kernels")
    x, y = inputs(1000)
    results = []
    for layout in (numpy.ascontiguousarray, strided_copy):  # staged (vector) vs one loop
        xs, ys, out, total = layout(x.copy()), layout(y.copy()), layout(numpy.zeros(1000)), \
            numpy.array(0.0)
        run(compiler, STAGED, [xs, ys, out, total], (1000,), (0.25,))
        results.append((out.tobytes(), total.tobytes()))
    assert results[0] == results[1]
    flags = compiler.identity()["flags"]
    assert f"-DLF_VECTOR_EXP={int(available)}" in flags
