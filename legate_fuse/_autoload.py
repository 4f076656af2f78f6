"""Imported at interpreter start-up by legate_fuse.pth: activates fusion when LEGATE_FUSE is set.

Must stay cheap: with LEGATE_FUSE unset or 0 it reads one variable and imports nothing else.
"""

import os

if os.environ.get("LEGATE_FUSE", "").strip() not in ("", "0"):
    from legate_fuse.session import enable_from_environment

    enable_from_environment()
