"""Kernel sources to loadable kernels, through an on-disk cache shared by all processes.

The cache key is a list of named parts, each hashed and logged at debug level so that a miss
can be explained: the source, the compiler and its version, the flags, the target (the CPU for
-march=native, the GPU architecture for PTX) and the format version (kernel ABI and renderer
versions). Each entry's size and digest are recorded when it is written and checked before it
is used, once per process (see cache_entry.py); entries are produced under temporary names and
renamed into place, so concurrent processes can share the folder. A damaged entry, or one
another user wrote or could write (cache_safety.py), is built again, with one warning. The
cache is bounded (cache_eviction.py) and may be backed by a site's read-only cache
(cache_folders.py).
"""

from __future__ import annotations

import contextlib
import hashlib
import logging
import os
import platform
import shutil
import subprocess
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

from legate_fuse import _core
from legate_fuse.backend import cache_usage
from legate_fuse.backend.cache_entry import DamagedEntry, Entry
from legate_fuse.backend.cache_eviction import evict, folder_budget
from legate_fuse.backend.cache_folders import CachePolicy
from legate_fuse.backend.cache_safety import folder_problem, make_private_folder

logger = logging.getLogger("legate_fuse")

FLAGS = ("-O3", "-march=native", "-fPIC", "-shared", "-std=c11",
         # Each fused operation must round exactly as the unfused task did: no contraction of
         # a*b+c into one fused multiply-add, no fast-math.
         "-ffp-contract=off", "-fno-fast-math",
         # Only lets sqrt become one (vectorisable) instruction: no one reads errno.
         "-fno-math-errno")
LIBRARIES = ("-lm",)
C_FORMAT = f"abi{_core.KERNEL_ABI_VERSION}-c{_core.C_RENDERER_VERSION}"


class CompileError(RuntimeError):
    """A compiler failed; the message carries its log."""


def run_tool(command: Sequence[str], timeout: float = 600) -> subprocess.CompletedProcess[str]:
    """Runs a compiler or a check program, its output captured."""
    try:
        return subprocess.run(command, capture_output=True, text=True, timeout=timeout)
    except subprocess.TimeoutExpired as error:
        raise CompileError(f"{command[0]} did not finish in {timeout:.0f} s") from error


@cache
def compiler_identity(compiler: str) -> str:
    path = shutil.which(compiler)
    if path is None:
        raise CompileError(f"C compiler {compiler!r} not found (set CC to a C compiler)")
    result = subprocess.run([path, "--version"], capture_output=True, text=True, timeout=60)
    first_line = (result.stdout or result.stderr).splitlines()[:1]
    return f"{os.path.realpath(path)} {first_line[0] if first_line else ''}"


@cache
def machine_identity() -> str:
    model = ""
    try:
        with open("/proc/cpuinfo") as cpuinfo:
            for line in cpuinfo:
                if line.startswith(("model name", "flags")):
                    model += line
    except OSError:
        pass
    return f"{platform.machine()} {hashlib.sha256(model.encode()).hexdigest()[:16]}"


def cache_key(parts: dict[str, str]) -> tuple[str, dict[str, str]]:
    digests = {name: hashlib.sha256(v.encode()).hexdigest()[:16] for name, v in parts.items()}
    key = hashlib.sha256("|".join(f"{n}={d}" for n, d in digests.items()).encode()).hexdigest()
    return key[:32], digests


# Writes the kernel built from a source into the given path, or raises CompileError.
Producer = Callable[[str, Path], None]


@dataclass
class KernelCache:
    """Sources to kernel files, from memory, from disk, or produced now. A file from disk is
    returned only once its size and digest match its record; a damaged entry is produced again
    and reported through `warn`."""

    cache_dir: Path
    suffix: str
    identity: Callable[[], dict[str, str]]  # key parts other than the source
    produce: Producer
    warn: Callable[[str], None] = logger.warning
    # The source as keyed and produced, from the source as given (memory is keyed by the
    # latter): what a kernel's text needs in front of it on this machine. Called with
    # may_check=False, it returns None where that depends on a check not run yet.
    prepare: Callable[[str, bool], str | None] | None = None
    policy: CachePolicy = field(default_factory=CachePolicy)
    compile_seconds: float = 0.0
    cache_hits: int = 0
    compiled: int = 0
    _memory: dict[str, Path] = field(default_factory=dict)
    # The files this process produced (a file that does not load, yet was just compiled, is
    # no stale entry to rebuild).
    made_here: set[Path] = field(default_factory=set)
    _trusted_folders: set[Path] = field(default_factory=set)

    def find(self, source: str) -> Path | None:
        """The kernel of `source` if memory or the disk has it, intact, and nothing must run
        to know its key; never produces one (a damaged entry is left for `build`)."""
        known = self._memory.get(source)
        if known is not None:
            return known
        text = source if self.prepare is None else self.prepare(source, False)
        if text is None:
            return None
        entry = self._entry(text)
        try:
            target = self._look_up(entry)
        except DamagedEntry:
            return None
        if target is not None:
            self._memory[source] = target
        return target

    def build(self, source: str) -> Path:
        known = self._memory.get(source)
        if known is not None:
            return known  # checked when it was first found or written
        text = self._prepared(source)
        entry = self._entry(text)
        try:
            target = self._look_up(entry)
        except DamagedEntry as damage:
            target = self._replace(text, entry, damage)
        else:
            if target is None:
                logger.debug("kernel cache miss %s", entry.key)
                target = self._produce(text, entry)
        self._memory[source] = target
        return target

    def _look_up(self, entry: Entry) -> Path | None:
        """The entry's file from this cache, else from the site's read-only one, counted as a
        hit; None on a miss. Raises DamagedEntry for a damaged or untrusted entry here (a
        site's is only not used)."""
        # (Found here, the entry is marked used: the least recently used are evicted first.)
        target = (entry.find(mark_use=True) if self._trusted(entry.folder, entry.owners)
                  else None)
        if target is None and self.policy.site is not None:
            site = Entry(self.policy.site, entry.key, self.suffix, self.policy.site_owners)
            if self._trusted(site.folder, site.owners):
                try:
                    target = site.find()
                except DamagedEntry as damage:
                    logger.debug("%s: not used", damage)
        if target is not None:
            logger.debug("kernel cache hit %s", entry.key)
            self.cache_hits += 1
            cache_usage.count(self.cache_dir, hits=1)
        return target

    def _trusted(self, folder: Path, owners: frozenset[int]) -> bool:
        """Whether the folder of entries `folder` exists and may be trusted (checked once per
        process while it passes); one that fails is reported at debug level."""
        if folder in self._trusted_folders:
            return True
        if not folder.is_dir():
            return False
        problem = folder_problem(folder, owners)
        if problem is not None:
            logger.debug("kernel cache folder not used: %s", problem)
            return False
        self._trusted_folders.add(folder)
        return True

    def rebuild(self, source: str, path: Path, reason: str) -> Path:
        """Produces again an entry whose file matches its record but does not work (written by
        a compiler that produced a broken file)."""
        text = self._prepared(source)
        target = self._replace(text, self._entry(text), DamagedEntry(path, reason, (path,)))
        self._memory[source] = target
        return target

    def _prepared(self, source: str) -> str:
        text = source if self.prepare is None else self.prepare(source, True)
        assert text is not None  # checks may run
        return text

    def _entry(self, source: str) -> Entry:
        key, digests = cache_key({"source": source, **self.identity()})
        logger.debug("kernel cache key %s (%s)", key, digests)
        return Entry(self.cache_dir, key, self.suffix)

    def _replace(self, source: str, entry: Entry, damage: DamagedEntry) -> Path:
        try:
            target = self._produce(source, entry)
        except CompileError as error:
            raise CompileError(f"{damage} and could not be rebuilt: {error}") from error
        for stale in damage.stale:
            if stale != target:
                # No record names it any more: only tidying, so a failure is no error.
                with contextlib.suppress(OSError):
                    stale.unlink(missing_ok=True)
        self.warn(f"{damage}; rebuilt it")
        return target

    def _produce(self, source: str, entry: Entry) -> Path:
        try:
            make_private_folder(entry.folder)
        except OSError as error:
            message = f"cannot create the kernel cache {entry.folder}: {error}"
            raise CompileError(message) from error
        if not self._trusted(entry.folder, entry.owners):
            problem = folder_problem(entry.folder, entry.owners)
            raise CompileError(f"the kernel cache folder is refused: {problem}")
        start = time.perf_counter()
        try:
            with tempfile.TemporaryDirectory(dir=self.cache_dir, prefix=".build-") as scratch:
                partial = Path(scratch) / f"kernel{self.suffix}"
                self.produce(source, partial)
                target = entry.publish(partial, Path(scratch))
        except OSError as error:
            message = f"cannot write the kernel cache {self.cache_dir}: {error}"
            raise CompileError(message) from error
        finally:
            self.compile_seconds += time.perf_counter() - start
        self.compiled += 1
        self.made_here.add(target)
        cache_usage.count(self.cache_dir, misses=1)
        budget = folder_budget(self.policy.size_limit)
        if budget:
            evict(entry.folder, budget, keep=entry.key)
        return target


def compile_c(compiler: str, flags: Sequence[str], source: str, output: Path,
              libraries: Sequence[str] = LIBRARIES) -> None:
    """Compiles `source` (written beside `output`) into `output`, or raises CompileError
    with the compiler's log."""
    c_file = output.with_suffix(".c")
    c_file.write_text(source)
    command = [compiler, *flags, "-o", str(output), str(c_file), *libraries]
    result = run_tool(command)
    if result.returncode != 0:
        raise CompileError(f"{' '.join(command)} failed ({result.returncode}):\n"
                           f"{result.stderr.strip()}")
