"""The kernel cache loads nothing another user could have written: private folders and files
whatever the umask, folders refused where another user could write or replace them (the
program then builds its kernels in a folder of its own), planted entries never loaded, sticky
parents accepted, and a site's read-only cache read but never written.

Tests that stand for another user change owners with os.chown, which needs root (the test
command runs as root in CI); elsewhere they are skipped."""

from __future__ import annotations

import os
import stat
from collections.abc import Iterator
from pathlib import Path

import pytest

from legate_fuse.backend.cache_folders import CachePolicy, cache_policy, kernel_folder
from legate_fuse.backend.cache_safety import folder_problem
from legate_fuse.backend.compiler import KernelCache

ANOTHER_USER = 4242  # a uid no one here runs as
needs_root = pytest.mark.skipif(os.geteuid() != 0, reason="os.chown needs root")


def produce(source: str, output: Path) -> None:
    output.write_bytes(b"built from " + source.encode())


def cache_at(folder: Path, warnings: list[str], policy: CachePolicy | None = None
             ) -> KernelCache:
    return KernelCache(folder, ".so", lambda: {"compiler": "test"}, produce, warnings.append,
                       policy=policy or CachePolicy())


def mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


@pytest.fixture
def open_umask() -> Iterator[None]:
    """A umask that takes no bit away: whatever is private is made so on purpose."""
    previous = os.umask(0)
    try:
        yield
    finally:
        os.umask(previous)


@pytest.mark.usefixtures("open_umask")
def test_folders_and_files_are_private_whatever_the_umask(tmp_path: Path) -> None:
    cache_dir = tmp_path / "new" / "cache"
    kernels, kept = kernel_folder(str(cache_dir), pytest.fail)
    assert kept and kernels == cache_dir / "kernels"
    path = cache_at(kernels, []).build("kernel")
    for folder in (tmp_path / "new", cache_dir, kernels, path.parent):
        assert mode(folder) == 0o700, folder
    for file in path.parent.iterdir():
        assert mode(file) == 0o600, file


def test_a_world_writable_cache_folder_is_refused(tmp_path: Path) -> None:
    shared = tmp_path / "shared"
    shared.mkdir()
    shared.chmod(0o777)  # no sticky bit: anyone may rename what is in it
    warnings: list[str] = []
    kernels, kept = kernel_folder(str(shared), warnings.append)
    assert not kept and not kernels.is_relative_to(shared)
    (warning,) = warnings
    assert str(shared) in warning and "may be written by group or others" in warning
    assert mode(kernels) == 0o700
    # The program goes on: kernels are built in the process's own folder.
    assert cache_at(kernels, []).build("kernel").read_bytes() == b"built from kernel"


@needs_root
def test_a_cache_folder_owned_by_another_user_is_refused(tmp_path: Path) -> None:
    theirs = tmp_path / "theirs"
    theirs.mkdir(mode=0o755)
    os.chown(theirs, ANOTHER_USER, ANOTHER_USER)
    warnings: list[str] = []
    kernels, kept = kernel_folder(str(theirs), warnings.append)
    assert not kept and not kernels.is_relative_to(theirs)
    (warning,) = warnings
    assert str(theirs) in warning and f"uid {ANOTHER_USER}" in warning


def test_a_sticky_world_writable_parent_is_accepted(tmp_path: Path) -> None:
    scratch = tmp_path / "scratch"  # as /tmp: anyone may add names, no one rename others'
    scratch.mkdir()
    scratch.chmod(0o1777)
    warnings: list[str] = []
    kernels, kept = kernel_folder(str(scratch / "mine"), warnings.append)
    assert kept and kernels == scratch / "mine" / "kernels" and warnings == []
    # Without the sticky bit, the same parent is refused.
    scratch.chmod(0o777)
    assert "may be written" in (folder_problem(kernels, frozenset({os.geteuid()})) or "")


@needs_root
def test_a_planted_entry_with_a_valid_record_is_not_loaded(tmp_path: Path) -> None:
    warnings: list[str] = []
    path = cache_at(tmp_path, warnings).build("kernel")
    # Another user's code under the entry's name, its record rewritten to match it.
    planted = b"their code"
    path.write_bytes(planted)
    import hashlib
    import json

    (record,) = path.parent.glob("*.record")
    record.write_text(json.dumps({"format": 1, "size": len(planted),
                                  "sha256": hashlib.sha256(planted).hexdigest()}))
    renamed = path.with_name(f"{path.name.split('.')[0]}."
                             f"{hashlib.sha256(planted).hexdigest()[:16]}.so")
    path.rename(renamed)
    os.chown(renamed, ANOTHER_USER, ANOTHER_USER)
    os.chown(record, ANOTHER_USER, ANOTHER_USER)
    again = cache_at(tmp_path, warnings)
    loaded = again.build("kernel")
    assert loaded.read_bytes() == b"built from kernel" and again.compiled == 1
    (warning,) = warnings
    assert "is not loaded" in warning and f"uid {ANOTHER_USER}" in warning
    assert not renamed.exists()  # removed: no record names it any more


def test_an_entry_others_may_write_is_not_loaded(tmp_path: Path) -> None:
    warnings: list[str] = []
    path = cache_at(tmp_path, warnings).build("kernel")
    path.chmod(0o666)
    again = cache_at(tmp_path, warnings)
    assert again.find("kernel") is None  # a lookup alone never loads it
    assert again.build("kernel").read_bytes() == b"built from kernel" and again.compiled == 1
    assert len(warnings) == 1 and "may write it" in warnings[0]


def site_cache(tmp_path: Path) -> Path:
    """A site's cache as its administrator prepares it: filled by a program run, then owned by
    them and readable by all, long ago (a use now would show in its files' times)."""
    site = tmp_path / "site"
    cache_at(site / "kernels", []).build("prepared")
    for path in [site, *site.rglob("*")]:
        os.chown(path, ANOTHER_USER, ANOTHER_USER)
        path.chmod(0o755 if path.is_dir() else 0o644)
        os.utime(path, (1e9, 1e9))
    return site


@needs_root
def test_a_sites_read_only_cache_is_read_and_never_written(tmp_path: Path) -> None:
    site = site_cache(tmp_path)
    before = {p: (p.stat().st_mtime_ns, p.stat().st_size) for p in site.rglob("*")}
    warnings: list[str] = []
    policy = cache_policy(1 << 30, str(site), warnings.append)
    assert policy.site == site / "kernels" and warnings == []
    mine = tmp_path / "mine" / "kernels"
    cache = cache_at(mine, warnings, policy)
    found = cache.build("prepared")
    assert found.is_relative_to(site) and cache.compiled == 0 and cache.cache_hits == 1
    built = cache.build("new")
    assert built.is_relative_to(mine) and cache.compiled == 1
    after = {p: (p.stat().st_mtime_ns, p.stat().st_size) for p in site.rglob("*")}
    assert after == before and warnings == []


@needs_root
def test_a_read_only_cache_others_may_write_is_not_used(tmp_path: Path) -> None:
    site = site_cache(tmp_path)
    (site / "kernels").chmod(0o775)
    warnings: list[str] = []
    policy = cache_policy(1 << 30, str(site), warnings.append)
    assert policy.site is None
    (warning,) = warnings
    assert "read-only kernel cache" in warning and "group or others" in warning
