"""Arrays a window writes and lets go run in the memory of one it let go before
(src/cpp/analysis/storage_sharing.h): an in-place stencil copied back through a temporary every
iteration keeps its values, bit for bit, and what the program still holds is never reused."""

from __future__ import annotations

from typing import Any

import cupynumeric as np

from legate_fuse.session import Session

from .compare import run_both

N = 40


def stencil(iterations: int, keep_first: bool = False, named: bool = True) -> list[Any]:
    """The in-place 5-point stencil of a padded grid: each update computed into a new array,
    then written back through the interior view (which the next update reads around)."""
    grid = np.zeros((N + 2, N + 2))
    grid[0, :] = 1.0
    grid[:, 0] = 0.5
    center, north, south = grid[1:-1, 1:-1], grid[:-2, 1:-1], grid[2:, 1:-1]
    east, west = grid[1:-1, 2:], grid[1:-1, :-2]
    kept = []
    for i in range(iterations):
        if named:
            average = center + north + east + west + south
            work = 0.2 * average
            center[:] = work
        else:
            work = 0.2 * (center + north + east + west + south)
            center[:] = work
        if keep_first and i == 0:
            kept.append(work)  # held by the program: its memory is never given away
    return [grid, *kept]


def shared_by(session: Session, program: Any) -> int:
    before = session.stats.arrays_in_shared_memory
    run_both(program)
    return session.stats.arrays_in_shared_memory - before


def test_an_in_place_stencil_runs_its_updates_in_one_memory(session: Session) -> None:
    assert shared_by(session, lambda: stencil(8)) >= 6
    assert shared_by(session, lambda: stencil(8, named=False)) >= 6


def test_an_update_the_program_holds_keeps_its_values(session: Session) -> None:
    assert shared_by(session, lambda: stencil(8, keep_first=True)) >= 5
