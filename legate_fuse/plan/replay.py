"""Repeated windows, recognised from their raw records: what lifting and encoding made of a
stream once is reused for every later window with the same stream.

A loop issues the same tasks every iteration, on new stores. The stream of a window is, per
task, its library, task id and the shape of its recorded calls (`TaskRecord.shape`: each store
argument's call, reduction operator, type and whether it is partitioned, the scalars and the
constraints), and which of the window's stores each argument is, numbered by first appearance.
Lifting reads nothing else of a record (lift/__init__.py), so equal streams lift to the same
operations and encode to the same integers: the encoding of a stream is made once, and a
window with that stream is encoded by numbering its stores, in one pass over its records.

What the stream does not say (which stores are views of one root, their shapes, which the
program still reaches) is read for every window as before, from Legate's descriptions of the
stores and their reference counts, and the analysis looks the plan up by all of it
(analysis/analyzer.h): a stream seen before on stores aliased differently, or reachable from
elsewhere, gets the plan of what it is now.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from typing import Any

from legate_fuse import _core, lift
from legate_fuse.capture.task_record import TaskRecord
from legate_fuse.lift import pays_alone

# Streams remembered; past this many (a program generating ever new windows), forgotten.
MOST_STREAMS = 1024


@dataclass(slots=True)
class Stream:
    """A window's stream, read from its records: its key (None when it cannot be one: a task
    built with a call the lifting does not understand; or, once looked up, an unhashable
    scalar), and the window's stores numbered by first appearance."""

    key: Hashable | None
    stores: list[Any]
    index: dict[int, int]  # id(store) -> its number
    lifted: bool  # whether a record holds its lifted form (references to its stores)


@dataclass(frozen=True, slots=True)
class Encoding:
    """What lifting and encoding make of a stream, the same for every window with it."""

    tasks: _core.TaskEncoding  # the task encoding of ir/window.h, decoded
    labels: tuple[str, ...]  # each task's operation, or "opaque <task>"
    lifted: tuple[bool, ...]  # whether each task was lifted
    # Per store number, the references the window's records hold to it when none is lifted:
    # two per argument (the record's list of stores and its StoreArg).
    held: tuple[int, ...]

    def worth_planning(self, records: Sequence[TaskRecord], prefix: int | None = None) -> bool:
        """Whether fusion could change how the first `prefix` of `records` (all by default)
        run: only if two of them are lifted (a group has two), or one, a random draw that runs
        faster fused alone (in parts on several threads)."""
        lifted = self.lifted[:prefix]
        count = sum(lifted)
        if count != 1:
            return count >= 2
        return pays_alone(records[lifted.index(True)])


def read_stream(records: Sequence[TaskRecord]) -> Stream:
    """The stream of `records` (one pass: the stores are numbered on the way)."""
    stores: list[Any] = []
    index: dict[int, int] = {}
    numbers: list[int] = []
    kinds: list[tuple[Any, ...]] = []
    lazy, lifted = True, False
    for record in records:
        lazy = lazy and record.lazy
        lifted = lifted or record.lifted is not None
        kinds.append((record.library_name, record.task_id, *record.shape))
        # Inlined: this runs for every argument of every held task at every flush.
        for store in record.stores:
            number = index.get(id(store))
            if number is None:
                number = index[id(store)] = len(stores)
                stores.append(store)
            numbers.append(number)
    # Hashed when looked up (Encodings.get), not here: a tuple's hash is not kept, and the
    # key of a window of 16 tasks takes about 4 us to hash.
    key = (tuple(kinds), tuple(numbers)) if lazy else None
    return Stream(key, stores, index, lifted)


class Encodings:
    """The encoding of every stream seen (up to MOST_STREAMS).

    The last stream found is compared first: a loop's windows repeat one stream, and a
    comparison reads the key once where a lookup by hash reads it twice (its hash, then the
    comparison with the key found)."""

    def __init__(self) -> None:
        self._known: dict[Hashable, Encoding] = {}
        self._last: tuple[Hashable, Encoding] | None = None
        self._generation = lift.generation()

    def get(self, stream: Stream) -> Encoding | None:
        key = stream.key
        if key is None:
            return None
        if self._generation != lift.generation():  # a library's lifting was registered since
            self.clear()
            self._generation = lift.generation()
        last = self._last
        if last is not None and last[0] == key:
            return last[1]
        try:
            found = self._known.get(key)
        except TypeError:  # a Scalar argument hashes by identity: its task lifts afresh
            stream.key = None
            return None
        if found is not None:
            self._last = (key, found)
        return found

    def remember(self, stream: Stream, encoding: Encoding) -> None:
        if stream.key is None:
            return
        if len(self._known) >= MOST_STREAMS:
            self.clear()
        self._known[stream.key] = encoding
        self._last = (stream.key, encoding)

    def clear(self) -> None:
        self._known.clear()
        self._last = None

    def __len__(self) -> int:
        return len(self._known)


def held_by_number(records: Sequence[TaskRecord], stream: Stream) -> list[int]:
    """Per store number, the references the records hold (see Encoding.held), counted."""
    held = [0] * len(stream.stores)
    index = stream.index
    for record in records:
        for store in record.stores:
            held[index[id(store)]] += 1
        for arg in record.args:
            number = index.get(id(arg.store))
            if number is not None:  # (a store a record touches is among its stores)
                held[number] += 1
    return held
