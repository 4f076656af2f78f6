"""Which folders a process caches and finds kernels in, and how the cache is bounded.

- The user's cache (LEGATE_FUSE_CACHE_DIR, in its `kernels` folder): created private (mode 700)
  and used only if no other user could write it or replace it (cache_safety.py). Otherwise
  one warning names the folder and the reason, and kernels are built into a private folder of
  the process, deleted at its exit: the program runs, and stays correct, without a cache that
  outlives it.
- A site's read-only cache (LEGATE_FUSE_CACHE_READONLY): a folder prepared by an administrator
  (a program run with LEGATE_FUSE_CACHE_DIR pointing at it), owned by another user who alone
  may write it. It is looked in after the user's cache misses, and never written, touched or
  evicted from. One that fails the checks is not used, with one warning.
"""

from __future__ import annotations

import atexit
import os
import shutil
import tempfile
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from legate_fuse.backend.cache_eviction import remove_old_layout
from legate_fuse.backend.cache_safety import (
    ancestors_problem,
    folder_problem,
    make_private_folder,
    user,
)

DEFAULT_SIZE = 1 << 30  # LEGATE_FUSE_CACHE_SIZE's default


@dataclass(frozen=True)
class CachePolicy:
    """How a kernel cache is bounded, and the site's read-only cache it may also read."""

    size_limit: int = DEFAULT_SIZE  # bytes; 0: no limit
    site: Path | None = None  # the read-only cache's `kernels` folder
    site_owners: frozenset[int] = frozenset()  # whose files it may load from there


def kernel_folder(cache_dir: str, warn: Callable[[str], None]) -> tuple[Path, bool]:
    """The folder kernels are cached in, and whether it outlives the process: the cache's
    `kernels` folder where it may be trusted, else a private folder deleted at exit."""
    kernels = Path(cache_dir) / "kernels"
    me = frozenset({user()})
    # The folders above are checked before any is created: nothing is written where the
    # cache would be refused.
    existing = next(p for p in (kernels, *kernels.parents) if p.exists())
    problem = (folder_problem(kernels, me) if existing == kernels
               else ancestors_problem(existing, me))
    reason = "is refused, since another user could put their code in it"
    if problem is None and existing != kernels:
        try:
            make_private_folder(kernels)
            problem = folder_problem(kernels, me)
        except OSError as error:
            problem = f"{kernels} cannot be created ({error.strerror})"
            reason = "cannot be used"
    if problem is None:
        remove_old_layout(kernels)
        return kernels, True
    private = Path(tempfile.mkdtemp(prefix="legate-fuse-kernels-"))
    atexit.register(shutil.rmtree, private, ignore_errors=True)
    warn(f"legate-fuse: the kernel cache {cache_dir} {reason}: {problem}. Kernels are built in "
         f"{private}, private to this process and deleted at its exit; set "
         "LEGATE_FUSE_CACHE_DIR to a folder only you can write to keep them.")
    return private, False


def cache_policy(size_limit: int, readonly: str, warn: Callable[[str], None]) -> CachePolicy:
    """The bound of the cache, and the site's read-only cache where one is set and trusted."""
    if not readonly:
        return CachePolicy(size_limit)
    kernels = Path(readonly) / "kernels"
    try:
        owners = frozenset({user(), os.stat(readonly).st_uid})
    except OSError as error:
        warn(f"legate-fuse: the read-only kernel cache {readonly} is not used: it cannot be "
             f"examined ({error.strerror})")
        return CachePolicy(size_limit)
    problem = folder_problem(kernels, owners)
    if problem is not None:
        warn(f"legate-fuse: the read-only kernel cache {readonly} is not used: {problem}")
        return CachePolicy(size_limit)
    return CachePolicy(size_limit, kernels, owners)
