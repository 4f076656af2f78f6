"""`python -m legate_fuse --help`: every setting, its default and its short help.

Reads nothing but the table of settings (settings.py): it neither starts Legate nor imports it.
`--markdown` prints the README's table of settings, from the same table. `python -m legate_fuse
cache` reports the kernel cache (folder, entries, size, hit rate); `cache --clear` empties it.
"""

from __future__ import annotations

import argparse
import sys
import textwrap
from collections.abc import Sequence

from legate_fuse import settings

DESCRIPTION = textwrap.fill(
    "legate-fuse fuses the element-wise operations and reductions of an unmodified "
    "cuPyNumeric program into kernels generated at run time. Run a program with "
    "LEGATE_FUSE=1 to turn it on; the "
    f"environment variables below configure it ({settings.SETTINGS_DOC} explains each at "
    "length).", 92)


def parser() -> argparse.ArgumentParser:
    result = argparse.ArgumentParser(
        prog="python -m legate_fuse", description=DESCRIPTION,
        epilog="settings (environment variables):\n" + settings.describe(),
        formatter_class=argparse.RawDescriptionHelpFormatter)
    result.add_argument("command", nargs="?", choices=["cache"],
                        help="cache: report the kernel cache (folder, entries, size, hit rate)")
    result.add_argument("--markdown", action="store_true",
                        help="print the settings as the README's table (markdown)")
    result.add_argument("--clear", action="store_true",
                        help="with cache: empty the kernel cache")
    return result


def main(argv: Sequence[str] | None = None) -> int:
    """Reports or clears the kernel cache; otherwise prints the help (also without arguments)."""
    options = parser().parse_args(argv)
    if options.command == "cache":
        from legate_fuse.backend import cache_report

        config = settings.load()
        print(cache_report.clear(config.cache_dir) if options.clear else
              cache_report.describe(config.cache_dir, config.cache_size, config.cache_readonly))
        return 0
    if options.clear:
        parser().error("--clear goes with the command cache: python -m legate_fuse cache --clear")
    print(settings.markdown_table() if options.markdown else parser().format_help(), end="")
    return 0


if __name__ == "__main__":
    sys.exit(main())
