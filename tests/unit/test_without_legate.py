"""The package must be importable, and inert, without starting Legate."""

from __future__ import annotations

import subprocess
import sys

import pytest


def run(code: str, **env: str) -> str:
    import os

    environ = {k: v for k, v in os.environ.items() if not k.startswith("LEGATE_FUSE")}
    environ.update(env)
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=environ, timeout=60
    )
    assert result.returncode == 0, result.stderr
    return result.stdout.strip()


def test_core_modules_import_without_legate() -> None:
    code = (
        "import sys, legate_fuse, legate_fuse.window.holding, legate_fuse.settings\n"
        "import legate_fuse._core\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in ('legate', 'cupynumeric')))"
    )
    assert run(code) == "[]"


def test_core_extension_reports_the_kernel_abi() -> None:
    from legate_fuse import _core

    assert _core.KERNEL_ABI_VERSION >= 1
    assert _core.MAX_DIM >= 4


@pytest.mark.parametrize("value", ["", "0"])
def test_start_up_hook_does_nothing_when_off(value: str) -> None:
    code = (
        "import sys, legate_fuse.session as s\n"
        "print(s.current() is None, any(type(f).__name__ == 'PostImportFinder' "
        "for f in sys.meta_path))"
    )
    assert run(code, LEGATE_FUSE=value) == "True False"


def test_start_up_hook_waits_for_legate_when_on() -> None:
    code = (
        "import sys\n"
        "print('legate.core' in sys.modules, any(type(f).__name__ == 'PostImportFinder' "
        "for f in sys.meta_path))"
    )
    assert run(code, LEGATE_FUSE="1") == "False True"
