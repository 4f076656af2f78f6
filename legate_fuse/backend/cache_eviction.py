"""A bounded kernel cache: the least recently used entries are evicted, as ccache's max_size does.

Entries are spread over 16 folders by the first digit of their key (cache_entry.py), and each
folder is kept within a sixteenth of the limit (LEGATE_FUSE_CACHE_SIZE): after a process writes
an entry, it lists that folder and, while its files take more, removes the entries used least
recently. The whole cache then stays within the limit without any process listing all of it or
keeping a count that concurrent processes would have to share. Use is the modification time of
an entry's files: a process that finds an entry on disk touches its file, where it was last
touched more than an hour ago (cache_entry.USE_RESOLUTION: a hit makes no write otherwise).

Removal is safe while other processes use the cache: a shared object already loaded stays
mapped after its file is unlinked, and an entry's file goes before its record, since a record
without its file reads as a miss (a write in progress) while a file without its record reads
as damage. Two processes evicting from one folder at once only remove an entry twice.
"""

from __future__ import annotations

import contextlib
import os
import re
from dataclasses import dataclass
from pathlib import Path

from legate_fuse.backend.cache_entry import RECORD_SUFFIX

FOLDERS = 16
# An entry's file in the cache's own folder, as versions before the 16 folders wrote them.
_OLD_LAYOUT = re.compile(r"[0-9a-f]{32}\..+")


@dataclass(frozen=True)
class Stored:
    """One file of a folder of entries."""

    path: Path
    size: int
    used: float  # modification time


def stored_files(folder: Path) -> dict[str, list[Stored]]:
    """The files of a folder of entries, by the key of the entry they belong to (the name up
    to its first dot); names beginning with a dot (work in progress) are not entries."""
    entries: dict[str, list[Stored]] = {}
    try:
        listing = list(os.scandir(folder))
    except OSError:
        return entries
    for item in listing:
        if item.name.startswith("."):
            continue
        try:
            if not item.is_file(follow_symlinks=False):
                continue
            status = item.stat(follow_symlinks=False)
        except OSError:
            continue  # removed meanwhile
        key = item.name.split(".", 1)[0]
        entries.setdefault(key, []).append(Stored(Path(item.path), status.st_size,
                                                  status.st_mtime))
    return entries


def evict(folder: Path, budget: int, keep: str = "") -> int:
    """Removes the least recently used entries of `folder` until its files take at most
    `budget` bytes, never the entry of key `keep` (the one just written); the bytes removed."""
    entries = stored_files(folder)
    total = sum(f.size for files in entries.values() for f in files)
    removed = 0
    by_use = sorted((key for key in entries if key != keep),
                    key=lambda key: max(f.used for f in entries[key]))
    for key in by_use:
        if total - removed <= budget:
            break
        # Records last: see the module's documentation.
        for stored in sorted(entries[key], key=lambda f: f.path.name.endswith(RECORD_SUFFIX)):
            with contextlib.suppress(FileNotFoundError):
                stored.path.unlink()
            removed += stored.size
    return removed


def folder_budget(limit: int) -> int:
    """The bytes each folder of entries may take under a cache limit of `limit` (0: none)."""
    return max(1, limit // FOLDERS) if limit > 0 else 0


def remove_old_layout(kernels: Path) -> None:
    """Removes the entries an earlier version kept in the cache's own folder, which nothing
    reads or evicts any more."""
    with contextlib.suppress(OSError), os.scandir(kernels) as listing:
        for item in listing:
            if _OLD_LAYOUT.fullmatch(item.name) and item.is_file(follow_symlinks=False):
                with contextlib.suppress(OSError):
                    os.unlink(item.path)
