"""The stores of eliminated temporaries, handed back to the program for its next new stores.

cuPyNumeric creates a new store for every intermediate array, and Legate gives each new store
a field at once: a field freed earlier (first freed, first reused), with the memory Legion made
for it, or a new one. A store a fused task never allocates (an eliminated temporary) still took
a field; freed at the flush, it goes into Legate's queue of free fields without memory, behind
the field of the result the program dropped meanwhile (the last iteration's). The next
iteration's first new stores take the fields ahead in the queue, and its result a field without
memory: new memory for every result until every field in the rotation has some, one more array
than without the plugin at its peak (CG at 1e7: 1,357 MiB against 1,200 unfused).

So the plugin keeps the stores of the temporaries its fused tasks did not allocate instead of
freeing them, and gives one back, as if Legate had created it, to each `create_store` of the
same type and shape that it expects to become a temporary again: one made where a store that
became a temporary was made last time. Where is the program's call site (its instruction that
called into cuPyNumeric, as capture/call_sites.py finds it) and the store's count among those
made in a row there: a loop makes the same stores at the same lines in every iteration,
wherever its windows begin and end. (A position in the window, counted from its flush, did not
do: a full window runs its first part and keeps the rest held, so a loop's windows begin at
another step each time, and the results of a shallow-water loop took fields of temporaries,
without memory, until every field in the rotation had some: 65 arrays of 8 MB where unfused
needs 15.) A store given back that is not eliminated this time is allocated like any new store;
one of a kind nobody asks for again holds a field, no memory.

Only stores this module saw `create_store` return, whole (never a view of one), are kept, and
only once a fused task ran in place of every task that wrote them: nothing in Legate ever used
them, and the analysis found the program cannot reach them (their one reference is here). The
stores of tasks a cut window keeps held stay noted as created: they are kept, or not, when
those tasks run.
"""

from __future__ import annotations

import math
from collections import deque
from collections.abc import Callable, Hashable, Iterable, Mapping, Sequence
from typing import Any

from legate_fuse.capture.task_record import TaskRecord

# Stores kept at least (a window's capacity, if more); past that many, those kept first are
# freed (to Legate's own queue).
MOST_KEPT = 64
# Creation keys remembered; past this many (a program generating code?), forgotten.
MOST_KEYS = 4096

# Where a store was made: its kind, the program's call site (None: no frame of the program) and
# its count among the stores made in a row at that site.
CreationKey = tuple[Hashable, Hashable | None, int]


class StoreRecycler:
    def __init__(self, most_kept: int = MOST_KEPT) -> None:
        self.most_kept = max(most_kept, MOST_KEPT)
        # id(store) -> (store, its kind, where it was made) for each store created since the
        # window was last flushed, and each of the tasks it keeps held: a reference, so that
        # the id stays the store's (counted as a reference the window holds when the analysis
        # asks what the program can reach).
        self.created: dict[int, tuple[Any, Hashable, CreationKey]] = {}
        # Per kind, the stores kept, each with the number of stores kept before it.
        self._kept: dict[Hashable, deque[tuple[int, Any]]] = {}
        self._kept_count = 0
        self._kept_ever = 0
        # Whether the store last made at a creation key became a temporary; the keys of those
        # that did so far in the window being flushed.
        self._became_temporary: dict[CreationKey, bool] = {}
        self._recycled_now: set[CreationKey] = set()
        # The call site of the store made last, and how many were made there in a row.
        self._site: Hashable | None = None
        self._in_a_row = 0

    @staticmethod
    def kind(args: Sequence[Any], kwargs: Mapping[str, Any]) -> Hashable | None:
        """What a `create_store` call creates, when a kept store can stand in for it: a
        region-backed store of a known type and shape (`create_store(dtype, shape=...,
        optimize_scalar=...)`, more than one element); None for anything else."""
        if len(args) != 1 or kwargs.keys() != {"shape", "optimize_scalar"}:
            return None
        shape = tuple(kwargs["shape"])
        return (args[0], shape) if math.prod(shape) > 1 else None

    def new_store(self, create: Callable[..., Any], args: Sequence[Any],
                  kwargs: Mapping[str, Any], site: Callable[[], Hashable | None]
                  ) -> tuple[Any, bool]:
        """The store for `create_store(*args, **kwargs)` (`create` is Legate's) while tasks
        are recorded: a kept one where one is expected to become a temporary again, else a new
        one; and whether it was kept. `site()`: the program's call site (looked up only for a
        store that could be kept)."""
        kind = self.kind(args, kwargs)
        if kind is None:
            return create(*args, **kwargs), False
        key = self._key(kind, site())
        store = self.reuse(kind, key)
        reused = store is not None
        if store is None:
            store = create(*args, **kwargs)
        self.note_created(store, kind, key)
        return store, reused

    def _key(self, kind: Hashable, site: Hashable | None) -> CreationKey:
        if site == self._site:
            self._in_a_row += 1
        else:
            self._site, self._in_a_row = site, 0
        return kind, site, self._in_a_row

    def reuse(self, kind: Hashable, key: CreationKey) -> Any | None:
        """A kept store for the next `create_store` of this kind, when the store last made
        where this one is (`key`) became a temporary; else None."""
        if not self._became_temporary.get(key, False):
            return None
        kept = self._kept.get(kind)
        if not kept:
            return None
        self._kept_count -= 1
        return kept.popleft()[1]

    def note_created(self, store: Any, kind: Hashable, key: CreationKey) -> None:
        self.created[id(store)] = (store, kind, key)

    def held_numbers(self, index: Mapping[int, int]) -> list[int]:
        """The numbers (`index`: id(store) -> number) of the window's stores referenced here."""
        numbers = (index.get(key) for key in self.created)
        return [number for number in numbers if number is not None]

    def keep(self, stores: Iterable[Any]) -> None:
        """Keeps those of `stores` (temporaries no task allocated) this module saw created."""
        for store in stores:
            entry = self.created.get(id(store))
            if entry is None or entry[0] is not store:
                continue
            _, kind, key = entry
            self._kept.setdefault(kind, deque()).append((self._kept_ever, store))
            self._kept_count += 1
            self._kept_ever += 1
            self._recycled_now.add(key)
        while self._kept_count > self.most_kept:  # the store kept first goes
            oldest = min((kept for kept in self._kept.values() if kept), key=lambda k: k[0][0])
            oldest.popleft()
            self._kept_count -= 1

    def release_created(self) -> None:
        """Drops the references to the stores created since the last flush, at every flush
        (also of an empty window): held on, those the program let go would be freed only at
        some later flush, inside a Legate trace perhaps, where Legion refuses a free the
        trace did not record (an array let go inside a trace aborts a program without the
        plugin too)."""
        self.created.clear()

    def window_flushed(self, held: Iterable[TaskRecord] = ()) -> None:
        """The flushed window's stores are the program's (or freed) from now on, but those of
        the tasks it keeps `held`, noted until they run; whether each store it ran became a
        temporary is remembered by where the store was made."""
        held_ids = {id(store) for record in held for store in record.stores}
        still_held = {}
        outcome = self._became_temporary
        for number, entry in self.created.items():
            if number in held_ids:
                still_held[number] = entry
            else:
                outcome[entry[2]] = entry[2] in self._recycled_now
        if len(outcome) > MOST_KEYS:
            outcome.clear()
        self.release_created()
        self.created.update(still_held)
        self._recycled_now = set()

    def clear(self) -> None:
        """Frees every kept store, in the order kept: at exit (no store of the plugin outlives
        the program), and on entering a Legate trace (capture/traces.py), before it begins.
        Legion replays a trace's operations as it recorded them and aborts the program when an
        iteration issues others; with stores kept from the windows before a loop in a trace,
        an iteration issued fewer operations than the first, or read a field Legion took as
        never written. Freed there, the trace's new stores get what Legate would give them
        without the plugin; stores kept inside a trace are freed at the next one's entry."""
        self.window_flushed()
        # Last kept first in the list: clearing a list drops its items from the end.
        kept = sorted((entry for stores in self._kept.values() for entry in stores),
                      key=lambda entry: entry[0], reverse=True)
        self._kept.clear()
        self._kept_count = 0
        kept.clear()
