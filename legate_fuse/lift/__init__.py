"""Lifting: recorded Legate tasks to operations the fusion analysis and code generator know.

One module per Legate library. A task no lifting recognises is opaque: it runs exactly as the
library built it, and the analysis never fuses across it.
"""

from legate_fuse.lift.base import READ, REDUCE, WRITE, LiftedArg, LiftedTask, lift

__all__ = ["READ", "REDUCE", "WRITE", "LiftedArg", "LiftedTask", "lift"]
