"""The public functions: `enable`, `disable`, `flush`, `is_enabled`, `stats`, `register_lifting`,
and the start-up path of LEGATE_FUSE=1 (`enable_from_environment`, called by _autoload.py)."""

from __future__ import annotations

import sys
from dataclasses import replace
from types import ModuleType
from typing import Any

from legate_fuse import session, settings
from legate_fuse.capture.import_hooks import after_import
from legate_fuse.counters import Stats
from legate_fuse.mode.machine import Mode


def enable() -> None:
    """Turns fusion on. Must run before `cupynumeric` is imported (or use LEGATE_FUSE=1)."""
    current_session = session.current()
    if current_session is not None:
        current_session.enable()
        return
    if "cupynumeric" in sys.modules:
        raise RuntimeError(
            "legate_fuse.enable() was called after cupynumeric was imported; call it before "
            "`import cupynumeric`, or run the program with LEGATE_FUSE=1"
        )
    session.start(replace(settings.load(), enabled=True))


def enable_from_environment() -> None:
    """Start-up path (LEGATE_FUSE set): settings are validated when Legate is first imported,
    so an invalid value is reported as an error of the program's own import."""

    def start(_module: ModuleType) -> None:
        config = settings.load()
        if config.enabled and session.current() is None:
            session.start(config)

    if "legate.core" in sys.modules or "cupynumeric" in sys.modules:
        return
    after_import("legate.core", start)


def disable() -> None:
    """Runs everything held and stops holding tasks; the program continues unfused."""
    current_session = session.current()
    if current_session is not None:
        current_session.disable()


def flush() -> None:
    """Executes every held task now."""
    current_session = session.current()
    if current_session is not None:
        current_session.flush("user")


def is_enabled() -> bool:
    current_session = session.current()
    return current_session is not None and current_session.mode.mode not in (Mode.DISABLED,
                                                                              Mode.OFF)


def stats() -> dict[str, Any]:
    """The statistics of this process so far, with the plugin's mode: the current one, the
    seconds spent in each and why each was entered (zeros, mode "off", when fusion was never
    enabled)."""
    current_session = session.current()
    if current_session is None:
        return {"mode": Mode.OFF.value, **Stats().as_dict(), "mode_seconds": {},
                "mode_reasons": {Mode.OFF.value: {"fusion was never enabled": 1}}}
    return current_session.report()


def register_lifting(library_name: str, lifting: Any) -> None:
    """Records and fuses the tasks of the Legate library `library_name` as `lifting` says (an
    object or module with the methods of `legate_fuse.lift.Lifting`, or "module:attribute"
    to import it from on first use). An installed package can declare it instead, as an entry
    point of the group `legate_fuse.liftings`. Call it before the library creates its first
    task."""
    from legate_fuse import lift

    lift.register(library_name, lifting)
