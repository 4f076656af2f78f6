"""Whether the kernel cache may be trusted: nothing is loaded that another user could have written.

A kernel is a shared object the process loads and runs. Whoever can write its file, or rename
a folder on the way to it, can put their own code in its place, and an entry's record proves
nothing against them: whoever writes an entry writes its record too. So, as OpenSSH checks
~/.ssh before trusting it (StrictModes):

- a folder of the cache (the cache itself, and each folder of entries in it) must be owned by
  a trusted owner (the user; for a site's read-only cache, the user or that cache's owner) and
  not be writable by group or others;
- every folder above the cache, up to the root, must be owned by a trusted owner or root, and
  either not be writable by group or others or have the sticky bit, as /tmp has: there, others
  may add names but not rename or remove the user's;
- an entry's file must be owned by a trusted owner and not be writable by group or others,
  checked on the open file whose digest is then read (cache_entry.py), so that what is checked
  is what is loaded.

Paths are checked as the system resolves them (symbolic links followed, as OpenSSH does).
"""

from __future__ import annotations

import contextlib
import os
import stat
from pathlib import Path

# Mode bits that let a group or others write.
SHARED_WRITE = stat.S_IWGRP | stat.S_IWOTH


def user() -> int:
    """The user the process runs as: the owner of everything it writes."""
    return os.geteuid()


def owner_name(uid: int) -> str:
    try:
        import pwd

        return f"{pwd.getpwuid(uid).pw_name} (uid {uid})"
    except (ImportError, KeyError):
        return f"uid {uid}"


def item_problem(status: os.stat_result, owners: frozenset[int]) -> str | None:
    """Why a file or folder of the cache, of this status, is not to be trusted, or None."""
    if status.st_uid not in owners:
        return f"it is owned by {owner_name(status.st_uid)}, not by {owner_name(user())}"
    if status.st_mode & SHARED_WRITE:
        return f"its group or others may write it (mode {stat.S_IMODE(status.st_mode):o})"
    return None


def folder_problem(folder: Path, owners: frozenset[int]) -> str | None:
    """Why an existing folder of the cache is not to be trusted (naming the folder at fault),
    or None: the folder itself owned by one of `owners` and written by no one else, every
    folder above it owned by one of them or root and written by no one else unless sticky."""
    real = Path(os.path.realpath(folder))
    try:
        status = os.stat(real)
    except OSError as error:
        return f"{real} cannot be examined ({error.strerror})"
    if not stat.S_ISDIR(status.st_mode):
        return f"{real} is not a folder"
    problem = item_problem(status, owners)
    if problem is not None:
        return f"{real}: {problem}"
    return ancestors_problem(real.parent, owners)


def ancestors_problem(folder: Path, owners: frozenset[int]) -> str | None:
    """Why `folder` and every folder above it are not safe places for the cache's folders
    (each owned by one of `owners` or root, and written by no one else unless sticky), naming
    the folder at fault, or None."""
    real = Path(os.path.realpath(folder))
    above = owners | {0}
    for parent in (real, *real.parents):
        try:
            status = os.stat(parent)
        except OSError as error:
            return f"{parent} cannot be examined ({error.strerror})"
        if status.st_uid not in above:
            return (f"{parent}, above it, is owned by {owner_name(status.st_uid)}, who could "
                    "replace the folders in it")
        if status.st_mode & SHARED_WRITE and not status.st_mode & stat.S_ISVTX:
            return (f"{parent}, above it, may be written by group or others "
                    f"(mode {stat.S_IMODE(status.st_mode):o}, no sticky bit)")
    return None


def make_private_folder(folder: Path) -> None:
    """Creates `folder` and any folder missing above it, each readable and writable by the user
    alone (mode 700: a umask only takes bits away); folders already there are left as they
    are."""
    missing = []
    for path in (folder, *folder.parents):
        if path.is_dir():
            break
        missing.append(path)
    for path in reversed(missing):
        # (Made by another process meanwhile: checked as any folder is.)
        with contextlib.suppress(FileExistsError):
            os.mkdir(path, 0o700)
