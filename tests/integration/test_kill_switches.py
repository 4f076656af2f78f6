"""Kill switches: each fires when it must, and leaves the program's path when it does.

Off, the plugin must cost nothing: after a kill switch, cuPyNumeric calls Legate's own runtime,
`get_legate_runtime`, constraint functions and classes, with no proxy and no wrapper of the
plugin's left (capture/patches.py). Each case runs in a fresh process. That no kill switch
fires on a healthy installation is checked by test_import_orders.py (every import order fuses,
with no warning) and test_fail_closed.py.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys

# After the case's preparation: a program that fuses when fusion is on, then what the plugin
# left in the program's path.
PROGRAM = """
{prepare}
import json
import cupynumeric as np
import legate.core
import importlib
import legate_fuse
cupynumeric_runtime = importlib.import_module("cupynumeric.runtime")
deferred = importlib.import_module("cupynumeric._thunk.deferred")
a = np.arange(1000, dtype=np.float64)
b = (a * 2.0 + 1.0) / 3.0
total = float(b.sum())
{late}
seen = legate_fuse.stats()["tasks_seen"]
c = (a * 2.0 + 1.0) / 3.0
total += float(c.sum())
print(json.dumps({{
    "total": total,
    "stats": legate_fuse.stats(),
    "seen_after": legate_fuse.stats()["tasks_seen"] - seen,
    "runtimes": sorted({{type(m.legate_runtime).__name__
                        for m in (cupynumeric_runtime, deferred)}}),
    "get_legate_runtime": legate.core.get_legate_runtime.__module__,
    "init_wrapped": hasattr(deferred.DeferredArray.__init__, "__wrapped__"),
    "align": getattr(legate.core.align, "__module__", "legate"),
}}))
"""


def run(prepare: str = "", late: str = "") -> tuple[dict[str, object], list[str]]:
    environ = {k: v for k, v in os.environ.items() if not k.startswith("LEGATE_FUSE")}
    # Each kernel compiled before its group's first launch: fused from the first window.
    environ["LEGATE_FUSE_COMPILE"] = "wait"
    environ["LEGATE_FUSE"] = "1"
    result = subprocess.run(
        [sys.executable, "-c", PROGRAM.format(prepare=prepare, late=late)],
        capture_output=True, text=True, env=environ, timeout=300)
    assert result.returncode == 0, result.stderr[-3000:]
    warnings = [ln for ln in result.stderr.splitlines() if ln.startswith("legate-fuse: WARN")]
    return json.loads(result.stdout.strip().splitlines()[-1]), warnings


def assert_out_of_the_path(report: dict[str, object]) -> None:
    assert report["runtimes"] == ["Runtime"]  # Legate's own, not a proxy
    assert not str(report["get_legate_runtime"]).startswith("legate_fuse")
    assert not report["init_wrapped"]
    assert not str(report["align"]).startswith("legate_fuse")
    assert report["seen_after"] == 0  # the plugin sees no task any more


def test_a_healthy_installation_fuses_through_the_plugin() -> None:
    report, warnings = run()
    assert warnings == []
    stats = report["stats"]
    assert isinstance(stats, dict) and stats["fused_launches"] >= 1 and stats["mode"] == "fusing"
    assert report["runtimes"] == ["RuntimeProxy"] and report["init_wrapped"]


def test_store_descriptions_it_cannot_read_turn_fusion_off_before_any_task() -> None:
    report, warnings = run(prepare="from legate_fuse import _core\n"
                                   "_core.parse_store_desc = lambda text: None\n")
    assert len(warnings) == 1 and "cannot read" in warnings[0], warnings
    stats = report["stats"]
    assert isinstance(stats, dict)
    assert stats["tasks_seen"] == 0 and stats["mode"] == "off"
    assert report["total"] == 2 * sum((x * 2.0 + 1.0) / 3.0 for x in range(1000))
    assert_out_of_the_path(report)


def test_a_kill_switch_firing_late_leaves_the_path() -> None:
    # A name missing from a module imported after tasks were fused: what is held runs, then
    # the plugin undoes every hook.
    report, warnings = run(
        prepare="from legate_fuse.capture import compat\n"
                "compat.READ_POINTS += (('colorsys', None, '__gone__', 'read'),)\n",
        late="import colorsys")
    assert len(warnings) == 1 and "colorsys.__gone__" in warnings[0], warnings
    stats = report["stats"]
    assert isinstance(stats, dict) and stats["mode"] == "off"
    assert stats["fused_launches"] >= 1  # fused before the switch fired
    assert_out_of_the_path(report)


def test_an_untested_version_warns_and_fuses() -> None:
    report, warnings = run(prepare="from legate_fuse.capture import compat\n"
                                   "compat.TESTED_VERSIONS = {'legate': '0.0.1'}\n")
    assert len(warnings) == 1 and "legate" in warnings[0] and "not tested" in warnings[0]
    stats = report["stats"]
    assert isinstance(stats, dict) and stats["mode"] == "fusing" and stats["fused_launches"] >= 1


# Counts the calls of functions of the plugin's own modules while a loop of cuPyNumeric
# operations runs: fusion off must leave none on the path of a task.
PLUGIN_CALLS = """
import os
import sys
{prepare}
import cupynumeric as np
a = np.arange(1000, dtype=np.float64)
calls = []
package = os.sep + "legate_fuse" + os.sep

def count(frame, event, arg):
    if event == "call" and package in frame.f_code.co_filename:
        calls.append(frame.f_code.co_name)

sys.setprofile(count)
for _ in range(20):
    a = np.cumsum(np.clip(a * 0.5 + 1.0, -2.0, 2.0)) / 1000.0
total = float(a.sum())
sys.setprofile(None)
print(len(calls), sorted(set(calls))[:10])
"""


def test_fusion_off_runs_no_code_of_the_plugin_per_task() -> None:
    environ = {k: v for k, v in os.environ.items() if not k.startswith("LEGATE_FUSE")}
    # Each kernel compiled before its group's first launch: fused from the first window.
    environ["LEGATE_FUSE_COMPILE"] = "wait"
    kill = ("from legate_fuse.capture import compat\n"
            "compat.OTHER_NAMES += (('legate.core', None, '__gone__'),)\n")
    for label, prepare, extra in (("unset", "", {}), ("zero", "", {"LEGATE_FUSE": "0"}),
                                  ("killed", kill, {"LEGATE_FUSE": "1"}),
                                  ("on", "", {"LEGATE_FUSE": "1"})):
        result = subprocess.run([sys.executable, "-c", PLUGIN_CALLS.format(prepare=prepare)],
                                capture_output=True, text=True, env={**environ, **extra},
                                timeout=300)
        assert result.returncode == 0, result.stderr[-3000:]
        calls = int(result.stdout.split()[0])
        if label == "on":
            assert calls > 100, result.stdout  # the count sees the plugin when it is there
        else:
            assert calls == 0, f"{label}: {result.stdout}"
