"""How often the kernel cache had what processes looked for, since it was last cleared.

Each process counts its lookups that found an entry on disk (hits) and those that had to
build one (misses) in memory, and adds them to the folder's `stats.json` at its exit, under a
lock of that file, so that processes ending together add up: `python -m legate_fuse cache`
reports the sums. A process killed before its exit does not count.
"""

from __future__ import annotations

import atexit
import contextlib
import fcntl
import json
import os
import threading
from collections import Counter
from collections.abc import Callable
from pathlib import Path

STATS_FILE = "stats.json"

_pending: dict[Path, Counter[str]] = {}
_lock = threading.Lock()


def count(cache_dir: Path, hits: int = 0, misses: int = 0) -> None:
    """Counts lookups of this process in the cache `cache_dir`, added to its file at exit
    (cheap: a cache hit calls it)."""
    with _lock:
        counter = _pending.get(cache_dir)
        if counter is None:
            if not _pending:
                atexit.register(flush)
            counter = _pending[cache_dir] = Counter()
        counter["hits"] += hits
        counter["misses"] += misses


def flush() -> None:
    """Adds this process's counts to each cache's file (what cannot be written is dropped)."""
    with _lock:
        pending = {folder: counter for folder, counter in _pending.items() if counter}
        _pending.clear()
    for folder, counter in pending.items():
        def add(totals: dict[str, int], counter: Counter[str] = counter) -> dict[str, int]:
            return {k: int(totals.get(k, 0)) + counter[k] for k in ("hits", "misses")}

        with contextlib.suppress(OSError, ValueError):
            update(folder, add)


def update(cache_dir: Path, change: Callable[[dict[str, int]], dict[str, int]]
           ) -> dict[str, int]:
    """Replaces the counts of `cache_dir` by `change(counts)` under the file's lock."""
    path = Path(cache_dir) / STATS_FILE
    descriptor = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
    with os.fdopen(descriptor, "r+") as file:
        fcntl.flock(file, fcntl.LOCK_EX)
        text = file.read()
        try:
            totals = json.loads(text) if text.strip() else {}
        except ValueError:
            totals = {}  # a damaged file: counting starts again
        totals = change(totals)
        file.seek(0)
        file.truncate()
        file.write(json.dumps(totals) + "\n")
    return totals


def read(cache_dir: Path) -> dict[str, int]:
    """The counts of `cache_dir` since it was last cleared (none where nothing was counted)."""
    try:
        totals = json.loads((Path(cache_dir) / STATS_FILE).read_text())
        return {k: int(totals.get(k, 0)) for k in ("hits", "misses")}
    except (OSError, ValueError, AttributeError):
        return {"hits": 0, "misses": 0}
