"""The LogicalStores behind an argument of a Legate call."""

from __future__ import annotations

from typing import Any

from legate.core import LogicalArray, LogicalStore


def stores_of(obj: Any) -> list[LogicalStore]:
    """The LogicalStores an argument of a Legate call touches (none for scalars)."""
    if isinstance(obj, LogicalStore):
        return [obj]
    if isinstance(obj, LogicalArray):
        if obj.nested:
            return [s for i in range(obj.num_children) for s in stores_of(obj.child(i))]
        found = [obj.data]
        if obj.nullable:
            found.append(obj.null_mask)
        return found
    return []


