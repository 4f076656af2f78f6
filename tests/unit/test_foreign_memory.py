"""Which roots' memory a window's plan must never hand to another array
(`ExternalMemory.foreign_roots`, src/cpp/analysis/storage_sharing.h): buffers attached to
stores, private copies among them, while they live; memory given to a reader the plugin cannot
see, for good."""

from __future__ import annotations

import gc
from typing import Any

import numpy

from legate_fuse.capture import external_memory
from legate_fuse.capture.external_memory import ExternalMemory


class Store:
    """A store by its root key."""

    def __init__(self, root: str) -> None:
        self.root = root


def memory(live: set[str] | None = None) -> ExternalMemory:
    return ExternalMemory(lambda store: store.root, lambda: set(live or ()))


def copying(external: ExternalMemory, store: Any, buffer: Any) -> None:
    """`store` attached over `buffer` while cuPyNumeric copies NumPy data (its private copy)."""
    external._copying += 1
    try:
        external.note_attached(store, buffer)
    finally:
        external._copying -= 1


def test_no_root_is_foreign_until_memory_is_attached() -> None:
    assert "a" not in memory().foreign_roots()


def test_a_private_copy_is_foreign_while_it_lives() -> None:
    external = memory()
    copy = numpy.zeros(4)
    copying(external, Store("a"), copy)
    assert not external.holds("a")  # no one else reads it: tasks writing it are not flushed
    assert "a" in external.foreign_roots() and "b" not in external.foreign_roots()
    del copy
    gc.collect()
    assert "a" not in external.foreign_roots()  # its root may be Legate's own again


def test_a_program_buffer_is_foreign_while_it_lives() -> None:
    external = memory()
    buffer = numpy.zeros(4)
    external.note_attached(Store("a"), buffer)
    assert "a" in external.foreign_roots()
    del buffer
    gc.collect()
    assert "a" not in external.foreign_roots()


def test_memory_given_to_a_reader_not_seen_is_foreign_for_good() -> None:
    external = memory()
    external.note(Store("a"), None)  # a DLPack capsule, tiles of external allocations
    gc.collect()
    assert "a" in external.foreign_roots()


def test_every_root_is_foreign_past_the_limit_or_after_an_unread_root() -> None:
    external = memory()
    buffers = [numpy.zeros(1) for _ in range(external_memory.MOST_FOREIGN + 1)]
    for number, buffer in enumerate(buffers):
        external.note_attached(Store(str(number)), buffer)
    assert "any" in external.foreign_roots()
    external = memory()
    kept = numpy.zeros(1)
    external.note_attached(Store(None), kept)  # type: ignore[arg-type]
    assert "any" in external.foreign_roots()
