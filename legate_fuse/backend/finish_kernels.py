"""The builder processes of background compilation (background.py).

A builder is this module run as a process of its own (its own session, no terminal, fusion off,
in the idle scheduling class): it reads a file of kernel sources from the cache folder, deletes
it, and builds each kernel into the cache.

- `start_builder` starts one for a kernel while the program runs: `python -m
  legate_fuse.backend.finish_kernels --one FILE` (files `.job-*.json`).
- `hand_over`, at the program's exit, writes the kernels not built yet to a file named
  `.unbuilt-*.json` and starts one that builds them after the program has gone; one such
  builder at a time works in a folder (`finish`).

Any failure only leaves a kernel for the program, or the next run, to compile.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import signal
import sys
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from legate_fuse.backend.background import Job, SpawnedBuilder, spawn_idle
from legate_fuse.backend.cache_folders import CachePolicy
from legate_fuse.backend.cache_safety import make_private_folder

PREFIX = ".unbuilt-"  # kernels handed over at a program's exit
JOB_PREFIX = ".job-"  # a kernel a builder builds while its program runs
LOCK = ".builder.lock"  # held by the one builder of handed-over kernels at work in a folder


@dataclass(frozen=True)
class BuildSettings:
    """What a builder needs besides the sources: where and how the program builds kernels."""

    cache_dir: Path
    compiler: str
    math: str
    gpu_arch: int | None
    policy: CachePolicy = field(default_factory=CachePolicy)


def start_builder(job: Job, settings: BuildSettings) -> SpawnedBuilder:
    """Starts a builder for one kernel, now."""
    name = write_work([job], settings, JOB_PREFIX)
    try:
        return spawn_builder(["--one", str(name)])
    except OSError:
        with contextlib.suppress(OSError):
            name.unlink()
        raise


def hand_over(jobs: Sequence[Job], settings: BuildSettings) -> None:
    """Starts a detached process that builds `jobs` into the kernel cache after the program."""
    spawn_builder([str(write_work(jobs, settings, PREFIX))])


def write_work(jobs: Sequence[Job], settings: BuildSettings, prefix: str) -> Path:
    make_private_folder(settings.cache_dir)
    policy = settings.policy
    work = {"cache_dir": str(settings.cache_dir), "compiler": settings.compiler,
            "math": settings.math, "gpu_arch": settings.gpu_arch,
            "size_limit": policy.size_limit,
            "site": None if policy.site is None else str(policy.site),
            "site_owners": sorted(policy.site_owners),
            "kernels": [job.sources for job in jobs]}
    # Written under another name, then renamed: a builder at work never reads half a file.
    descriptor, partial = tempfile.mkstemp(prefix=".writing-", suffix=".json",
                                           dir=settings.cache_dir)
    with os.fdopen(descriptor, "w") as file:
        json.dump(work, file)
    name = Path(partial.replace(".writing-", prefix))
    os.replace(partial, name)
    return name


def spawn_builder(arguments: list[str]) -> SpawnedBuilder:
    # Fusion off in the builder, and nothing printed at its exit.
    environ = {k: v for k, v in os.environ.items() if not k.startswith("LEGATE_FUSE")}
    return spawn_idle([sys.executable, "-m", "legate_fuse.backend.finish_kernels", *arguments],
                      environ)


def build_all(work_file: Path) -> int:
    """Builds every kernel the file lists, then deletes it; the number built."""
    from legate_fuse.backend.compiler import CompileError
    from legate_fuse.backend.cpu_kernels import KernelCompiler

    try:
        work = json.loads(work_file.read_text())
        cache_dir = Path(work["cache_dir"])
        policy = CachePolicy(work["size_limit"], None if work["site"] is None
                             else Path(work["site"]), frozenset(work["site_owners"]))
        cpu = KernelCompiler(cache_dir, work["compiler"], lambda message: None, work["math"],
                             policy)
        gpu = None
        if work["gpu_arch"] is not None:
            from legate_fuse.backend.nvrtc import PtxCompiler

            gpu = PtxCompiler(cache_dir, work["gpu_arch"], warn=lambda message: None,
                              policy=policy)
        built = 0
        for sources in work["kernels"]:
            if not cache_dir.is_dir():
                break  # the cache was removed (a scratch folder): nothing to build it for
            for target, source in sources.items():
                cache = cpu if target == "cpu" else gpu
                if cache is None:
                    continue
                with contextlib.suppress(CompileError, OSError):
                    cache.build(source)
                    built += 1
        return built
    finally:
        with contextlib.suppress(OSError):
            work_file.unlink()


def finish(work_file: Path) -> None:
    """Builds the kernels of `work_file`, and of every other such file of its cache folder:
    one builder per folder at a time (programs that exit one after another would otherwise
    leave a builder each, all waiting for an idle core). A builder that finds another at work
    leaves its file to that one, which looks for new files before it stops."""
    folder = work_file.parent
    with os.fdopen(os.open(folder / LOCK, os.O_WRONLY | os.O_CREAT, 0o600), "w") as lock:
        while any(folder.glob(f"{PREFIX}*.json")):
            try:
                fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                return  # the builder at work builds this file too
            try:
                while files := sorted(folder.glob(f"{PREFIX}*.json")):
                    for file in files:
                        try:
                            build_all(file)
                        except Exception:  # an unreadable file: deleted, the next one built
                            with contextlib.suppress(OSError):
                                file.unlink()
            finally:
                fcntl.flock(lock, fcntl.LOCK_UN)


def main(arguments: list[str]) -> None:
    # Stopped by its program's exit (SIGTERM to its process group): the compiler stops too,
    # and the scratch folders are removed on the way out.
    signal.signal(signal.SIGTERM, lambda signum, frame: sys.exit(128 + signum))
    if arguments[0] == "--one":
        sys.exit(0 if build_all(Path(arguments[1])) else 1)
    finish(Path(arguments[0]))


if __name__ == "__main__":
    main(sys.argv[1:])
