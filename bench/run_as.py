"""Runs a Python program as if legate-fuse were not installed, or with a kill switch fired.

    python -S bench/run_as.py --plugin absent program.py [args...]
    python bench/run_as.py --plugin killed program.py [args...]

`absent` (under `python -S`): the environment's site-packages are put on the path and their
.pth files processed as Python's `site` does, all but legate-fuse's own (legate_fuse.pth), so
that `legate_fuse` is never imported; the host set-up (_legate_fuse_host.pth: the libcuda
stand-in and the default LEGATE_CONFIG), which Legate needs on this host with or without the
plugin, still runs. `killed` (LEGATE_FUSE=1): a name the plugin relies on is made to look
missing from legate.core, so a kill switch fires as Legate is imported. Either way the program
then runs as `python program.py args` would run it (as `__main__`, with its own sys.argv).
"""

from __future__ import annotations

import os
import runpy
import site
import sys

PLUGIN_PTH = "legate_fuse.pth"


def add_site_packages_without_the_plugin() -> None:
    # Without `site`, sys.prefix is the base interpreter's, not the virtual environment's.
    environment = os.path.dirname(os.path.dirname(os.path.abspath(sys.executable)))
    sys.prefix = sys.exec_prefix = environment  # as site.venv() sets them
    for directory in site.getsitepackages([environment]):
        if not os.path.isdir(directory):
            continue
        sys.path.append(directory)
        for name in sorted(os.listdir(directory)):
            if not name.endswith(".pth") or name == PLUGIN_PTH:
                continue
            with open(os.path.join(directory, name)) as pth:
                for line in pth:
                    line = line.rstrip()
                    if not line or line.startswith("#"):
                        continue
                    if line.startswith(("import ", "import\t")):
                        exec(line)  # as site.addpackage does
                    else:
                        path = os.path.join(directory, line)
                        if os.path.exists(path) and path not in sys.path:
                            sys.path.append(path)


def fire_a_kill_switch() -> None:
    from legate_fuse.capture import compat

    compat.OTHER_NAMES += (("legate.core", None, "__gone_in_a_later_release__"),)


def main() -> None:
    if len(sys.argv) < 4 or sys.argv[1] != "--plugin" or sys.argv[2] not in ("absent", "killed"):
        sys.exit(__doc__)
    how, program = sys.argv[2], sys.argv[3]
    if how == "absent":
        if not sys.flags.no_site:
            sys.exit("run_as.py --plugin absent must run under `python -S`")
        add_site_packages_without_the_plugin()
    else:
        if os.environ.get("LEGATE_FUSE") != "1":
            sys.exit("run_as.py --plugin killed must run with LEGATE_FUSE=1")
        fire_a_kill_switch()
    sys.argv = sys.argv[3:]
    sys.path[0] = os.path.dirname(os.path.abspath(program))
    runpy.run_path(program, run_name="__main__")


if __name__ == "__main__":
    main()
