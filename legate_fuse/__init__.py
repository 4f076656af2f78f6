"""legate-fuse: run-time task and kernel fusion for Legate and cuPyNumeric.

Turn it on with `LEGATE_FUSE=1` (no code change), or call `enable()` before importing
cupynumeric. `flush()`, `disable()` and `stats()` control and observe it at run time.
"""

from legate_fuse.session import disable, enable, flush, is_enabled, stats
from legate_fuse.settings import SettingError

__all__ = ["SettingError", "disable", "enable", "flush", "is_enabled", "stats"]
__version__ = "0.1.0"
