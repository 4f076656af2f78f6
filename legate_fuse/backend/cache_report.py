"""`python -m legate_fuse cache [--clear]`: what the kernel cache holds, and emptying it.

Reads the folders and the usage counts (cache_usage.py) alone: neither Legate nor the
compiled core is loaded.
"""

from __future__ import annotations

import contextlib
import shutil
from collections import Counter
from pathlib import Path

from legate_fuse.backend import cache_usage
from legate_fuse.backend.cache_entry import RECORD_SUFFIX
from legate_fuse.backend.cache_eviction import FOLDERS, stored_files
from legate_fuse.backend.cache_safety import folder_problem, user

# What an entry's record is the record of, by its suffix.
KINDS = {".so": "CPU kernels", ".ptx": "GPU kernels", ".verdict": "vector math checks"}


def entry_folders(kernels: Path) -> list[Path]:
    return [kernels / f"{digit:x}" for digit in range(FOLDERS)]


def contents(kernels: Path) -> tuple[Counter[str], int]:
    """The entries of each kind, and the bytes of every file of the cache's entry folders."""
    kinds: Counter[str] = Counter()
    size = 0
    for folder in entry_folders(kernels):
        for files in stored_files(folder).values():
            size += sum(f.size for f in files)
            for f in files:
                if f.path.name.endswith(RECORD_SUFFIX):
                    kinds["." + f.path.name[:-len(RECORD_SUFFIX)].split(".", 1)[-1]] += 1
    return kinds, size


def mebibytes(size: int) -> str:
    return f"{size / (1 << 20):.1f} MiB"


def describe(cache_dir: str, size_limit: int, readonly: str) -> str:
    """The cache's folder, whether it is used, its entries, size and hit rate."""
    kernels = Path(cache_dir) / "kernels"
    lines = [f"kernel cache: {kernels}"]
    if not kernels.is_dir():
        lines.append("  not created yet (the first fused program creates it)")
        return "\n".join(lines)
    problem = folder_problem(kernels, frozenset({user()}))
    lines.append("  refused, another user could write it: " + problem if problem
                 else "  private to this user: used")
    kinds, size = contents(kernels)
    listed = ", ".join(f"{kinds[suffix]} {name}" for suffix, name in KINDS.items()
                       if kinds[suffix])
    lines.append(f"  entries: {sum(kinds.values())}" + (f" ({listed})" if listed else ""))
    limit = f" of at most {mebibytes(size_limit)}" if size_limit else " (no limit)"
    lines.append(f"  size: {mebibytes(size)}{limit}")
    usage = cache_usage.read(kernels)
    lookups = usage["hits"] + usage["misses"]
    lines.append(f"  hit rate since the last clear: {usage['hits'] / lookups:.1%} "
                 f"({usage['hits']} found, {usage['misses']} built)" if lookups
                 else "  hit rate since the last clear: no lookups counted yet")
    if readonly:
        lines.append(f"read-only site cache: {Path(readonly) / 'kernels'}")
    return "\n".join(lines)


def clear(cache_dir: str) -> str:
    """Empties the cache (entries and counts), if it is the user's own."""
    kernels = Path(cache_dir) / "kernels"
    if not kernels.is_dir():
        return f"kernel cache {kernels}: nothing to clear"
    problem = folder_problem(kernels, frozenset({user()}))
    if problem:
        return f"kernel cache {kernels} not cleared, it is not this user's own: {problem}"
    for folder in entry_folders(kernels):
        shutil.rmtree(folder, ignore_errors=True)
    with contextlib.suppress(OSError):
        (kernels / cache_usage.STATS_FILE).unlink()
    return f"kernel cache {kernels} cleared"
