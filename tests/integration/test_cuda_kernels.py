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
        if any(dtype in description for dtype in ("float16", "complex64", "complex128", "{int64")):
            with pytest.raises(ValueError, match="no CUDA rendering"):  # unfused on GPUs
                spec.render_cuda()
            continue
        ptx = Path(compiler.build(spec.render_cuda())).read_text()
        assert ".entry legate_fuse_kernel" in ptx
