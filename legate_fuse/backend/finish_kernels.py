"""Builds, after a program has exited, the kernels it left compiling (background.py).

`hand_over` writes the kernels' sources to a file in the cache folder and starts this module as
a detached process (its own session, no terminal, fusion off) that builds each into the cache
at the lowest priority and then deletes the file: `python -m legate_fuse.backend.finish_kernels
FILE`. A file named `.unbuilt-*.json` in the cache folder is work under way; one builder at a
time works in a folder (`finish`). Any failure only leaves a kernel for the next run to
compile.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import subprocess
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path

from legate_fuse.backend.background import Job

PREFIX = ".unbuilt-"
LOCK = ".builder.lock"  # held by the one builder at work in a cache folder


def hand_over(jobs: Sequence[Job], cache_dir: Path, compiler: str, math: str,
              gpu_arch: int | None) -> None:
    """Starts a detached process that builds `jobs` into the kernel cache in `cache_dir`."""
    cache_dir.mkdir(parents=True, exist_ok=True)
    work = {"cache_dir": str(cache_dir), "compiler": compiler, "math": math, "gpu_arch": gpu_arch,
            "kernels": [job.sources for job in jobs]}
    # Written under another name, then renamed: a builder at work never reads half a file.
    descriptor, partial = tempfile.mkstemp(prefix=".writing-", suffix=".json", dir=cache_dir)
    with os.fdopen(descriptor, "w") as file:
        json.dump(work, file)
    name = partial.replace(".writing-", PREFIX)
    os.replace(partial, name)
    # Fusion off in the builder, and nothing printed at its exit.
    environ = {k: v for k, v in os.environ.items() if not k.startswith("LEGATE_FUSE")}
    subprocess.Popen([sys.executable, "-m", "legate_fuse.backend.finish_kernels", name],
                     stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL,
                     stderr=subprocess.DEVNULL, env=environ, start_new_session=True,
                     close_fds=True)


def build_all(work_file: Path) -> int:
    """Builds every kernel the file lists, then deletes it; the number built."""
    from legate_fuse.backend.compiler import CompileError
    from legate_fuse.backend.cpu_kernels import KernelCompiler

    try:
        work = json.loads(work_file.read_text())
        cache_dir = Path(work["cache_dir"])
        cpu = KernelCompiler(cache_dir, work["compiler"], lambda message: None, work["math"])
        gpu = None
        if work["gpu_arch"] is not None:
            from legate_fuse.backend.nvrtc import PtxCompiler

            gpu = PtxCompiler(cache_dir, work["gpu_arch"], warn=lambda message: None)
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
    from legate_fuse.backend.background import lowest_priority

    lowest_priority()
    folder = work_file.parent
    with open(folder / LOCK, "w") as lock:
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


if __name__ == "__main__":
    finish(Path(sys.argv[1]))
