"""Where a full window is cut: the prefix runs now, the rest stays held for the next window.

Running the whole window when it fills up would cut the program at an arbitrary task, often
in the middle of an expression whose intermediate arrays are still reachable from the program
(locals of the function being evaluated) or read by the tasks that follow. Every one of those
must then be allocated. Cutting instead where the fewest bytes cross (typically between two
iterations of a loop, where only the loop's state does) lets the next window decide about the
rest, by which time most of them are dead.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from legate_fuse.window.holding import TaskRecord
from legate_fuse.window.liveness import foreign_references, held_references

WRITES = ("add_output", "add_reduction")


def written_stores(record: TaskRecord) -> list[Any]:
    """The stores a task writes; every store it touches when its arguments are unknown."""
    if not record.args:
        return list(record.stores)
    return [arg.store for arg in record.args if arg.kind in WRITES]


def store_bytes(store: Any) -> int:
    """Bytes an allocation of `store` takes (1 when Legate cannot tell, e.g. unbound)."""
    try:
        return max(1, int(store.volume) * int(store.type.size))
    except Exception:
        return 1


def choose_cut(records: Sequence[TaskRecord], earliest: int,
               weight: Callable[[Any], int] = store_bytes) -> int:
    """The number of leading tasks to run, in [earliest, len(records)]: the cut that leaves the
    fewest bytes to allocate, the latest such cut on ties. A store written before the cut must
    be allocated when a task after the cut touches it or the program can still reach it."""
    n = len(records)
    first_write: dict[int, int] = {}
    last_touch: dict[int, int] = {}
    stores: dict[int, Any] = {}
    for position, record in enumerate(records):
        for store in written_stores(record):
            first_write.setdefault(id(store), position)
            stores[id(store)] = store
        for store in record.stores:
            last_touch[id(store)] = position
    held = held_references(records)
    held.update(stores.keys())  # the references `stores` itself holds
    reachable = {id(s) for s in foreign_references(list(stores.values()), held)}
    # cost[p]: bytes that a cut after p tasks must allocate (difference array over p).
    delta = [0] * (n + 2)
    for key, store in stores.items():
        start = first_write[key] + 1  # a cut after this write...
        end = n if key in reachable else last_touch[key]  # ...up to the last touch (or all)
        if start <= end:
            size = weight(store)
            delta[start] += size
            delta[end + 1] -= size
    best, best_cost, cost = n, None, 0
    for p in range(n + 1):
        cost += delta[p]
        if p >= earliest and (best_cost is None or cost <= best_cost):
            best, best_cost = p, cost
    return best
