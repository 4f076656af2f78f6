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


def test_a_module_still_running_its_body_waits_for_poll(module_dir: Path) -> None:
    """Asked for while its body runs, a module is handed over only once the body has ended:
    its later names would otherwise look missing."""
    (module_dir / "lf_hook_probe_c.py").write_text(
        "import sys\n"
        "from legate_fuse.capture import import_hooks\n"
        "SEEN = []\n"
        "import_hooks.after_import('lf_hook_probe_c', lambda m: SEEN.append(m.LATE))\n"
        "LATE = 'defined after the request'\n")
    import lf_hook_probe_c  # type: ignore[import-not-found]

    from legate_fuse.capture import import_hooks

    assert lf_hook_probe_c.SEEN == []
    assert import_hooks.awaiting()
    import_hooks.poll()
    assert lf_hook_probe_c.SEEN == ["defined after the request"]
    assert not import_hooks.awaiting()


def test_a_watched_module_counts_as_imported_while_its_callbacks_run(module_dir: Path) -> None:
    """importlib marks a module as initialising until its loader returns; a callback run by
    the wrapped loader runs after the body ended, and sees the module as imported."""
    from legate_fuse.capture import import_hooks

    (module_dir / "lf_hook_probe_d.py").write_text("VALUE = 1\n")
    seen: list[bool] = []
    after_import("lf_hook_probe_d",
                 lambda module: seen.append(import_hooks.is_imported(module.__name__)))
    import lf_hook_probe_d  # type: ignore[import-not-found]  # noqa: F401

    assert seen == [True]
