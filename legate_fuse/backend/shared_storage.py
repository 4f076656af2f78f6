"""The stores a planned window's tasks run with: those the program gave, but for the stores the
plan runs in the memory of another, dead before them (`Plan.shared_storage`, see
src/cpp/analysis/storage_sharing.h).
"""

from __future__ import annotations

from typing import Any

from legate_fuse.capture.lazy_task import BuildAndExecute
from legate_fuse.counters import Stats
from legate_fuse.plan.planner import PlannedWindow


def launch_stores(planned: PlannedWindow, stats: Stats) -> list[Any]:
    """The window's stores by number, as its launches use them; the records that run as built
    are told theirs (`TaskRecord.storage`). A task the plan shares a store with that cannot be
    rebuilt with another store (one built when the program made it) keeps every store as the
    program gave it: the analysis rules such tasks out, this makes sure of it."""
    shared = planned.plan.shared_storage
    stores = planned.stores
    if not shared:
        return stores
    moved = {id(stores[store]): stores[owner] for store, owner in shared}
    touching = [record for record in planned.records
                if any(id(arg.store) in moved for arg in record.args)]
    if any(not record.lazy or type(record.task) is not BuildAndExecute for record in touching):
        return stores
    for record in touching:
        record.storage = {id(arg.store): moved[id(arg.store)] for arg in record.args
                          if id(arg.store) in moved}
    stats.arrays_in_shared_memory += len(shared)
    launched = list(stores)
    for store, owner in shared:
        launched[store] = stores[owner]
    return launched
