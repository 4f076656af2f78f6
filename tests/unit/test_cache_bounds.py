"""The kernel cache stays within its size, evicting the least recently used entries, also while
several processes fill it at once; `python -m legate_fuse cache` reports it and clears it."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

from legate_fuse.backend import cache_usage
from legate_fuse.backend.cache_eviction import FOLDERS, stored_files
from legate_fuse.backend.cache_folders import CachePolicy
from legate_fuse.backend.compiler import KernelCache, cache_key

ENTRY = 4096  # bytes of each file the test's producer writes


def produce(source: str, output: Path) -> None:
    output.write_bytes((source.encode() * ENTRY)[:ENTRY])


def cache_at(folder: Path, limit: int) -> KernelCache:
    return KernelCache(folder, ".so", lambda: {"compiler": "test"}, produce,
                       policy=CachePolicy(size_limit=limit))


def folder_of(source: str) -> str:
    """The folder of entries the source's entry is in."""
    return cache_key({"source": source, "compiler": "test"})[0][0]


def cache_size(folder: Path) -> int:
    return sum(f.size for sub in folder.iterdir() if sub.is_dir()
               for files in stored_files(sub).values() for f in files)


def test_entries_are_spread_over_sixteen_folders(tmp_path: Path) -> None:
    cache = cache_at(tmp_path, 0)
    paths = [cache.build(f"kernel {i}") for i in range(64)]
    folders = {p.parent.name for p in paths}
    assert len(folders) > 8 and folders <= {f"{d:x}" for d in range(FOLDERS)}
    assert all(p.parent.parent == tmp_path for p in paths)


def test_the_least_recently_used_entries_are_evicted_first(tmp_path: Path) -> None:
    limit = FOLDERS * 3 * (ENTRY + 200)  # three entries, with their records, per folder
    cache = cache_at(tmp_path, limit)
    sources = [f"kernel {i}" for i in range(400)]
    paths = {s: cache.build(s) for s in sources}
    assert cache_size(tmp_path) <= limit
    kept = [s for s in sources if paths[s].exists()]
    assert 0 < len(kept) < len(sources)
    # The entries written last are kept, those written first evicted.
    assert paths[sources[-1]].exists() and not paths[sources[0]].exists()
    # A hit marks an entry used: it outlives the entries of its folder written after it.
    folder = paths[kept[0]].parent
    old = [s for s in kept if paths[s].parent == folder]
    assert len(old) == 3
    for path in folder.iterdir():  # written a day ago
        os.utime(path, (path.stat().st_atime, path.stat().st_mtime - 86_400))
    cache_at(tmp_path, limit).build(old[0])  # found on disk: used now
    newcomers = [s for s in (f"new {i}" for i in range(1000)) if folder_of(s) == folder.name]
    for s in newcomers[:2]:
        cache.build(s)
    assert paths[old[0]].exists() and not any(paths[s].exists() for s in old[1:])


def test_two_processes_filling_the_cache_keep_it_within_its_limit(tmp_path: Path) -> None:
    limit = FOLDERS * 4 * (ENTRY + 200)  # four entries, with their records, per folder
    program = textwrap.dedent(f"""
        import sys
        from pathlib import Path
        sys.path.insert(0, {str(Path(__file__).parent)!r})
        from test_cache_bounds import cache_at
        cache = cache_at(Path({str(tmp_path)!r}), {limit})
        for i in range(300):
            cache.build(f"{{sys.argv[1]}} kernel {{i}}")
    """)
    writers = [subprocess.Popen([sys.executable, "-c", program, name]) for name in "ab"]
    assert [w.wait(timeout=300) for w in writers] == [0, 0]
    assert 0 < cache_size(tmp_path) <= limit
    assert cache_size(tmp_path) < 600 * ENTRY // 4  # most of what was written was evicted
    # Every entry left is whole: its record and its file.
    for sub in tmp_path.iterdir():
        if sub.is_dir() and not sub.name.startswith("."):
            for key, files in stored_files(sub).items():
                assert len(files) == 2, key


def test_the_cache_command_reports_and_clears(tmp_path: Path) -> None:
    kernels = tmp_path / "kernels"
    cache = cache_at(kernels, 0)
    cache.build("one")
    cache_at(kernels, 0).build("one")  # found on disk
    cache_usage.flush()
    environ = {**os.environ, "LEGATE_FUSE_CACHE_DIR": str(tmp_path)}

    def command(*arguments: str) -> str:
        return subprocess.run([sys.executable, "-m", "legate_fuse", "cache", *arguments],
                              env=environ, capture_output=True, text=True, check=True,
                              timeout=60).stdout

    report = command()
    assert str(kernels) in report and "private to this user" in report
    assert "entries: 1 (1 CPU kernels)" in report and "size: 0.0 MiB of at most 1024.0 MiB" \
        in report
    assert "hit rate since the last clear: 50.0% (1 found, 1 built)" in report
    assert "cleared" in command("--clear")
    assert not any(kernels.glob("*/*")) and cache_usage.read(kernels) == {"hits": 0, "misses": 0}
    assert "entries: 0" in command() and "no lookups counted yet" in command()


def test_the_cache_command_says_why_a_folder_is_refused(tmp_path: Path) -> None:
    shared = tmp_path / "shared"
    (shared / "kernels").mkdir(parents=True)
    shared.chmod(0o777)
    result = subprocess.run([sys.executable, "-m", "legate_fuse", "cache", "--clear"],
                            env={**os.environ, "LEGATE_FUSE_CACHE_DIR": str(shared)},
                            capture_output=True, text=True, check=True, timeout=60)
    assert "not cleared" in result.stdout and "may be written by group or others" \
        in result.stdout
    report = subprocess.run([sys.executable, "-m", "legate_fuse", "cache"],
                            env={**os.environ, "LEGATE_FUSE_CACHE_DIR": str(shared)},
                            capture_output=True, text=True, check=True, timeout=60).stdout
    assert "refused, another user could write it" in report
