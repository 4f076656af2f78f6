from __future__ import annotations

import sys
from pathlib import Path
from types import ModuleType

import pytest

from legate_fuse.capture.import_hooks import after_import


@pytest.fixture
def module_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.syspath_prepend(str(tmp_path))
    return tmp_path


def test_callback_runs_after_the_module_body(module_dir: Path) -> None:
    (module_dir / "lf_hook_probe_a.py").write_text("VALUE = 41\n")
    seen: list[int] = []
    after_import("lf_hook_probe_a", lambda module: seen.append(module.VALUE))
    assert seen == []
    import lf_hook_probe_a  # type: ignore[import-not-found]

    assert seen == [41]
    assert lf_hook_probe_a.VALUE == 41


def test_callback_runs_at_once_for_an_imported_module() -> None:
    seen: list[ModuleType] = []
    after_import("json", seen.append)
    assert seen == [sys.modules["json"]]


def test_callback_runs_once(module_dir: Path) -> None:
    (module_dir / "lf_hook_probe_b.py").write_text("")
    seen: list[str] = []
    after_import("lf_hook_probe_b", lambda module: seen.append(module.__name__))
    import lf_hook_probe_b  # type: ignore[import-not-found]

    del sys.modules["lf_hook_probe_b"]
    import lf_hook_probe_b  # type: ignore[import-not-found]  # noqa: F401, F811

    assert seen == ["lf_hook_probe_b"]
