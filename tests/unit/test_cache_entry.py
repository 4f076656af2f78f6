"""Cache entries and their records: every kind of damage is caught before a file is returned,
rebuilt with one warning, and concurrent writers never see each other's partial files."""

from __future__ import annotations

import json
import os
import threading
from collections.abc import Callable
from pathlib import Path

import pytest

from legate_fuse.backend.cache_entry import RECORD_SUFFIX, Entry
from legate_fuse.backend.compiler import CompileError, KernelCache

SIZE = 4096  # more than the 1,000 bytes a damaged entry is cut to


def contents_of(source: str) -> bytes:
    return (source.encode() * SIZE)[:SIZE]


def produce(source: str, output: Path) -> None:
    output.write_bytes(contents_of(source))


def cache_at(tmp_path: Path, warnings: list[str], producer: Callable[[str, Path], None] = produce
             ) -> KernelCache:
    """A new cache over the folder, as a new process would open it."""
    return KernelCache(tmp_path, ".so", lambda: {"compiler": "test"}, producer, warnings.append)


def the_record(tmp_path: Path) -> Path:
    (record,) = tmp_path.glob(f"*/*{RECORD_SUFFIX}")
    return record


def the_file(tmp_path: Path) -> Path:
    (path,) = tmp_path.glob("*/*.so")
    return path


def test_the_record_describes_the_file(tmp_path: Path) -> None:
    warnings: list[str] = []
    path = cache_at(tmp_path, warnings).build("kernel")
    record = json.loads(the_record(tmp_path).read_text())
    assert record["size"] == SIZE == path.stat().st_size
    import hashlib

    assert record["sha256"] == hashlib.sha256(path.read_bytes()).hexdigest()
    assert path.name.split(".")[1] == record["sha256"][:16]
    again = cache_at(tmp_path, warnings)
    assert again.build("kernel") == path and again.cache_hits == 1 and again.compiled == 0
    assert warnings == [] and not list(tmp_path.glob(".build-*"))


def truncate(tmp_path: Path) -> None:
    path = the_file(tmp_path)
    path.write_bytes(path.read_bytes()[:1000])


def empty(tmp_path: Path) -> None:
    the_file(tmp_path).write_bytes(b"")


def same_size_garbage(tmp_path: Path) -> None:
    the_file(tmp_path).write_bytes(os.urandom(SIZE))


def remove_record(tmp_path: Path) -> None:
    the_record(tmp_path).unlink()


def garbage_record(tmp_path: Path) -> None:
    record = the_record(tmp_path)
    record.write_bytes(os.urandom(record.stat().st_size))


def record_of_another_size(tmp_path: Path) -> None:
    record = the_record(tmp_path)
    fields = json.loads(record.read_text())
    record.write_text(json.dumps({**fields, "size": SIZE + 1}))


DAMAGE = {f.__name__: f for f in (truncate, empty, same_size_garbage, remove_record,
                                  garbage_record, record_of_another_size)}


@pytest.mark.parametrize("damage", DAMAGE)
def test_a_damaged_entry_is_rebuilt_with_one_warning(tmp_path: Path, damage: str) -> None:
    warnings: list[str] = []
    cache_at(tmp_path, warnings).build("kernel")
    DAMAGE[damage](tmp_path)
    rebuilt = cache_at(tmp_path, warnings)
    path = rebuilt.build("kernel")
    assert path.read_bytes() == contents_of("kernel") and rebuilt.compiled == 1
    assert len(warnings) == 1 and "is damaged" in warnings[0] and "rebuilt" in warnings[0]
    assert rebuilt.build("kernel") == path and len(warnings) == 1  # checked once per process
    # The next process finds it intact.
    later = cache_at(tmp_path, warnings)
    assert later.build("kernel") == path and later.cache_hits == 1 and len(warnings) == 1
    assert the_file(tmp_path) == path  # nothing damaged left behind


def test_a_record_whose_file_is_not_there_yet_is_a_miss(tmp_path: Path) -> None:
    # What a reader sees while another process is between its two renames.
    warnings: list[str] = []
    cache_at(tmp_path, warnings).build("kernel")
    the_file(tmp_path).unlink()
    cache = cache_at(tmp_path, warnings)
    assert cache.build("kernel").read_bytes() == contents_of("kernel")
    assert cache.compiled == 1 and warnings == []


def test_a_damaged_entry_that_cannot_be_rebuilt_is_a_compile_error(tmp_path: Path) -> None:
    warnings: list[str] = []
    cache_at(tmp_path, warnings).build("kernel")
    truncate(tmp_path)

    def failing(source: str, output: Path) -> None:
        raise CompileError("injected failure")

    with pytest.raises(CompileError, match=r"is damaged .* could not be rebuilt: injected"):
        cache_at(tmp_path, warnings, failing).build("kernel")
    assert warnings == []  # the caller reports the failure, once


def test_an_intact_entry_that_does_not_work_is_rebuilt(tmp_path: Path) -> None:
    warnings: list[str] = []
    cache = cache_at(tmp_path, warnings)
    path = cache.build("kernel")
    again = cache.rebuild("kernel", path, "it does not load")
    assert again.read_bytes() == contents_of("kernel")
    assert len(warnings) == 1 and "it does not load" in warnings[0]


def test_concurrent_writers_never_see_partial_entries(tmp_path: Path) -> None:
    # Writers whose outputs differ (as compilers' may), all filling the same keys at once.
    warnings: list[str] = []
    start = threading.Barrier(4)
    errors: list[BaseException] = []

    def unreproducible(source: str, output: Path) -> None:
        with open(output, "wb") as file:
            for _ in range(16):  # written slowly, in pieces
                file.write(os.urandom(SIZE // 16))
                file.flush()

    def fill() -> None:
        try:
            start.wait()
            for _ in range(5):
                cache = cache_at(tmp_path, warnings, unreproducible)
                for key in range(20):
                    assert cache.build(str(key)).stat().st_size == SIZE
        except BaseException as error:
            errors.append(error)

    threads = [threading.Thread(target=fill) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == [] and warnings == []
    assert not list(tmp_path.glob(".build-*"))
    for record in tmp_path.glob(f"*/*{RECORD_SUFFIX}"):
        key = record.name.split(".")[0]
        assert Entry(tmp_path, key, ".so").find() is not None  # consistent with its file
