"""Arrays a window writes and lets go run in the memory of one it let go before
(src/cpp/analysis/storage_sharing.h): an in-place stencil copied back through a temporary every
iteration keeps its values, bit for bit, and what the program still holds is never reused."""

from __future__ import annotations

import gc
from typing import Any

import cupynumeric as np
import numpy
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from legate.core import get_legate_runtime

import legate_fuse
from legate_fuse import _core
from legate_fuse.backend.shared_storage import view_over
from legate_fuse.session import Session

from .compare import run_both

N = 40

# Hypothesis seeds NumPy's global generator, which Legate warns about (ranks could diverge).
pytestmark = pytest.mark.filterwarnings("ignore:(?s).*Seeding the random number generator")


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


def fluxes(iterations: int) -> list[Any]:
    """Shallow-water-like steps: whole arrays computed every step and read through shifted
    slices and single rows and columns (views rebuilt over the memory they are given)."""
    q = np.sin(np.arange((N + 2) * (N + 2), dtype=np.float64)).reshape(N + 2, N + 2) + 2.0
    for _ in range(iterations):
        flux = q * q + 0.5
        side = flux * 0.25
        new = q.copy()
        new[1:-1, 1:-1] = q[1:-1, 1:-1] - 0.1 * (flux[1:-1, 2:] - flux[1:-1, :-2]) + side[2:, 1:-1]
        new[0, :] = side[1, :] + flux[-2, :]
        new[:, -1] = side[:, 1]
        q = new
    return [q]


def test_views_of_an_array_in_shared_memory_keep_their_values(session: Session) -> None:
    assert shared_by(session, lambda: fluxes(6)) >= 4


@st.composite
def basic_index(draw: st.DrawFn, shape: tuple[int, ...]) -> tuple[Any, ...]:
    """Per dimension an integer or a slice with step 1 (negative bounds included)."""
    index: list[Any] = []
    for extent in shape:
        if draw(st.booleans()):
            index.append(draw(st.integers(-extent, extent - 1)))
        else:
            start = draw(st.integers(0, extent - 1))
            stop = draw(st.integers(start + 1, extent))
            index.append(slice(start - extent if draw(st.booleans()) else start,
                               stop - extent if stop < extent and draw(st.booleans()) else stop))
    return tuple(index)


@settings(max_examples=120, deadline=None)
@given(st.data())
def test_a_view_rebuilt_over_other_memory_addresses_the_same_elements(data: st.DataObject
                                                                      ) -> None:
    """view_over gives another array of the shape the view the program took: Legion's own
    sub-region (its index space), the transform and the shape are those of the original."""
    shape = data.draw(st.sampled_from([(9,), (6, 7), (4, 5, 3)]))
    a, b = np.ones(shape), np.ones(shape)
    index = data.draw(basic_index(shape))
    view = a[index]
    if view.ndim == 0:
        return  # one element: a value, not a view
    original = str(view._thunk.base)
    rebuilt = view_over(b._thunk.base, original)
    assert rebuilt is not None, (index, original)
    want, got = _core.parse_store_desc(original), _core.parse_store_desc(str(rebuilt))
    assert want is not None and got is not None
    assert (got.shape, got.transform, got.index_space) == (want.shape, want.transform,
                                                           want.index_space), index
    assert got.field_id != want.field_id


@pytest.mark.parametrize("shape, index", [
    ((9,), (slice(2, 7),)), ((6, 7), (slice(1, 5), 3)), ((6, 7), (slice(None), slice(2, None))),
    ((4, 5, 3), (1, slice(0, 3))), ((6, 7), (slice(0, 4), slice(1, 6)))])
def test_a_view_rebuilt_again_from_its_remembered_steps(shape: tuple[int, ...], index: Any
                                                        ) -> None:
    """A loop's windows rebuild the same views over new stores: the second time, from the
    steps found the first time (unchecked), still the view the program took."""
    view = np.ones(shape)[index]
    original = str(view._thunk.base)
    want = _core.parse_store_desc(original)
    assert want is not None
    for _ in range(2):
        owner = np.ones(shape)._thunk.base
        rebuilt = view_over(owner, original)
        assert rebuilt is not None
        got = _core.parse_store_desc(str(rebuilt))
        assert got is not None
        assert (got.shape, got.transform, got.index_space) == (want.shape, want.transform,
                                                               want.index_space), index


def state_read_first(iterations: int, make: Any) -> list[Any]:
    """`fluxes` from the state `make()` returns, read back before the loop: the loop's window
    reads that state first, and lets it go after the first step."""
    q = make()
    float(q[0, 0])  # a read: the loop starts a window of its own
    for _ in range(iterations):
        flux = q * q + 0.5
        new = q.copy()
        new[1:-1, 1:-1] = q[1:-1, 1:-1] - 0.1 * (flux[1:-1, 2:] - flux[1:-1, :-2])
        new[0, :] = flux[1, :]
        q = new
    return [q]


def every_root_foreign(session: Session, monkeypatch: pytest.MonkeyPatch) -> None:
    """As if no root's memory were Legate's own: arrays read first keep theirs."""
    monkeypatch.setattr(session.runner.planner(), "foreign_roots", None)


def grid_values() -> numpy.ndarray:
    """Values of the grid, in an array that owns them (cuPyNumeric's `asarray` shares its
    memory, where it copies a view's)."""
    grid = numpy.sin(numpy.arange((N + 2) * (N + 2), dtype=numpy.float64)).reshape(N + 2, N + 2)
    return grid.copy()


def test_a_loop_state_read_first_gives_its_memory_once_let_go(
        session: Session, monkeypatch: pytest.MonkeyPatch) -> None:
    def computed() -> Any:  # Legate's own memory
        return np.array(grid_values()) * 1.0

    given = shared_by(session, lambda: state_read_first(6, computed))
    every_root_foreign(session, monkeypatch)
    kept = shared_by(session, lambda: state_read_first(6, computed))
    assert given > kept


def test_memory_a_numpy_array_shares_is_never_given_away(session: Session,
                                                          always_fuse: None) -> None:
    host = grid_values()
    values = host.copy()
    before = session.stats.fused_launches
    # The loop reads NumPy's own buffer first, in place, and lets go of the array over it.
    (result,) = state_read_first(6, lambda: np.asarray(host))
    result = numpy.asarray(result).copy()
    assert session.stats.fused_launches > before
    legate_fuse.flush()
    gc.collect()  # every store over the buffer freed, and whatever was written into it done
    get_legate_runtime().issue_execution_fence(block=True)
    assert host.tobytes() == values.tobytes()
    (want,) = state_read_first(6, lambda: values)
    assert result.tobytes() == numpy.asarray(want).tobytes()


def test_a_private_copy_of_numpy_data_is_never_given_away(session: Session) -> None:
    values = grid_values()
    (result,) = run_both(lambda: state_read_first(6, lambda: np.array(values)))
    (want,) = state_read_first(6, lambda: values)
    assert result.tobytes() == numpy.asarray(want).tobytes()


def test_a_cut_window_leaves_the_memory_it_let_go_to_the_next(
        session: Session, monkeypatch: pytest.MonkeyPatch) -> None:
    """A full window runs its first part; the tasks it keeps made their arrays while it was
    held. The arrays its first part let go are spare memory for the next window's plan."""
    planner = session.runner.planner()
    plan = planner.plan
    spare_owners: list[int] = []

    def noting_spares(records: Any, later: Any = (), spares: Any = ()) -> Any:
        planned = plan(records, later, spares)
        if planned is not None:
            first_spare = len(planned.stores) - len(spares)
            spare_owners.extend(owner for _, owner in planned.plan.shared_storage
                                if owner >= first_spare)
        return planned

    monkeypatch.setattr(planner, "plan", noting_spares)
    monkeypatch.setattr(session.window, "capacity", 24)  # cut every few steps
    run_both(lambda: state_read_first(12, lambda: np.array(grid_values()) * 1.0))
    assert session.stats.flushes["window_full"] > 0
    assert spare_owners
    assert not session.runner._spares  # a window not cut leaves none: its arrays go to Legate


def test_spares_no_window_takes_do_not_pile_up(session: Session,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    """A window's spares nothing took are let go after it: handed on from window to window,
    a loop cut every few steps kept more memory at every window, until its next read."""
    planner = session.runner.planner()
    plan = planner.plan
    given: list[int] = []

    def noting_spares(records: Any, later: Any = (), spares: Any = ()) -> Any:
        given.append(len(spares))
        return plan(records, later, spares)

    monkeypatch.setattr(planner, "plan", noting_spares)
    monkeypatch.setattr(session.window, "capacity", 24)  # cut every few steps
    run_both(lambda: state_read_first(40, lambda: np.array(grid_values()) * 1.0))
    assert session.stats.flushes["window_full"] >= 10
    half = len(given) // 2
    assert max(given) > 0
    assert max(given[half:]) <= max(given[:half])


@pytest.mark.parametrize("shape, index, dim, size", [
    ((9,), (slice(None),), 1, 4), ((9,), (slice(2, 7),), 0, 3), ((6, 7), (slice(1, 5), 3), 1, 5),
    ((6, 7), (slice(None), slice(2, None)), 2, 8), ((4, 5, 3), (1, slice(0, 3)), 0, 2)])
def test_a_promoted_view_rebuilt_over_other_memory(shape: tuple[int, ...], index: Any, dim: int,
                                                    size: int) -> None:
    """A promotion last (a product's result, as cuPyNumeric promotes it) is rebuilt too."""
    a, b = np.ones(shape), np.ones(shape)
    promoted = a[index]._thunk.base.promote(dim, size)
    rebuilt = view_over(b._thunk.base, str(promoted))
    assert rebuilt is not None
    want, got = _core.parse_store_desc(str(promoted)), _core.parse_store_desc(str(rebuilt))
    assert want is not None and got is not None
    assert (got.shape, got.transform, got.index_space) == (want.shape, want.transform,
                                                           want.index_space)
    assert got.field_id != want.field_id


def gradient_steps(iterations: int) -> list[Any]:
    """Gradient steps of a least-squares fit, a read per step: each step's gradient, a
    product's result, takes the memory of the weights the step before let go."""
    rows = numpy.random.default_rng(11).normal(size=(300, 8))
    x, y = np.array(rows), np.array(rows @ numpy.linspace(-1.0, 1.0, 8))
    w, gradient = np.zeros(8), np.zeros(8)
    seen = []
    for _ in range(iterations):
        w = w - 0.001 * gradient
        residual = x @ w - y
        gradient = (x.T @ residual) / 300.0
        seen.append(np.array(float(np.sum(residual * residual))))
    return [w, gradient, *seen]


def test_a_products_result_runs_in_the_memory_of_an_array_let_go(session: Session) -> None:
    assert shared_by(session, lambda: gradient_steps(6)) >= 3
