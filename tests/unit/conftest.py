from __future__ import annotations

import pytest

from legate_fuse.backend.cpu_kernels import KernelCompiler


@pytest.fixture(scope="module")
def compiler(tmp_path_factory: pytest.TempPathFactory) -> KernelCompiler:
    """A kernel compiler with a cache of its own."""
    return KernelCompiler(tmp_path_factory.mktemp("kernels"))
