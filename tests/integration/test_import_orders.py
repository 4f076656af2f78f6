"""Fusion stays on whatever order a program imports Legate, its timing module and cuPyNumeric in.

A compatibility check that looked at a module still being imported once switched fusion off for
the whole program (`legate.timing` imported after cuPyNumeric, as cuPyNumeric's benchmark
harness does inside its timer). Each order runs in a fresh process, with fusion turned on by
LEGATE_FUSE=1 or by `legate_fuse.enable()` just before cuPyNumeric, the imports at module level
or inside a function; each must fuse, and warn of nothing.
"""

from __future__ import annotations

import itertools
import json
import os
import subprocess
import sys
import textwrap
from concurrent.futures import ThreadPoolExecutor

import pytest

IMPORTS = {
    "legate": "import legate",
    "legate.core": "import legate.core",
    "legate.timing": "from legate.timing import time",
    "cupynumeric": "import cupynumeric as np",
}
ORDERS = list(itertools.permutations(IMPORTS))

# After the imports: a chain of element-wise operations (fusible), timed with legate.timing.
BODY = """
import json
import sys
import legate_fuse
import cupynumeric as np
from legate.timing import time
start = time()
a = np.arange(10000, dtype=np.float64)
b = (a * 2.0 + 1.0) / 3.0 - a
end = time()  # runs after the held tasks: a flush
total = float(b.sum())
print(json.dumps({"total": total, "stats": legate_fuse.stats(),
                  "enabled": legate_fuse.is_enabled()}))
"""


def program(order: tuple[str, ...], enable: bool, in_function: bool) -> str:
    lines = []
    for module in order:
        if enable and module == "cupynumeric":
            lines.append("import legate_fuse; legate_fuse.enable()")
        lines.append(IMPORTS[module])
    imports = "\n".join(lines)
    if in_function:
        imports = "def load():\n" + textwrap.indent(imports, "    ") + "\nload()"
    return imports + "\n" + BODY


def run(source: str, fuse_from_environment: bool) -> subprocess.CompletedProcess[str]:
    environ = {k: v for k, v in os.environ.items() if not k.startswith("LEGATE_FUSE")}
    # Each kernel compiled before its group's first launch: fused from the first window.
    environ["LEGATE_FUSE_COMPILE"] = "wait"
    if fuse_from_environment:
        environ["LEGATE_FUSE"] = "1"
    return subprocess.run([sys.executable, "-c", source], capture_output=True, text=True,
                          env=environ, timeout=300)


CASES = [(order, enable, index % 2 == 1)
         for enable in (False, True) for index, order in enumerate(ORDERS)]


def test_every_import_order_fuses_without_warning() -> None:
    def one(case: tuple[tuple[str, ...], bool, bool]) -> str | None:
        order, enable, in_function = case
        result = run(program(order, enable, in_function), fuse_from_environment=not enable)
        label = f"{' < '.join(order)} ({'enable()' if enable else 'LEGATE_FUSE=1'}" \
                f"{', in a function' if in_function else ''})"
        if result.returncode != 0:
            return f"{label}: exit {result.returncode}\n{result.stderr[-2000:]}"
        if "legate-fuse: WARNING" in result.stderr:
            return f"{label}: {result.stderr.strip()[-500:]}"
        report = json.loads(result.stdout.strip().splitlines()[-1])
        if not report["enabled"] or report["stats"]["fused_launches"] < 1:
            return f"{label}: not fused: {report}"
        if report["stats"]["flushes"].get("timing", 0) < 1:
            return f"{label}: legate.timing.time did not flush: {report}"
        return None

    with ThreadPoolExecutor(max_workers=2) as pool:
        failures = [f for f in pool.map(one, CASES) if f is not None]
    assert not failures, "\n".join(failures)


@pytest.mark.parametrize("late", ["legate.timing", "legate.timing._lib.timing"])
def test_a_module_imported_late_is_checked_when_its_import_completes(late: str) -> None:
    """The check still fires when a name is really missing from a module imported late."""
    source = f"""
import legate_fuse
from legate_fuse.capture import compat
compat.READ_POINTS += (("{late}", None, "__gone_in_a_later_release__", "timing"),)
import cupynumeric as np
a = np.ones(1000) * 2.0 + 1.0
float(a.sum())
import legate.timing
b = np.ones(1000) * 2.0 + 1.0
print(float(b.sum()), legate_fuse.is_enabled())
"""
    result = run(source, fuse_from_environment=True)
    assert result.returncode == 0, result.stderr[-3000:]
    warnings = [ln for ln in result.stderr.splitlines() if ln.startswith("legate-fuse: WARNING")]
    assert len(warnings) == 1 and f"{late}.__gone_in_a_later_release__" in warnings[0]
    assert result.stdout.split() == ["3000.0", "False"]
