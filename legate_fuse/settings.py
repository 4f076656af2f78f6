"""Every setting of legate-fuse, with its help text, read from the environment in one place.

Settings are environment variables so that an unmodified program can be configured from the
command line (`LEGATE_FUSE=1 python app.py`). Invalid values raise `SettingError` naming the
accepted values; nothing else in the package reads the environment.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Generic, TypeVar

T = TypeVar("T")

LOG_LEVELS = ("error", "warning", "info", "debug")
LOG_TOPICS = ("plan", "kernels")


class SettingError(ValueError):
    """A legate-fuse environment variable has a value it does not accept."""


@dataclass(frozen=True)
class Setting(Generic[T]):
    name: str
    default: T
    parse: Callable[[str, str], T]
    help: str

    def read(self, environ: Mapping[str, str] | None = None) -> T:
        env = os.environ if environ is None else environ
        raw = env.get(self.name)
        if raw is None or raw.strip() == "":
            return self.default
        return self.parse(self.name, raw.strip())


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


ENABLED = Setting(
    "LEGATE_FUSE", False, parse_switch,
    "1 intercepts cuPyNumeric's tasks and fuses them; 0 or unset changes nothing.",
)
WINDOW_SIZE = Setting(
    "LEGATE_FUSE_WINDOW", 256, integer_at_least(1, "not a valid window size"),
    "Most tasks held back before the window is analysed and flushed. Held tasks keep the "
    "arrays they write alive, so a larger window needs more memory.",
)
STATS = Setting(
    "LEGATE_FUSE_STATS", False, parse_switch,
    "1 prints the fusion statistics when the program exits.",
)
PROFILE = Setting(
    "LEGATE_FUSE_PROFILE", False, parse_switch,
    "1 measures the plugin's time by stage (recording, building tasks, lifting, encoding, "
    "analysis, kernels, launch, tasks run unfused) and adds it to the statistics, in "
    "microseconds per task; costs about a microsecond per task while on.",
)
SITES = Setting(
    "LEGATE_FUSE_SITES", True, parse_switch,
    "1 builds at once, as cuPyNumeric does, the tasks of a program line whose tasks of that "
    "kind were not lifted (a clip, complex data), rather than recording them to build later; "
    "0 records every task of a kind the lifting knows.",
)
PAYOFF = Setting(
    "LEGATE_FUSE_PAYOFF", True, parse_switch,
    "1 measures, in a program that reads values back, whether fusion saves it time: a few "
    "reads' worth of its work runs fused and a few unfused, now and then, and the faster way "
    "is kept (small arrays read back every few operations run unfused); 0 always fuses.",
)
STEP_ASIDE = Setting(
    "LEGATE_FUSE_STEP_ASIDE", 256, integer_at_least(0, "not understood"),
    "After this many tasks built as cuPyNumeric builds them (operations the plugin does not "
    "fuse) with no fused task launched meanwhile, cuPyNumeric's tasks go straight to Legate, "
    "without the plugin's work on each, until 8 times as many arrays have been created or "
    "twice as many values read back; then the plugin looks again, and waits twice as long "
    "each time it finds nothing to fuse (up to 64 times as many arrays). 0 never steps aside.",
)
LOG_LEVEL = Setting(
    "LEGATE_FUSE_LOG_LEVEL", "warning", parse_log_level,
    "Verbosity of the 'legate_fuse' logger: error, warning, info or debug.",
)

LOG: Setting[frozenset[str]] = Setting(
    "LEGATE_FUSE_LOG", frozenset(), parse_log_topics,
    "Comma-separated things to print as they happen: 'plan' prints every window's plan "
    "(its tasks, the groups, the temporaries and why each group ended); 'kernels' prints "
    "every kernel generated: its id, its specification, its C source and the compiled file.",
)

def parse_text(name: str, raw: str) -> str:
    return raw


def default_cache_dir() -> str:
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "legate-fuse")


CACHE_DIR = Setting(
    "LEGATE_FUSE_CACHE_DIR", "", parse_text,
    "Folder of the compiled-kernel cache (default: $XDG_CACHE_HOME/legate-fuse, else "
    "~/.cache/legate-fuse). Shared safely by concurrent processes.",
)
C_COMPILER = Setting(
    "CC", "cc", parse_text,
    "C compiler used for CPU kernels.",
)

ALL_SETTINGS: tuple[Setting[object], ...] = (
    ENABLED, WINDOW_SIZE, STATS, PROFILE, SITES, PAYOFF, STEP_ASIDE,  # type: ignore[assignment]
    LOG_LEVEL, LOG, CACHE_DIR, C_COMPILER,
)


@dataclass(frozen=True)
class Config:
    """A validated snapshot of all settings."""

    enabled: bool
    window_size: int
    stats: bool
    log_level: str
    log_topics: frozenset[str] = frozenset()
    cache_dir: str = ""
    c_compiler: str = "cc"
    profile: bool = False
    sites: bool = True
    payoff: bool = True
    step_aside: int = 256


def load(environ: Mapping[str, str] | None = None) -> Config:
    return Config(
        enabled=ENABLED.read(environ),
        window_size=WINDOW_SIZE.read(environ),
        stats=STATS.read(environ),
        log_level=LOG_LEVEL.read(environ),
        log_topics=LOG.read(environ),
        cache_dir=CACHE_DIR.read(environ) or default_cache_dir(),
        c_compiler=C_COMPILER.read(environ),
        profile=PROFILE.read(environ),
        sites=SITES.read(environ),
        payoff=PAYOFF.read(environ),
        step_aside=STEP_ASIDE.read(environ),
    )


def describe() -> str:
    """Help text of every setting, for the README and `python -m legate_fuse --help`."""
    lines = []
    for setting in ALL_SETTINGS:
        lines.append(f"{setting.name} (default: {setting.default!r})\n    {setting.help}")
    return "\n".join(lines)
