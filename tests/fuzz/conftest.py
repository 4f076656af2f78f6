"""Fuzz tests run Legate on CPUs in this process with fusion enabled (like integration/)."""

from __future__ import annotations

import legate_fuse

legate_fuse.enable()

import cupynumeric  # noqa: E402, F401  (must follow enable())
