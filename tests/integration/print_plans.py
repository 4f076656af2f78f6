"""Prints the plan of every window of the plan programs, one JSON line each (run with
LEGATE_FUSE=1): used to check that plans do not depend on the number of processors."""

from __future__ import annotations

import dataclasses
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

import cupynumeric as np

import legate_fuse
from legate_fuse import session as fusion_session
from tests.integration import plan_programs as programs


def main() -> None:
    session = fusion_session.current()
    assert session is not None
    session.window.capacity = 1000
    session.planner().listeners.append(
        lambda summary: print("PLAN " + json.dumps(dataclasses.asdict(summary)), flush=True)
    )
    a, b = programs.chain_inputs(np)
    programs.chain(np, a, b)
    ga, gb = programs.jacobi_grids(np)
    programs.jacobi_step(ga, gb)
    programs.jacobi_step(gb, ga)
    programs.price(np, programs.black_scholes_inputs(np, 20_000))
    state = programs.cg_state(np, m=64)
    for _ in range(3):
        programs.cg_until_test(np, state)
        programs.cg_after_test(np, state)
    legate_fuse.flush()


if __name__ == "__main__":
    main()
