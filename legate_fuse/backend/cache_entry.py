"""One entry of the on-disk kernel cache: a file and the record of its size and digest.

A file cut short (a full disk, a killed copy, a shared network folder) must never reach the
loader: dlopen maps it and the process dies of SIGBUS on the pages past its end instead of
getting an error. So each entry's size and sha256 are recorded when it is written and checked
before it is used.

Layout, for the cache key K (hexadecimal) and a file suffix such as ".so", in the subfolder
named by K's first digit (entries spread over 16 folders, as git and ccache spread theirs, so
that no folder grows too long to list and evict from: cache_eviction.py):

    K[0]/K.so.record         {"format": 1, "size": <bytes>, "sha256": "<64 hex digits>"}
    K[0]/K.<16 hex>.so       the file the record describes; its name carries the digest's start

The file's name follows from its contents, so a record always names the file it describes,
whatever order concurrent writers finish in: compilers do not promise identical bytes (paths
of scratch folders end up in the output), so two processes filling the same entry may write
two different files, and whichever record is renamed into place last wins. Both renames are
atomic, and the record goes first: a record whose file is not there yet is a write in progress
(or one killed half-way), which reads as a miss, so a file without a record can only be damage.
Records are replaced, never deleted but by eviction, which removes an entry's file before
its record for the same reason.

Files are written readable and writable by the user alone (mode 600), and a file is used only
if its owner is trusted and no one else may write it (cache_safety.py): checked on the open
file whose digest is then read, so that what is checked is what is loaded.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import time
from dataclasses import dataclass, field
from pathlib import Path

from legate_fuse.backend.cache_safety import item_problem, user

RECORD_FORMAT = 1
RECORD_SUFFIX = ".record"
# Seconds within which a file found again is not marked used again (cache_eviction.py).
USE_RESOLUTION = 3600.0


class DamagedEntry(Exception):
    """An entry that cannot be trusted: its file or its record is damaged, or unreadable."""

    def __init__(self, path: Path, reason: str, stale: tuple[Path, ...] = ()) -> None:
        super().__init__(f"kernel cache entry {path} is damaged ({reason})")
        # Files of the entry no record will name once it is rebuilt (removed then).
        self.stale = stale


class UntrustedEntry(DamagedEntry):
    """An entry whose file another user wrote, or could write: never loaded."""

    def __init__(self, path: Path, reason: str, stale: tuple[Path, ...] = ()) -> None:
        super().__init__(path, reason, stale)
        self.args = (f"kernel cache entry {path} is not loaded, since another user wrote it "
                     f"or could write it ({reason})",)


@dataclass(frozen=True)
class Entry:
    """Where the entry for one key lives, and whose files it may use."""

    cache_dir: Path
    key: str
    suffix: str
    owners: frozenset[int] = field(default_factory=lambda: frozenset({user()}))
    # Its folder of entries and its record's path, made once (a lookup uses them repeatedly).
    folder: Path = field(init=False, repr=False, compare=False)
    record: Path = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        folder = self.cache_dir / self.key[0]
        object.__setattr__(self, "folder", folder)
        object.__setattr__(self, "record", folder / f"{self.key}{self.suffix}{RECORD_SUFFIX}")

    def file(self, sha256: str) -> Path:
        return self.folder / f"{self.key}.{sha256[:16]}{self.suffix}"

    def files(self) -> list[Path]:
        """Every file written for this key, whether a record names it or not."""
        return sorted(self.folder.glob(f"{self.key}.*{self.suffix}"))

    def find(self, mark_use: bool = False) -> Path | None:
        """The entry's file, its size and digest checked against the record; None when there is
        no entry yet (or another process is writing it). Raises DamagedEntry. With `mark_use`,
        a file found is marked used now (its modification time), unless it was less than
        USE_RESOLUTION ago."""
        record = self._read_record()
        if record is None:
            return None
        size, sha256 = record
        path = self.file(sha256)
        try:
            with open(path, "rb") as file:
                status = os.fstat(file.fileno())
                untrusted = item_problem(status, self.owners)
                if untrusted is not None:
                    raise UntrustedEntry(path, untrusted, (path,))
                # The size first: a file cut short is not read at all.
                actual = status.st_size
                if actual != size:
                    raise DamagedEntry(path, f"{actual} bytes, {size} recorded", (path,))
                contents = file.read()
        except FileNotFoundError:
            return None  # the record of a write still in progress, or cut short: a miss
        except OSError as error:
            raise DamagedEntry(path, f"cannot be read: {error}", (path,)) from error
        if len(contents) != size:
            raise DamagedEntry(path, f"{len(contents)} bytes, {size} recorded", (path,))
        if hashlib.sha256(contents).hexdigest() != sha256:
            raise DamagedEntry(path, "contents differ from the recorded sha256", (path,))
        if mark_use and time.time() - status.st_mtime > USE_RESOLUTION:
            with contextlib.suppress(OSError):
                os.utime(path)
        return path

    def publish(self, produced: Path, scratch: Path) -> Path:
        """Moves a file just produced (in `scratch`, a folder of the cache's file system) into
        the cache under its record; returns its path in the cache."""
        contents = produced.read_bytes()
        sha256 = hashlib.sha256(contents).hexdigest()
        record = scratch / "record"
        record.write_text(json.dumps({"format": RECORD_FORMAT, "size": len(contents),
                                      "sha256": sha256}) + "\n")
        # Private whatever the umask (a compiler writes its output 755 under the usual 022).
        os.chmod(record, 0o600)
        os.chmod(produced, 0o600)
        os.replace(record, self.record)  # the record first: see the module's documentation
        target = self.file(sha256)
        os.replace(produced, target)
        return target

    def _read_record(self) -> tuple[int, str] | None:
        try:
            text = self.record.read_bytes()
        except FileNotFoundError:
            orphans = self.files()
            if not orphans:
                return None
            # A writer renames its record before its file: if the file was there when listed,
            # its record is there now, unless the record was lost.
            try:
                text = self.record.read_bytes()
            except FileNotFoundError:
                raise DamagedEntry(orphans[0], "its record is missing",
                                   tuple(orphans)) from None
            except OSError as error:
                raise DamagedEntry(self.record, f"record cannot be read: {error}") from error
        except OSError as error:
            raise DamagedEntry(self.record, f"record cannot be read: {error}") from error
        return _parse_record(self.record, text)


def _parse_record(path: Path, text: bytes) -> tuple[int, str]:
    """(size, sha256) of a record's contents; DamagedEntry if they are not a valid record."""
    try:
        fields = json.loads(text.decode())
        size, sha256 = fields["size"], fields["sha256"]
        valid = (fields["format"] == RECORD_FORMAT and type(size) is int and size >= 0
                 and isinstance(sha256, str) and len(sha256) == 64
                 and all(c in "0123456789abcdef" for c in sha256))
    except (ValueError, TypeError, KeyError):
        valid = False
    if not valid:
        raise DamagedEntry(path, "the record is not a valid record")
    return size, sha256
