"""The kernels fused for the integration programs also compile as CUDA, to PTX, with NVRTC
(no GPU needed): the GPU path generates from the same specs."""

from __future__ import annotations

from pathlib import Path

import cupynumeric as cn
import pytest

import legate_fuse
from legate_fuse import _core
from legate_fuse.backend.nvrtc import PtxCompiler, find_nvrtc
from legate_fuse.session import Session

from . import plan_programs


def writes_a_value_once(description: str) -> bool:
    """Whether a kernel iterates over arrays and writes a 0-d value (codegen/value_outputs.h:
    only where a fused task runs as one point on a CPU)."""
    args = [line for line in description.splitlines() if line.startswith("arg ") and ":" in line]
    return (any("output" in arg and "(one value)" in arg for arg in args)
            and any("(one value)" not in arg for arg in args))


def test_kernels_of_the_programs_compile_to_ptx(session: Session, tmp_path: Path) -> None:
    try:
        _core.nvrtc_version(find_nvrtc())
    except _core.NvrtcError as error:
        pytest.skip(f"NVRTC is not available: {error}")
    plan_programs.every_program(cn)
    legate_fuse.flush()
    specs = session.fuser().kernel_specs()
    assert len(specs) >= 10
    compiler = PtxCompiler(tmp_path)
    for spec in specs:
        description = spec.describe()
        if (any(dtype in description for dtype in ("float16", "complex64", "complex128", "{int64"))
                or writes_a_value_once(description)):
            with pytest.raises(ValueError, match="no CUDA rendering"):  # unfused on GPUs
                spec.render_cuda()
            continue
        ptx = Path(compiler.build(spec.render_cuda())).read_text()
        assert ".entry legate_fuse_kernel" in ptx
