"""Imported at interpreter start-up by legate_fuse.pth: activates fusion when LEGATE_FUSE is set.

Must stay cheap: with LEGATE_FUSE unset or 0 it reads two variables and imports nothing else.
"""

import os

if os.environ.get("LEGATE_FUSE", "").strip() not in ("", "0"):
    from legate_fuse.api import enable_from_environment

    enable_from_environment()
elif os.environ.get("LEGATE_FUSE_STATS", "").strip() == "1":
    # Asked for statistics with fusion off: say so at exit, rather than print nothing.
    import atexit
    import sys

    atexit.register(lambda: print("legate-fuse: fusion off (LEGATE_FUSE is not set to 1): "
                                  "the plugin saw no task", file=sys.stderr))
