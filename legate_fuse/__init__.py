"""legate-fuse: run-time task and kernel fusion for Legate and cuPyNumeric.

Turn it on with `LEGATE_FUSE=1` (no code change), or call `enable()` before importing
cupynumeric. `flush()`, `disable()` and `stats()` control and observe it at run time;
`register_lifting()` lets another Legate library's tasks be recorded and fused.

Every Python process of an environment with legate-fuse imports this package at start-up
(legate_fuse.pth runs _autoload.py). With fusion off that must cost nothing, so the public
names are loaded on first use (PEP 562), not here.
"""

from __future__ import annotations

# typing itself costs milliseconds to import: the constant stands in for typing.TYPE_CHECKING.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from legate_fuse.api import disable, enable, flush, is_enabled, register_lifting, stats
    from legate_fuse.settings import SettingError

__all__ = ["SettingError", "disable", "enable", "flush", "is_enabled", "register_lifting",
           "stats"]
__version__ = "0.1.0"


def __getattr__(name: str) -> Any:
    if name == "SettingError":
        from legate_fuse.settings import SettingError

        return SettingError
    if name in __all__:
        from legate_fuse import api

        return getattr(api, name)
    raise AttributeError(f"module 'legate_fuse' has no attribute {name!r}")
