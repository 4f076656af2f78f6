"""LEGATE_FUSE_COMPILE=background (the default; the tests otherwise set wait): a fused group whose
kernel is not in the cache runs its original tasks while the kernel compiles, and the fused task
takes over once it is ready; the results are the same either way. At exit, the kernels left
compiling are built by a process of their own, and the program does not wait for them."""

from __future__ import annotations

import gc
import json
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import cupynumeric as cn
import numpy
import pytest
from legate.core import get_legate_runtime

from legate_fuse import session as fusion_session
from legate_fuse import unfused
from legate_fuse.backend import fuser as fuser_module
from legate_fuse.backend import fuser_setup
from legate_fuse.backend.background import Job, KernelJobs
from legate_fuse.backend.cpu_kernels import KernelCompiler
from legate_fuse.backend.finish_kernels import PREFIX
from legate_fuse.mode.machine import Mode

from .test_activation import run
from .test_shared_storage import grid_values, state_read_first


def expression(a: numpy.ndarray, b: numpy.ndarray) -> numpy.ndarray:
    """A chain no other test fuses, so that its kernel is new to the process."""
    return ((a * 5.25 - b) * (a + 9.5) - b / 3.75) * 0.125


def other_expression(a: numpy.ndarray, b: numpy.ndarray) -> numpy.ndarray:
    """Another: each test needs a kernel that no test before it built."""
    return (b - a / 6.5) * (b * 1.5 + a) / (a * a + 2.0)


def third_expression(a: numpy.ndarray, b: numpy.ndarray) -> numpy.ndarray:
    """And a third."""
    return (a * 0.375 + b * b) / (b * 2.25 + 7.0) - a


def fourth_expression(a: numpy.ndarray, b: numpy.ndarray) -> numpy.ndarray:
    """And a fourth."""
    return (a - b * 0.625) * (b + 3.5) + a / 1.75


class GatedBuilder:
    """A builder that ends once the test opens its gate, having built its job's kernel into the
    cache (on the program's thread, as the test polls), or failed."""

    def __init__(self, gate: Gate, job: Job) -> None:
        self.gate, self.job = gate, job
        self.status: int | None = None

    def poll(self) -> int | None:
        if self.status is None and self.gate.open:
            if self.gate.fail:
                self.status = 1
            else:
                self.gate.fuser._build(self.job.sources)  # type: ignore[attr-defined]
                self.status = 0
        return self.status

    def stop(self) -> None:
        pass


class Gate:
    """Background jobs whose kernels are built only once the test opens the gate."""

    def __init__(self, fuser: object) -> None:
        self.open = False
        self.fail = False
        self.fuser = fuser

    def start(self, job: Job) -> GatedBuilder:
        return GatedBuilder(self, job)


@pytest.fixture
def gated(session: fusion_session.Session, tmp_path: Path) -> Iterator[Gate]:
    """The session's fuser compiling in the background behind a gate, into an empty cache. The
    counts of what ran unfused are restored after: the kernel failures this file causes on
    purpose are no other test's."""
    fuser = session.runner.fuser()
    saved = fuser.jobs, fuser.cpu
    unfused_before = session.stats.unfused.copy()
    gate = Gate(fuser)
    stats = session.stats
    fuser.cpu = KernelCompiler(tmp_path / "kernels")
    fuser.jobs = KernelJobs(gate.start, 1, hand_over=lambda jobs: None,
                            on_change=lambda pending: setattr(stats, "kernels_compiling",
                                                              pending))
    try:
        yield gate
    finally:
        gate.open = True
        fuser.jobs.wait(120)
        fuser.jobs, fuser.cpu = saved
        stats.kernels_compiling = 0
        stats.unfused = unfused_before


def compiling_count(session: fusion_session.Session) -> int:
    return sum(count for (_, _, reason), count in session.stats.unfused.items()
               if reason == unfused.KERNEL_COMPILING)


def test_a_group_runs_unfused_until_its_kernel_is_ready_then_fused(
        session: fusion_session.Session, gated: Gate) -> None:
    rng = numpy.random.default_rng(7)
    a_host, b_host = rng.standard_normal(10_000), rng.standard_normal(10_000)
    a, b = cn.array(a_host), cn.array(b_host)
    want = expression(a_host, b_host)
    stats = session.stats

    launches, waited = stats.fused_launches, compiling_count(session)
    first = numpy.asarray(expression(a, b))
    assert stats.fused_launches == launches, "fused before its kernel was built"
    assert compiling_count(session) > waited
    assert stats.kernels_compiling == 1
    numpy.testing.assert_array_equal(first, want)

    gated.open = True
    assert session.runner.fuser().jobs.wait(120)
    assert stats.kernels_compiling == 0
    second = numpy.asarray(expression(a, b))
    assert stats.fused_launches > launches, "the kernel was ready and not used"
    # Bit for bit: the same values unfused (first) and fused (second).
    assert first.tobytes() == second.tobytes()


def test_a_group_run_unfused_never_writes_into_memory_numpy_shares(
        session: fusion_session.Session, gated: Gate) -> None:
    """While its kernels compile, a loop's groups run their tasks as built, over the memory
    the plan gave each array: never that of a NumPy buffer the loop read first and let go
    (src/cpp/analysis/storage_sharing.h). In float32: kernels no other test registers."""
    host = grid_values().astype(numpy.float32)
    values = host.copy()
    launches, waited = session.stats.fused_launches, compiling_count(session)
    (result,) = state_read_first(6, lambda: cn.asarray(host))
    result = numpy.asarray(result).copy()
    assert session.stats.fused_launches == launches and compiling_count(session) > waited
    gc.collect()  # every store over the buffer freed, and whatever was written into it done
    get_legate_runtime().issue_execution_fence(block=True)
    assert host.tobytes() == values.tobytes()
    (want,) = state_read_first(6, lambda: values)
    assert result.tobytes() == numpy.asarray(want).tobytes()


def test_a_group_whose_temporaries_take_much_memory_waits_for_its_kernel(
        session: fusion_session.Session, gated: Gate, monkeypatch: pytest.MonkeyPatch) -> None:
    """Run as built while its kernel compiles, a window would hold every temporary of its
    groups at once (its records refer to them until it has run); a group whose temporaries take
    WAIT_BYTES or more is fused at its first launch instead, its kernel built at once."""
    monkeypatch.setattr(fuser_module, "WAIT_BYTES", 8 * 6000)  # one temporary here
    a_host, b_host = numpy.linspace(-3.0, 1.0, 6000), numpy.linspace(2.0, 5.0, 6000)
    a, b = cn.array(a_host), cn.array(b_host)
    stats = session.stats
    launches, waited = stats.fused_launches, compiling_count(session)
    got = numpy.asarray(fourth_expression(a, b))
    assert stats.fused_launches > launches, "not fused at its first launch"
    assert compiling_count(session) == waited and stats.kernels_compiling == 0
    assert got.tobytes() == fourth_expression(a_host, b_host).tobytes()


def test_a_loop_stands_aside_while_its_kernel_compiles(
        session: fusion_session.Session, gated: Gate) -> None:
    """A window seen again (its plan cached: a loop's) that fuses nothing because its kernel
    is compiling: the plugin steps aside, and the loop's tasks go to Legate unseen, as they
    would run unfused anyway; once the kernel is built it comes back and fuses. The same bits
    all along."""
    a_host, b_host = numpy.linspace(-1.0, 2.0, 8000), numpy.linspace(0.5, 3.0, 8000)
    a, b = cn.array(a_host), cn.array(b_host)
    want = third_expression(a_host, b_host).tobytes()
    stats, mode = session.stats, session.mode
    launches = stats.fused_launches
    got = [numpy.asarray(third_expression(a, b)).tobytes()]  # planned afresh: not aside
    assert mode.mode is not Mode.ASIDE
    got.append(numpy.asarray(third_expression(a, b)).tobytes())  # its plan cached
    assert mode.mode is Mode.ASIDE and mode.last_reason[Mode.ASIDE] == "kernels compiling"
    seen = stats.tasks_seen
    got.append(numpy.asarray(third_expression(a, b)).tobytes())
    assert stats.tasks_seen == seen, "tasks seen while aside"
    assert mode.mode is Mode.ASIDE, "came back while the kernel compiles"

    gated.open = True
    assert session.runner.fuser().jobs.wait(120)
    got.append(numpy.asarray(third_expression(a, b)).tobytes())  # back at its read
    assert mode.mode is not Mode.ASIDE
    session.update_mode()  # (resuming: no function of cuPyNumeric is running now)
    got.append(numpy.asarray(third_expression(a, b)).tobytes())
    assert stats.fused_launches > launches, "the kernel was ready and not used"
    assert all(result == want for result in got)


def test_never_aside_while_tasks_stay_held(session: fusion_session.Session, gated: Gate,
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    """A full window runs its first part and keeps the rest held: tasks created aside run at
    once, so stepping aside then would run a reader before the held task that writes its input
    (Legion aborts the program: cuPyNumeric's Black-Scholes-greeks example did)."""
    stats, window = session.stats, session.window

    def a_window_seen_before_fusing_nothing(records: object) -> None:
        stats.plan_cache_hits += 1

    monkeypatch.setattr(session.runner, "execute_window", a_window_seen_before_fusing_nothing)
    monkeypatch.setattr(stats, "kernels_compiling", 1)
    monkeypatch.setattr(window, "held_back", (object(),))
    session._execute_window([])
    assert session.mode.mode is not Mode.ASIDE
    monkeypatch.setattr(window, "held_back", ())
    session._execute_window([])  # nothing held any more: aside until the kernels are built
    assert session.mode.mode is Mode.ASIDE


def test_a_kernel_that_fails_to_compile_in_the_background_leaves_its_group_unfused(
        session: fusion_session.Session, gated: Gate, caplog: pytest.LogCaptureFixture,
        tmp_path: Path) -> None:
    """A builder that fails: the kernel is then built on the program's thread, as a launch that
    waits would build it, to report the compiler's error; it fails again (a compiler that
    always fails), and the group runs unfused after one warning."""
    failing = tmp_path / "failing-cc"
    failing.write_text('#!/bin/sh\ncase "$1" in --version) exec cc --version;; esac\n'
                       'echo "the compiler failed on purpose" >&2; exit 1\n')
    failing.chmod(0o755)
    session.runner.fuser().cpu = KernelCompiler(tmp_path / "failing", str(failing))
    gated.fail = True
    gated.open = True
    a_host = numpy.linspace(-2.0, 3.0, 5000)
    b_host = numpy.linspace(1.0, 4.0, 5000)
    a, b = cn.array(a_host), cn.array(b_host)
    launches = session.stats.fused_launches
    for _ in range(3):
        got = numpy.asarray(other_expression(a, b))
        numpy.testing.assert_array_equal(got, other_expression(a_host, b_host))
        assert session.runner.fuser().jobs.wait(120)
    assert session.stats.fused_launches == launches
    warned = [r for r in caplog.records if "the compiler failed on purpose" in r.getMessage()]
    assert len(warned) == 1, "one warning, however many times the group runs"


PROGRAM = """
import json, time, numpy, cupynumeric as np, legate_fuse
a_host = numpy.linspace(0.0, 1.0, 20000)
a = np.array(a_host)
checked = 0
for step in range({steps}):
    got = numpy.asarray((a * 2.5 + 1.0) * a - a / 3.0)
    assert got.tobytes() == ((a_host * 2.5 + 1.0) * a_host - a_host / 3.0).tobytes()
    checked += 1
    if {until_fused} and legate_fuse.stats()["fused_launches"] > 0:
        break
    time.sleep({pause})
print("RESULT " + json.dumps({{"checked": checked, "stats": legate_fuse.stats()}}))
"""


def run_program(cache: Path, steps: int, until_fused: bool = False, pause: float = 0.05,
                **env: str) -> tuple[dict[str, object], float]:
    program = PROGRAM.format(steps=steps, until_fused=until_fused, pause=pause)
    start = time.perf_counter()
    settings = {"LEGATE_FUSE": "1", "LEGATE_FUSE_CACHE_DIR": str(cache),
                "LEGATE_FUSE_STATS": "json", "LEGATE_FUSE_COMPILE": "background", **env}
    result = run([sys.executable, "-c", program], **settings)
    seconds = time.perf_counter() - start
    assert result.returncode == 0, result.stderr[-3000:]
    assert "WARNING" not in result.stderr, result.stderr[-3000:]
    line = next(ln for ln in result.stdout.splitlines() if ln.startswith("RESULT "))
    report: dict[str, object] = json.loads(line[len("RESULT "):])
    return report, seconds


def wait_for_hand_over(kernels: Path, timeout: float = 180) -> None:
    deadline = time.monotonic() + timeout
    while any(kernels.glob(f"{PREFIX}*")):
        assert time.monotonic() < deadline, "the kernels handed over at exit were not built"
        time.sleep(0.2)


def test_a_program_fuses_once_its_kernel_is_ready(tmp_path: Path) -> None:
    """A new process with an empty cache, compiling in the background: its first steps run
    unfused, a later one fused, every one with the same result."""
    report, _ = run_program(tmp_path, steps=400, until_fused=True)
    stats = report["stats"]
    assert isinstance(stats, dict)
    assert stats["fused_launches"] > 0 and report["checked"] > 1
    reasons = [why for kind in stats["unfused"].values() for why in kind["why"]]
    assert unfused.KERNEL_COMPILING in reasons


def test_the_program_does_not_wait_for_compilers_at_exit(tmp_path: Path) -> None:
    """With a compiler that takes 30 s, the program exits at once: the compilers are stopped,
    the kernels handed to a process that builds them, and the next run finds them all."""
    slow = tmp_path / "slow-cc"
    slow_while = tmp_path / "slow"
    slow.write_text('#!/bin/sh\ncase "$1" in --version) exec cc --version;; esac\n'
                    f'if [ -e {slow_while} ]; then sleep 30; fi; exec cc "$@"\n')
    slow.chmod(0o755)
    slow_while.touch()
    cache = tmp_path / "cache"
    report, seconds = run_program(cache, steps=2, CC=str(slow))
    stats = report["stats"]
    assert isinstance(stats, dict) and stats["fused_launches"] == 0
    assert seconds < 25, f"the program waited {seconds:.1f} s for its compilers"
    kernels = cache / "kernels"
    assert any(kernels.glob(f"{PREFIX}*.json")), "nothing was handed over"
    # The builder compiles them (with the same compiler, at full speed now).
    slow_while.unlink()
    wait_for_hand_over(kernels)
    assert not any(kernels.glob(".build-*")), "a stopped compiler left its folder behind"
    again, _ = run_program(cache, steps=2, CC=str(slow))
    stats = again["stats"]
    assert isinstance(stats, dict)
    assert stats["fused_launches"] > 0 and stats["kernels_compiling"] == 0
    assert stats["kernel_cache_hits"] > 0 and stats["compile_seconds"] == 0


def test_by_default_kernels_compile_in_the_background(tmp_path: Path) -> None:
    """No LEGATE_FUSE_COMPILE: the first window runs unfused while its kernel compiles."""
    report, _ = run_program(tmp_path, steps=1, LEGATE_FUSE_COMPILE="")
    stats = report["stats"]
    assert isinstance(stats, dict) and stats["fused_launches"] == 0
    reasons = [why for kind in stats["unfused"].values() for why in kind["why"]]
    assert unfused.KERNEL_COMPILING in reasons


def test_wait_mode_fuses_from_the_first_window(tmp_path: Path) -> None:
    report, _ = run_program(tmp_path, steps=1, LEGATE_FUSE_COMPILE="wait")
    stats = report["stats"]
    assert isinstance(stats, dict) and stats["fused_launches"] > 0
    assert stats["kernels_compiling"] == 0


def test_over_several_processes_kernels_compile_before_their_first_launch(
        session: fusion_session.Session, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every rank must launch the same tasks: a rank whose kernel is ready would launch the
    fused task where another, still compiling, launched the originals. Over several processes
    the kernels are then waited for."""
    from dataclasses import replace

    config = replace(session.config, compile_mode="background")

    def made() -> fuser_module.Fuser:
        return fuser_setup.make_fuser(session.stats, config, session.runner.runtime,
                                      session.warn_once, session.packed_futures)

    assert made().jobs is not None
    monkeypatch.setattr(fuser_setup, "process_count", lambda: 2)
    assert made().jobs is None
