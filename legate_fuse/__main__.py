"""`python -m legate_fuse --help`: every setting, its default and its short help.

Reads nothing but the table of settings (settings.py): it neither starts Legate nor imports it.
`--markdown` prints the README's table of settings, from the same table.
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
    result.add_argument("--markdown", action="store_true",
                        help="print the settings as the README's table (markdown)")
    return result


def main(argv: Sequence[str] | None = None) -> int:
    """Prints the help (also without arguments: there is nothing else to do)."""
    options = parser().parse_args(argv)
    print(settings.markdown_table() if options.markdown else parser().format_help(), end="")
    return 0


if __name__ == "__main__":
    sys.exit(main())
