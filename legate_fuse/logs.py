"""The `legate_fuse` logger's output: one line per message on stderr, prefixed `legate-fuse:`,
at the level LEGATE_FUSE_LOG_LEVEL sets."""

from __future__ import annotations

import logging

logger = logging.getLogger("legate_fuse")


def configure_logging(level: str) -> None:
    """Gives the logger its handler (once: a program may enable fusion twice) and `level`."""
    if not logger.handlers:
        handler = logging.StreamHandler()
        handler.setFormatter(logging.Formatter("legate-fuse: %(levelname)s: %(message)s"))
        logger.addHandler(handler)
        logger.propagate = False
    logger.setLevel(level.upper())
