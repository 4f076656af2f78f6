"""Kernels built by builder processes (backend/background.py, backend/finish_kernels.py),
started and polled from the program's thread, and stopped at exit; without Legate."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
import threading
import time
from pathlib import Path

import pytest

from legate_fuse.backend.background import Job, KernelJobs, spawn_idle


class FakeBuilder:
    """A builder that ends when the test says so, with the status it says."""

    def __init__(self) -> None:
        self.status: int | None = None
        self.stopped = False

    def poll(self) -> int | None:
        return self.status

    def stop(self) -> None:
        self.stopped = True


def test_jobs_run_at_most_workers_at_a_time_on_the_programs_thread() -> None:
    started: dict[str, FakeBuilder] = {}
    threads: set[int] = set()

    def start(job: Job) -> FakeBuilder:
        threads.add(threading.get_ident())
        started[job.kernel_id] = FakeBuilder()
        return started[job.kernel_id]

    counts: list[int] = []
    jobs = KernelJobs(start, 2, hand_over=lambda unbuilt: None, on_change=counts.append)
    first = jobs.submit("k1", {"cpu": "one"})
    jobs.submit("k2", {"cpu": "two"})
    third = jobs.submit("k3", {"cpu": "three"})
    assert sorted(started) == ["k1", "k2"], "more builders than workers"
    assert jobs.pending() == 3 and counts == [1, 2, 3]
    assert jobs.get("k1") is first and not first.finished
    started["k1"].status = 0
    assert jobs.get("k3") is third and first.finished and first.status == 0
    assert sorted(started) == ["k1", "k2", "k3"], "a queued job did not take the free place"
    started["k2"].status = started["k3"].status = 1
    assert jobs.wait(10) and jobs.pending() == 0 and counts[-1] == 0
    assert threads == {threading.get_ident()}


def test_a_builder_that_cannot_start_finishes_its_job() -> None:
    def start(job: Job) -> FakeBuilder:
        raise OSError("no processes left")

    jobs = KernelJobs(start, 1, hand_over=lambda unbuilt: None)
    job = jobs.submit("k", {"cpu": "source"})
    assert job.finished and jobs.pending() == 0


@pytest.mark.skipif(not hasattr(os, "SCHED_IDLE"), reason="Linux scheduling classes only")
def test_builders_run_in_the_idle_class_in_a_session_of_their_own(tmp_path: Path) -> None:
    report = tmp_path / "report"
    program = ("import os, sys; open(sys.argv[1], 'w').write("
               "f'{os.sched_getscheduler(0)} {os.getsid(0) == os.getpid()}')")
    builder = spawn_idle([sys.executable, "-c", program, str(report)], dict(os.environ))
    deadline = time.monotonic() + 60
    while builder.poll() is None:
        assert time.monotonic() < deadline
        time.sleep(0.01)
    assert builder.poll() == 0
    assert report.read_text() == f"{os.SCHED_IDLE} True"


def gone(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    status = Path(f"/proc/{pid}/stat")
    return status.exists() and status.read_text().split(")")[-1].split()[0] == "Z"


def test_at_exit_the_builders_are_stopped_and_the_unbuilt_kernels_handed_over(
        tmp_path: Path) -> None:
    """In a process of its own: two jobs, one whose builder (a shell, and the process it
    started) would run a minute, one queued behind it. The exit stops both processes at once
    and hands both jobs over."""
    pids = tmp_path / "pids"
    program = textwrap.dedent(f"""
        import json, os, time
        from pathlib import Path
        from legate_fuse.backend.background import KernelJobs, spawn_idle

        def start(job):
            script = "sleep 60 & echo $$ $! > {pids}; wait"
            return spawn_idle(["/bin/sh", "-c", script], dict(os.environ))

        def hand_over(unbuilt):
            Path({str(tmp_path / "handed")!r}).write_text(
                json.dumps([job.kernel_id for job in unbuilt]))

        jobs = KernelJobs(start, 1, hand_over)
        jobs.submit("running", {{"cpu": "a"}})
        jobs.submit("queued", {{"cpu": "b"}})
        while not Path({str(pids)!r}).exists():
            time.sleep(0.01)
        time.sleep(0.2)
    """)
    start = time.monotonic()
    subprocess.run([sys.executable, "-c", program], check=True, timeout=50)
    assert time.monotonic() - start < 20
    assert (tmp_path / "handed").read_text() == '["running", "queued"]'
    shell, sleeper = (int(pid) for pid in pids.read_text().split())
    deadline = time.monotonic() + 10
    while not (gone(shell) and gone(sleeper)):
        assert time.monotonic() < deadline, "a builder, or a process it started, was not stopped"
        time.sleep(0.05)


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

    with open(tmp_path / finish_kernels.LOCK, "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        finish_kernels.finish(files[0])  # another builder is at work: returns at once
        assert all(file.exists() for file in files)
    finish_kernels.finish(files[0])
    assert not list(tmp_path.glob(f"{finish_kernels.PREFIX}*"))


def test_a_builder_builds_its_kernel_into_the_cache(tmp_path: Path) -> None:
    """The real builder process on one kernel: it ends with status 0, deletes its file, and
    the program finds the kernel in the cache without compiling."""
    from legate_fuse.backend import finish_kernels
    from legate_fuse.backend.cpu_kernels import KernelCompiler

    source = "int legate_fuse_probe(void) { return 7; }\n"
    settings = finish_kernels.BuildSettings(tmp_path, "cc", "exact", None)
    builder = finish_kernels.start_builder(Job("k", {"cpu": source}), settings)
    deadline = time.monotonic() + 120
    while builder.poll() is None:
        assert time.monotonic() < deadline
        time.sleep(0.02)
    assert builder.poll() == 0
    assert not list(tmp_path.glob(f"{finish_kernels.JOB_PREFIX}*"))
    cache = KernelCompiler(tmp_path)
    assert cache.find(source) is not None and cache.compiled == 0
