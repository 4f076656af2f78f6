"""The parsers of settings' values (settings.py): each takes the variable's name and its value
stripped of blanks, and returns the value or raises SettingError naming the accepted values."""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping

LOG_LEVELS = ("error", "warning", "info", "debug")
LOG_TOPICS = ("plan", "kernels")


class SettingError(ValueError):
    """A legate-fuse environment variable has a value it does not accept."""


def parse_stats(name: str, raw: str) -> str:
    """'' (no statistics at exit), 'text' or 'json'."""
    found = {"0": "", "1": "text", "json": "json"}.get(raw.lower())
    if found is None:
        raise SettingError(f"{name}={raw!r} is not understood; accepted values: 0 (off), "
                           "1 (a readable block), json (one line of JSON)")
    return found


def parse_switch(name: str, raw: str) -> bool:
    if raw == "1":
        return True
    if raw == "0":
        return False
    raise SettingError(f"{name}={raw!r} is not understood; accepted values: 0 (off), 1 (on)")


def integer_at_least(minimum: int, what: str) -> Callable[[str, str], int]:
    """A parser of integers >= `minimum`; `what` names a rejected value in the error."""

    def parse(name: str, raw: str) -> int:
        try:
            value = int(raw)
        except ValueError:
            value = minimum - 1
        if value < minimum:
            raise SettingError(f"{name}={raw!r} is {what}; expected an integer >= {minimum}")
        return value

    return parse


def parse_log_level(name: str, raw: str) -> str:
    level = raw.lower()
    if level not in LOG_LEVELS:
        raise SettingError(
            f"{name}={raw!r} is not understood; accepted values: {', '.join(LOG_LEVELS)}"
        )
    return level


def parse_log_topics(name: str, raw: str) -> frozenset[str]:
    topics = frozenset(t.strip().lower() for t in raw.split(",") if t.strip())
    unknown = sorted(topics - set(LOG_TOPICS))
    if unknown:
        raise SettingError(
            f"{name}={raw!r} names unknown topics {unknown}; accepted: {', '.join(LOG_TOPICS)}"
        )
    return topics


def one_of(values: Mapping[str, str]) -> Callable[[str, str], str]:
    """A parser of one of `values` (any case), each explained in the error for another."""

    def parse(name: str, raw: str) -> str:
        value = raw.lower()
        if value not in values:
            accepted = ", ".join(f"{v} ({why})" for v, why in values.items())
            raise SettingError(f"{name}={raw!r} is not understood; accepted values: {accepted}")
        return value

    return parse


def parse_text(name: str, raw: str) -> str:
    return raw


SIZE_UNITS = {"": 1, "k": 1 << 10, "m": 1 << 20, "g": 1 << 30, "t": 1 << 40}
_SIZE = re.compile(r"(\d+(?:\.\d*)?)\s*([kmgt]?)(?:i?b)?", re.IGNORECASE)


def parse_size(name: str, raw: str) -> int:
    """A size in bytes: a number with an optional binary unit (K, M, G or T, followed or not
    by B or iB, in any case), e.g. 1G or 500M; 0 for no limit."""
    found = _SIZE.fullmatch(raw)
    if found is None:
        raise SettingError(f"{name}={raw!r} is not a size; expected a number of bytes with an "
                           "optional unit, e.g. 1G, 500M or 0 (no limit)")
    return int(float(found[1]) * SIZE_UNITS[found[2].lower()])
