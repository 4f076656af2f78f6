"""Kernels built on background threads (backend/background.py), and the compilers stopped at exit
(backend/compiler.py: run_tool, stop_tools), without Legate."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
import threading
import time
from pathlib import Path

import pytest

from legate_fuse.backend.background import Job, KernelJobs


def test_jobs_are_built_on_other_threads_and_counted_while_pending() -> None:
    gate = threading.Event()
    threads: list[str] = []

    def build(job: Job) -> dict[str, Path]:
        gate.wait(60)
        threads.append(threading.current_thread().name)
        return {"cpu": Path(job.sources["cpu"])}

    counts: list[int] = []
    jobs = KernelJobs(build, 2, hand_over=lambda unbuilt: None, on_change=counts.append)
    first = jobs.submit("k1", {"cpu": "one"})
    second = jobs.submit("k2", {"cpu": "two"})
    assert jobs.get("k1") is first and jobs.pending() == 2 and counts == [1, 2]
    assert not first.finished.is_set()
    gate.set()
    assert jobs.wait(60)
    assert first.files == {"cpu": Path("one")} and second.files == {"cpu": Path("two")}
    assert jobs.pending() == 0 and counts[-1] == 0
    assert all(name.startswith("legate-fuse-compile") for name in threads)


def test_a_failed_build_is_kept_for_the_main_thread() -> None:
    def build(job: Job) -> dict[str, Path]:
        raise RuntimeError("no compiler")

    jobs = KernelJobs(build, 1, hand_over=lambda unbuilt: None)
    job = jobs.submit("k", {"cpu": "source"})
    assert jobs.wait(60)
    assert job.files is None and isinstance(job.error, RuntimeError)


@pytest.mark.skipif(not hasattr(os, "SCHED_IDLE"), reason="Linux scheduling classes only")
def test_the_workers_and_their_compilers_run_in_the_idle_class() -> None:
    policies: list[int] = []

    def build(job: Job) -> dict[str, Path]:
        policies.append(os.sched_getscheduler(threading.get_native_id()))
        child = subprocess.run(
            [sys.executable, "-c", "import os; print(os.sched_getscheduler(0))"],
            capture_output=True, text=True, check=True)
        policies.append(int(child.stdout))
        return {}

    jobs = KernelJobs(build, 1, hand_over=lambda unbuilt: None)
    jobs.submit("k", {"cpu": "source"})
    assert jobs.wait(60)
    assert policies == [os.SCHED_IDLE, os.SCHED_IDLE]


def test_at_exit_the_compilers_are_stopped_and_the_unbuilt_kernels_handed_over(
        tmp_path: Path) -> None:
    """In a process of its own (stopping the compilers is for good): two jobs, one running a
    compiler that would take a minute, one queued behind it. The exit stops the compiler at
    once, and hands both over."""
    program = textwrap.dedent(f"""
        import json, time
        from pathlib import Path
        from legate_fuse.backend.background import KernelJobs
        from legate_fuse.backend.compiler import run_tool

        def build(job):
            run_tool(["sleep", "60"])
            return {{}}

        def hand_over(unbuilt):
            Path({str(tmp_path / "handed")!r}).write_text(
                json.dumps([job.kernel_id for job in unbuilt]))

        jobs = KernelJobs(build, 1, hand_over)
        jobs.submit("running", {{"cpu": "a"}})
        jobs.submit("queued", {{"cpu": "b"}})
        time.sleep(0.5)
    """)
    start = time.monotonic()
    subprocess.run([sys.executable, "-c", program], check=True, timeout=50)
    # Not stopped, the compiler would hold the exit for EXIT_JOIN_SECONDS (5 s).
    assert time.monotonic() - start < 4
    assert (tmp_path / "handed").read_text() == '["running", "queued"]'


def test_one_builder_at_a_time_builds_every_file_handed_over(tmp_path: Path) -> None:
    """A builder that finds another at work in the cache folder leaves its file to it; the one
    at work builds every file there before it stops."""
    import fcntl
    import json

    from legate_fuse.backend import finish_kernels

    work = {"cache_dir": str(tmp_path), "compiler": "cc", "math": "exact", "gpu_arch": None,
            "kernels": []}
    files = [tmp_path / f"{finish_kernels.PREFIX}{n}.json" for n in range(3)]
    for file in files:
        file.write_text(json.dumps(work))
    (tmp_path / f"{finish_kernels.PREFIX}broken.json").write_text("{not json")

    def builder() -> None:  # on a thread of its own: a builder lowers its thread's priority
        thread = threading.Thread(target=finish_kernels.finish, args=(files[0],))
        thread.start()
        thread.join(60)

    with open(tmp_path / finish_kernels.LOCK, "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        builder()  # another builder is at work: returns at once
        assert all(file.exists() for file in files)
    builder()
    assert not list(tmp_path.glob(f"{finish_kernels.PREFIX}*"))
