"""Every setting of legate-fuse, read from the environment in one place.

Settings are environment variables so that an unmodified program can be configured from the
command line (`LEGATE_FUSE=1 python app.py`). Invalid values raise `SettingError` naming the
accepted values; nothing else in the package reads them.

`Config` is the one table of settings: each of its fields is declared with `setting()`, which
names the variable, its default, its parser and a short help. `load()`, `ALL_SETTINGS`,
`python -m legate_fuse --help` and the README's table of settings are all derived from it
(the README's table is checked against `markdown_table()` by tests/unit/test_docs.py), and
docs/SETTINGS.md explains each setting at length.
"""

from __future__ import annotations

import dataclasses
import os
import textwrap
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any, Generic, TypeVar

from legate_fuse.setting_parsers import (
    SettingError,
    integer_at_least,
    one_of,
    parse_log_level,
    parse_log_topics,
    parse_size,
    parse_stats,
    parse_switch,
    parse_text,
)

__all__ = ["ALL_SETTINGS", "Config", "Setting", "SettingError", "load"]

T = TypeVar("T")

COMPILE_MODES = {"background": "a group runs unfused until its kernel is ready",
                 "wait": "it waits"}
MATH_MODES = {"exact": "results bit for bit as without fusion",
              "fast": "the C library's vector math"}
# Where each setting is explained at length; the README's table links to its sections.
SETTINGS_DOC = "docs/SETTINGS.md"
# The key of a Config field's metadata that holds its Setting.
_SETTING = "legate_fuse.setting"


@dataclass(frozen=True)
class Setting(Generic[T]):
    """One environment variable: the Config field it sets, its default, its parser, its help."""

    name: str  # the environment variable
    field: str  # the Config field it sets
    default: T
    parse: Callable[[str, str], T]  # (name, value stripped of blanks) -> value, or SettingError
    help: str  # one or two sentences; docs/SETTINGS.md says the rest
    shown_default: str | None = None  # the default as documented, when `default` does not say it
    # The value when the variable is unset, when it depends on other variables (the default
    # then stands for "not set" in Config).
    fallback: Callable[[Mapping[str, str]], T] | None = None

    def read(self, environ: Mapping[str, str] | None = None) -> T:
        env = os.environ if environ is None else environ
        raw = env.get(self.name)
        if raw is None or raw.strip() == "":
            return self.default if self.fallback is None else self.fallback(env)
        return self.parse(self.name, raw.strip())

    def default_text(self) -> str:
        """The default as one would set it in the environment (a switch's is 0 or 1)."""
        if self.shown_default is not None:
            return self.shown_default
        if isinstance(self.default, bool):
            return str(int(self.default))
        if isinstance(self.default, frozenset | str) and not self.default:
            return "unset"
        return str(self.default)

    def anchor(self) -> str:
        """The link to this setting's section of docs/SETTINGS.md (its heading is the name)."""
        return f"{SETTINGS_DOC}#{self.name.lower()}"


def usable_cores() -> int:
    """The CPU cores this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        return os.cpu_count() or 1


def default_compile_jobs(environ: Mapping[str, str]) -> int:
    """Half the CPU cores this process may run on, at least 1 and at most 8: the other half
    is Legate's. On 2 cores, one compiler beside cuPyNumeric's Black-Scholes-greeks example
    cost it nothing measurable, two cost it 1.4x (sharing the cores' caches and units)."""
    return max(1, min(8, usable_cores() // 2))


def default_cache_dir(environ: Mapping[str, str]) -> str:
    base = environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    return os.path.join(base, "legate-fuse")


def setting(name: str, default: T, parse: Callable[[str, str], T], help: str,
            shown_default: str | None = None,
            fallback: Callable[[Mapping[str, str]], T] | None = None) -> T:
    """A field of `Config`, read from the environment variable `name` (see `Setting`)."""
    # The field's own name is not known here: `ALL_SETTINGS` completes each Setting with it.
    about = Setting(name, "", default, parse, help, shown_default, fallback)
    return dataclasses.field(default=default, metadata={_SETTING: about})


@dataclass(frozen=True)
class Config:
    """A validated snapshot of all settings, one field per environment variable, in the order
    `python -m legate_fuse --help`, the README and docs/SETTINGS.md list them."""

    enabled: bool = setting(
        "LEGATE_FUSE", False, parse_switch,
        "1 intercepts cuPyNumeric's tasks and fuses them; 0 or unset changes nothing. Other "
        "values are an error.",
        shown_default="unset",
    )
    window_size: int = setting(
        "LEGATE_FUSE_WINDOW", 256, integer_at_least(1, "not a valid window size"),
        "Most tasks held back before the window is flushed (an integer >= 1). Larger windows "
        "give longer fused groups; held tasks keep the arrays they write alive.",
    )
    stats: str = setting(
        "LEGATE_FUSE_STATS", "", parse_stats,
        "1 prints the fusion statistics when the program exits; json prints them as one "
        "line, 'legate-fuse statistics' and a JSON object, for scripts.",
        shown_default="0",
    )
    profile: bool = setting(
        "LEGATE_FUSE_PROFILE", False, parse_switch,
        "1 measures the plugin's own time by stage and adds it to the statistics, in "
        "microseconds per task; the measuring costs some 25 microseconds per recorded task "
        "while on, and is not charged to any stage.",
    )
    time_tasks: bool = setting(
        "LEGATE_FUSE_TIME_TASKS", False, parse_switch,
        "1 times every task run unfused, and every fused launch, by waiting for each, and "
        "adds the seconds to the report of what ran unfused; the program runs serialised, "
        "slower (a profiling run).",
    )
    sites: bool = setting(
        "LEGATE_FUSE_SITES", True, parse_switch,
        "1 builds at once, as cuPyNumeric does, the tasks of a program line whose tasks of that "
        "kind were not fused (isclose, complex functions, each copy of a concatenate); 0 "
        "records every task of a kind the lifting knows.",
    )
    payoff: bool = setting(
        "LEGATE_FUSE_PAYOFF", True, parse_switch,
        "1 measures now and then, in a program that reads values back (or waits at a task "
        "that may throw), whether fusion saves it time, and runs unfused while it does not; 0 "
        "always fuses.",
    )
    step_aside: int = setting(
        "LEGATE_FUSE_STEP_ASIDE", 256, integer_at_least(0, "not understood"),
        "After this many tasks built at once (operations the plugin does not fuse) with no "
        "fused launch meanwhile, cuPyNumeric's tasks go straight to Legate for a while; 0 never "
        "steps aside.",
    )
    read_only_copies: bool = setting(
        "LEGATE_FUSE_READ_ONLY_COPIES", True, parse_switch,
        "1 attaches the private copy of NumPy data that cupynumeric.array(host) makes as "
        "read-only, which Legate's tasks read as fast as its own memory (every task reading a "
        "mutable attachment waits for a copy); 0 attaches it mutable, as cuPyNumeric does.",
    )
    products: bool = setting(
        "LEGATE_FUSE_PRODUCTS", True, parse_switch,
        "1 computes cuPyNumeric's matrix-vector and matrix-matrix products (X @ w, A @ B) inside "
        "fused tasks, with the element-wise work on their results, where Legate runs one CPU "
        "task at a time; 0 leaves every product to cuPyNumeric's own task.",
    )
    random: bool = setting(
        "LEGATE_FUSE_RANDOM", True, parse_switch,
        "1 draws cuPyNumeric's random numbers (random.rand, uniform, normal, integers, a "
        "Generator's) inside fused tasks, from cuPyNumeric's own generators, with the work on "
        "them, where Legate runs one CPU task at a time; 0 leaves every draw to cuPyNumeric's "
        "own task.",
    )
    log_level: str = setting(
        "LEGATE_FUSE_LOG_LEVEL", "warning", parse_log_level,
        "Verbosity of the 'legate_fuse' logger: error, warning, info or debug.",
    )
    log_topics: frozenset[str] = setting(
        "LEGATE_FUSE_LOG", frozenset(), parse_log_topics,
        "Comma-separated things to print as they happen: 'plan' prints every window's plan, "
        "'kernels' every kernel generated (its id, specification, C source and compiled file).",
    )
    cache_dir: str = setting(
        "LEGATE_FUSE_CACHE_DIR", "", parse_text,
        "Folder of the compiled-kernel cache, private to the user: refused (kernels then built "
        "in a folder of the process) where another user could write it. Safe to share between "
        "one user's concurrent processes.",
        shown_default="$XDG_CACHE_HOME/legate-fuse, else ~/.cache/legate-fuse",
        fallback=default_cache_dir,
    )
    cache_size: int = setting(
        "LEGATE_FUSE_CACHE_SIZE", 1 << 30, parse_size,
        "Most bytes the kernel cache keeps (e.g. 500M, 2G; 0: no limit): the least recently "
        "used kernels are evicted.",
        shown_default="1G",
    )
    cache_readonly: str = setting(
        "LEGATE_FUSE_CACHE_READONLY", "", parse_text,
        "A site's kernel cache, prepared by its administrator: read (where only its owner can "
        "write it), never written.",
    )
    compile_mode: str = setting(
        "LEGATE_FUSE_COMPILE", "background", one_of(COMPILE_MODES),
        "background: a fused group runs unfused while its kernel compiles at low priority, "
        "fused once ready (one whose temporaries take 256 MiB or more waits); wait: its first "
        "launch waits for its kernel.",
    )
    compile_jobs: int = setting(
        "LEGATE_FUSE_COMPILE_JOBS", 0, integer_at_least(1, "not a number of compilers"),
        "Most kernels compiled at once in the background (an integer >= 1).",
        shown_default="half the CPU cores, 1 to 8", fallback=default_compile_jobs,
    )
    kernel_threads: int = setting(
        "LEGATE_FUSE_THREADS", 0, integer_at_least(0, "not a number of threads"),
        "Threads a large fused CPU kernel runs on; 0: the cores this process may "
        "use shared among Legate's CPU workers. Results do not depend on it.",
        shown_default="0",
    )
    math: str = setting(
        "LEGATE_FUSE_MATH", "exact", one_of(MATH_MODES),
        "exact: fused results are bit for bit those of fusion off; fast: exp, log, sin, pow "
        "and the other math functions use the C library's vector math (glibc's libmvec, within "
        "4 ulp), faster, not bit for bit.",
    )
    c_compiler: str = setting(
        "CC", "cc", parse_text,
        "C compiler used for CPU kernels (never with fast-math).",
    )


def _settings() -> tuple[Setting[Any], ...]:
    return tuple(dataclasses.replace(f.metadata[_SETTING], field=f.name)
                 for f in dataclasses.fields(Config))


ALL_SETTINGS: tuple[Setting[Any], ...] = _settings()


def load(environ: Mapping[str, str] | None = None) -> Config:
    """Every setting read from `environ` (default: the process's environment)."""
    return Config(**{s.field: s.read(environ) for s in ALL_SETTINGS})


def describe() -> str:
    """Every setting, its default and its help, for `python -m legate_fuse --help`."""
    lines = []
    for s in ALL_SETTINGS:
        lines.append(f"{s.name} (default: {s.default_text()})")
        lines.extend(textwrap.wrap(s.help, 88, initial_indent="    ", subsequent_indent="    "))
    return "\n".join(lines)


def markdown_table() -> str:
    """The README's table of settings: name, default and help, linking to docs/SETTINGS.md."""
    rows = ["| variable | default | meaning |", "| --- | --- | --- |"]
    for s in ALL_SETTINGS:
        default = s.default_text()
        shown = default if default == "unset" or " " in default else f"`{default}`"
        rows.append(f"| `{s.name}` | {shown} | {s.help} [More]({s.anchor()}) |")
    return "\n".join(rows)
