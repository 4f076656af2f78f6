"""Cost of planning a window, per task, for windows of 16 to 1024 tasks.

    python bench/analysis_cost.py [--repeats N]

Builds real windows from a cuPyNumeric program (element-wise chains, stencil reads through
shifted views, reductions: several groups per window) and times, with the plan cache off:
  - analysis: the C++ analysis alone (`_core.Analyzer.analyze` on the window's encoding);
  - planning: everything done at a flush (lifting, encoding, store descriptions, liveness,
    analysis).
Reports the median over the repeats in microseconds per task.
"""

from __future__ import annotations

import argparse
import statistics
import time
from functools import partial
from typing import Any

import legate_fuse

legate_fuse.enable()
import cupynumeric as np  # noqa: E402

from legate_fuse import session as fusion_session  # noqa: E402

SIZES = (16, 32, 64, 128, 256, 512, 1024)
TASKS_PER_BLOCK = 5


def fill_window(n_tasks: int) -> list[object]:
    a, b = np.ones(1000), np.ones(1000)
    legate_fuse.flush()
    kept = []
    for _ in range(n_tasks // TASKS_PER_BLOCK):
        c = a * 1.5 + b          # 2 tasks
        d = c[1:] - c[:-1]       # 1 task, reads c through shifted views
        kept.append(np.sum(d * d))  # 2 tasks, a reduction
    return kept


def median_seconds(action: object, repeats: int) -> float:
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        action()  # type: ignore[operator]
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def plan_afresh(planner: Any, records: list[Any]) -> None:
    """Plans as the first time: nothing lifted yet, no stream known, nothing in the plan
    cache."""
    for record in records:
        record.lifted = None
    planner.encodings.clear()
    planner.analyzer.clear()
    planner.plan(records)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--repeats", type=int, default=7)
    args = parser.parse_args()
    session = fusion_session.current()
    assert session is not None
    planner = session.planner()
    print(f"{'tasks':>6} {'groups':>7} {'analysis us/task':>17} {'planning us/task':>17}")
    for size in SIZES:
        session.window.capacity = size + 1
        kept = fill_window(size)
        records = list(session.window.records)
        planned = planner.plan(records)
        assert planned is not None
        window = planner.encode(records)
        assert window is not None
        analysis = median_seconds(
            partial(planner.analyzer.analyze, window.descriptions, window.live,
                    window.encoding.tasks, False), args.repeats)
        planning = median_seconds(partial(plan_afresh, planner, records), args.repeats)
        n = len(records)
        print(f"{n:>6} {len(planned.plan.groups):>7} {analysis / n * 1e6:>17.2f} "
              f"{planning / n * 1e6:>17.2f}")
        del records, planned
        legate_fuse.flush()
        del kept


if __name__ == "__main__":
    main()
