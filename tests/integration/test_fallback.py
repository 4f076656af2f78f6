"""Any failure of kernel generation, compilation or loading runs the group unfused, with one
clear warning, and the program's results are unchanged. Each case runs in a fresh process."""

from __future__ import annotations

import json
import os
import shutil
import struct
import sys
from pathlib import Path

import pytest

from .test_activation import run

PROGRAM = """
import json, numpy, cupynumeric as np, legate_fuse
a = np.array(numpy.linspace(0.0, 1.0, 1000))
b = np.array(numpy.linspace(1.0, 2.0, 1000))
total = 0.0
for _ in range(3):
    d = a * 2.0 + b * 3.0 - a / 4.0
    total += float(np.sum(d * d))
print("RESULT " + json.dumps({"total": total, "stats": legate_fuse.stats()}))
"""


def expected_total() -> float:
    import numpy

    a, b = numpy.linspace(0.0, 1.0, 1000), numpy.linspace(1.0, 2.0, 1000)
    d = a * 2.0 + b * 3.0 - a / 4.0
    return 3 * float(numpy.sum(d * d))


def run_program(**env: str) -> tuple[dict[str, object], list[str]]:
    """The program's report and its warnings (each with the lines that follow it)."""
    result = run([sys.executable, "-c", PROGRAM], **{"LEGATE_FUSE": "1", **env})
    assert result.returncode == 0, result.stderr[-3000:]
    line = next(ln for ln in result.stdout.splitlines() if ln.startswith("RESULT "))
    warnings = ["legate-fuse: WARNING" + part
                for part in result.stderr.split("legate-fuse: WARNING")[1:]]
    return json.loads(line[len("RESULT "):]), warnings


def assert_correct(report: dict[str, object]) -> None:
    total = report["total"]
    assert isinstance(total, float)
    assert abs(total - expected_total()) <= 1e-12 * expected_total()


def test_works_with_a_fresh_cache(tmp_path: Path) -> None:
    report, warnings = run_program(LEGATE_FUSE_CACHE_DIR=str(tmp_path))
    assert_correct(report)
    assert warnings == []
    stats = report["stats"]
    assert isinstance(stats, dict) and stats["fused_launches"] >= 3
    assert stats["kernel_cache_hits"] == 0 and stats["compile_seconds"] > 0


def test_second_run_compiles_nothing(tmp_path: Path) -> None:
    run_program(LEGATE_FUSE_CACHE_DIR=str(tmp_path))
    report, warnings = run_program(LEGATE_FUSE_CACHE_DIR=str(tmp_path))
    assert_correct(report)
    stats = report["stats"]
    assert isinstance(stats, dict)
    assert stats["compile_seconds"] == 0 and stats["kernel_cache_hits"] >= 1
    assert warnings == []


def fake_compiler(directory: Path, body: str) -> str:
    directory.mkdir()
    script = directory / "cc"
    script.write_text(f"#!/bin/sh\n{body}\n")
    script.chmod(0o755)
    return str(script)


@pytest.mark.parametrize("case", ["missing", "failing", "broken_output", "compile_error"])
def test_compiler_failures_fall_back_with_one_warning(tmp_path: Path, case: str) -> None:
    compilers = {
        "missing": str(tmp_path / "no-such-compiler"),
        "failing": fake_compiler(
            tmp_path / "failing", 'echo "kernel.c:1: error: injected failure" >&2; exit 1'),
        # Exits 0 but writes garbage where the shared object should be.
        # The real compiler, on generated code with an error injected into it.
        "compile_error": fake_compiler(
            tmp_path / "injected",
            'for a; do case "$a" in *.c) echo "int injected_error = ;" >> "$a";; esac; done; '
            'exec cc "$@"'),
        "broken_output": fake_compiler(
            tmp_path / "broken",
            'for a; do case "$prev" in -o) echo garbage > "$a";; esac; prev="$a"; done'),
    }
    report, warnings = run_program(CC=compilers[case], LEGATE_FUSE_CACHE_DIR=str(tmp_path / "c"))
    assert_correct(report)
    assert len(warnings) == 1, warnings
    assert "running them unfused" in warnings[0]
    if case == "failing":
        assert "injected failure" in warnings[0]
    if case == "compile_error":
        assert "injected_error" in warnings[0] and "error" in warnings[0]
    stats = report["stats"]
    assert isinstance(stats, dict) and stats["fused_launches"] == 0


def test_unwritable_cache_falls_back(tmp_path: Path) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    report, warnings = run_program(LEGATE_FUSE_CACHE_DIR=str(blocker / "cache"))
    assert_correct(report)
    assert len(warnings) == 1 and "kernel cache" in warnings[0]


def test_a_cache_others_may_write_is_refused_and_the_program_still_fuses(tmp_path: Path
                                                                        ) -> None:
    shared = tmp_path / "shared"
    shared.mkdir()
    shared.chmod(0o777)  # anyone may rename what is in it: no sticky bit
    report, warnings = run_program(LEGATE_FUSE_CACHE_DIR=str(shared))
    assert_correct(report)
    assert len(warnings) == 1 and str(shared) in warnings[0] and "refused" in warnings[0]
    stats = report["stats"]
    assert isinstance(stats, dict) and stats["fused_launches"] >= 3
    assert list(shared.iterdir()) == []  # nothing written where it was refused


@pytest.fixture(scope="module")
def filled_cache(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A cache the program filled (copy it before damaging it)."""
    cache = tmp_path_factory.mktemp("filled")
    run_program(LEGATE_FUSE_CACHE_DIR=str(cache))
    assert list((cache / "kernels").glob("*/*.so"))
    return cache


@pytest.fixture(scope="module")
def unfused_total() -> float:
    report, _ = run_program(LEGATE_FUSE="0")
    total = report["total"]
    assert isinstance(total, float)
    return total


def assert_as_unfused(report: dict[str, object], unfused_total: float) -> None:
    assert_correct(report)
    total = report["total"]
    assert isinstance(total, float)
    assert abs(total - unfused_total) <= 1e-12 * abs(unfused_total)


def kernel_files(cache: Path) -> list[Path]:
    return sorted((cache / "kernels").glob("*/*.so"))


def kernel_records(cache: Path) -> list[Path]:
    return sorted((cache / "kernels").glob("*/*.so.record"))


def overwrite_code(path: Path) -> None:
    """Random bytes over the shared object's code (its .text section): the same size, headers
    that still load, so only the digest tells it from the file that was compiled."""
    data = bytearray(path.read_bytes())
    assert data[:5] == b"\x7fELF\x02"  # 64-bit ELF
    shoff, = struct.unpack_from("<Q", data, 0x28)
    shentsize, shnum, shstrndx = struct.unpack_from("<HHH", data, 0x3A)
    names_offset, = struct.unpack_from("<Q", data, shoff + shstrndx * shentsize + 0x18)
    for index in range(shnum):
        header = shoff + index * shentsize
        name, = struct.unpack_from("<I", data, header)
        offset, size = struct.unpack_from("<QQ", data, header + 0x18)
        if data[names_offset + name:].startswith(b".text\0"):
            data[offset:offset + size] = os.urandom(size)
            path.write_bytes(data)
            return
    raise AssertionError(f"no .text section in {path}")


# Each damages every cached kernel (its shared object or its record).
DAMAGE = {
    # The case that made dlopen die of SIGBUS: the file's headers promise pages it lacks.
    "truncated": lambda cache: [f.write_bytes(f.read_bytes()[:1000]) for f in kernel_files(cache)],
    "empty": lambda cache: [f.write_bytes(b"") for f in kernel_files(cache)],
    "same_size_garbage": lambda cache: [overwrite_code(f) for f in kernel_files(cache)],
    "record_missing": lambda cache: [r.unlink() for r in kernel_records(cache)],
    "record_garbage": lambda cache: [r.write_bytes(os.urandom(100))
                                     for r in kernel_records(cache)],
}


@pytest.mark.parametrize("damage", DAMAGE)
def test_damaged_cache_entries_are_rebuilt_with_one_warning(
    tmp_path: Path, filled_cache: Path, unfused_total: float, damage: str
) -> None:
    cache = tmp_path / "cache"
    shutil.copytree(filled_cache, cache)
    DAMAGE[damage](cache)
    report, warnings = run_program(LEGATE_FUSE_CACHE_DIR=str(cache))
    assert_as_unfused(report, unfused_total)
    assert len(warnings) == 1, warnings
    assert "kernel cache entry" in warnings[0] and "is damaged" in warnings[0]
    assert "rebuilt it" in warnings[0]
    stats = report["stats"]
    assert isinstance(stats, dict) and stats["fused_launches"] >= 3
    # Rebuilt: the next run loads it as it is, without a warning and without compiling.
    report, warnings = run_program(LEGATE_FUSE_CACHE_DIR=str(cache))
    assert_as_unfused(report, unfused_total)
    assert warnings == []
    stats = report["stats"]
    assert isinstance(stats, dict) and stats["fused_launches"] >= 3
    assert stats["compile_seconds"] == 0 and stats["kernel_cache_hits"] >= 1
    assert len(kernel_files(cache)) == len(kernel_records(cache))  # nothing damaged left


def test_a_damaged_entry_that_cannot_be_rebuilt_runs_unfused(
    tmp_path: Path, filled_cache: Path, unfused_total: float
) -> None:
    cache = tmp_path / "cache"
    shutil.copytree(filled_cache, cache)
    # A folder where each record should be: unreadable as a record, and no new record can be
    # renamed over it (the compiler's identity is part of the key, so a failing compiler would
    # not even look at these entries).
    for record in kernel_records(cache):
        record.unlink()
        record.mkdir()
        (record / "in-the-way").write_text("")
    report, warnings = run_program(LEGATE_FUSE_CACHE_DIR=str(cache))
    assert_as_unfused(report, unfused_total)
    assert len(warnings) == 1, warnings
    assert "running them unfused" in warnings[0] and "could not be rebuilt" in warnings[0]
    stats = report["stats"]
    assert isinstance(stats, dict) and stats["fused_launches"] == 0


def test_two_processes_compiling_the_same_kernels_at_once(tmp_path: Path) -> None:
    import subprocess

    environ = {k: v for k, v in os.environ.items() if not k.startswith("LEGATE_FUSE")}
    # Both compile each kernel before its first launch, at the same time (in the background, the
    # builders of one might still work after both exited).
    environ.update(LEGATE_FUSE="1", LEGATE_FUSE_CACHE_DIR=str(tmp_path),
                   LEGATE_FUSE_COMPILE="wait")
    processes = [subprocess.Popen([sys.executable, "-c", PROGRAM], stdout=subprocess.PIPE,
                                  stderr=subprocess.PIPE, text=True, env=environ)
                 for _ in range(2)]
    for process in processes:
        out, err = process.communicate(timeout=600)
        assert process.returncode == 0, err[-3000:]
        assert "legate-fuse: WARNING" not in err
        line = next(ln for ln in out.splitlines() if ln.startswith("RESULT "))
        assert_correct(json.loads(line[len("RESULT "):]))
    assert not list((tmp_path / "kernels").glob(".build-*"))  # no scratch left behind
    # Whichever process wrote last, each record describes a whole file: the next run loads
    # every kernel without a warning and compiles nothing.
    assert kernel_records(tmp_path)
    report, warnings = run_program(LEGATE_FUSE_CACHE_DIR=str(tmp_path))
    assert_correct(report)
    assert warnings == []
    stats = report["stats"]
    assert isinstance(stats, dict) and stats["compile_seconds"] == 0


def test_interrupted_compile_falls_back_and_leaves_the_cache_usable(tmp_path: Path) -> None:
    # The compiler is killed half-way through writing its output.
    killed = fake_compiler(
        tmp_path / "killed",
        'for a; do case "$prev" in -o) printf "\\177ELF" > "$a";; esac; prev="$a"; done; '
        "kill -9 $$")
    report, warnings = run_program(CC=killed, LEGATE_FUSE_CACHE_DIR=str(tmp_path / "c"))
    assert_correct(report)
    assert len(warnings) == 1 and "running them unfused" in warnings[0]
    # The next run, with a working compiler, builds the kernels in the same cache.
    report, warnings = run_program(LEGATE_FUSE_CACHE_DIR=str(tmp_path / "c"))
    assert_correct(report)
    assert warnings == []
    stats = report["stats"]
    assert isinstance(stats, dict) and stats["fused_launches"] >= 3
