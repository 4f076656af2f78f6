"""Random draws (`random.rand`, `uniform`, `normal`, `integers`, a Generator's) made inside
fused tasks from cuPyNumeric's own generators (lift/random_draws.py): bit for bit against fusion
off, with the work on the numbers fused around them, draws nothing reads never dropped, and
draws of one generator kept in program order whoever runs them."""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from typing import Any

import cupynumeric as np
import numpy
import pytest

import legate_fuse
from legate_fuse import _tasks
from legate_fuse.backend import fuser
from legate_fuse.draw_order import DrawOrder
from legate_fuse.plan.summary import PlanSummary
from legate_fuse.unfused import KERNEL_FAILED

from . import compare
from .test_activation import run
from .test_multi_cpu import TWO_CPUS


@pytest.fixture(autouse=True)
def reference_draws_in_order(monkeypatch: pytest.MonkeyPatch) -> None:
    """With fusion disabled (the reference run of `run_both`), every draw waits for all that
    came before it: cuPyNumeric's own draw tasks may run out of program order otherwise (a draw
    given one of Legate's free fields that a slow task still uses waits for it, and a later draw
    from the same generator, which waits for nothing, takes its numbers)."""
    from cupynumeric._thunk.deferred import DeferredArray
    from legate.core import get_legate_runtime

    from legate_fuse import session
    from legate_fuse.mode.machine import Mode

    for name in ("bitgenerator_distribution", "bitgenerator_random_raw"):
        original = getattr(DeferredArray, name)

        def in_order(self: Any, *args: Any, _original: Any = original, **kwargs: Any) -> Any:
            current = session.current()
            if current is not None and current.mode.mode is Mode.DISABLED:
                get_legate_runtime().issue_execution_fence(block=True)
            return _original(self, *args, **kwargs)

        monkeypatch.setattr(DeferredArray, name, in_order)


def fused_draws(plans: list[PlanSummary]) -> int:
    return sum(plan.ops[t] == "BITGENERATOR" for plan in plans
               for kind, tasks, _, _ in plan.groups if kind == "fused" for t in tasks)


def run_both(program: Callable[[], list[Any]]) -> None:
    compare.run_both(program)
    reasons = legate_fuse.stats()["unfused"].get("cupynumeric.BITGENERATOR", {}).get("why", {})
    assert KERNEL_FAILED not in reasons, reasons


@pytest.mark.parametrize("dtype", ["float32", "float64"])
@pytest.mark.parametrize("shape", [(1000,), (7,), (33, 65), (4, 5, 6)])
def test_draws_fuse_with_the_work_on_them(always_fuse: Any, plans: list[PlanSummary],
                                          dtype: str, shape: tuple[int, ...]) -> None:
    def program() -> list[Any]:
        g = np.random.default_rng(11)
        u = g.random(shape, dtype=dtype)
        n = g.normal(0.5, 2.0, size=shape).astype(dtype)
        w = g.uniform(-3.0, 1.5, size=shape).astype(dtype)
        return [u, 2.0 * u - 1.0, n * n + 1.0, np.exp(w) - u, w]

    run_both(program)
    assert fused_draws(plans) >= 3


@pytest.mark.parametrize("dtype", ["int16", "int32", "int64"])
def test_integers_of_every_width(always_fuse: Any, plans: list[PlanSummary], dtype: str) -> None:
    def program() -> list[Any]:
        g = np.random.default_rng(12)
        a = g.integers(-50, 1000, size=(300, 7), dtype=dtype)
        b = g.integers(5, size=999, dtype=dtype, endpoint=True)
        return [a * 2 + 1, b - 3, a]

    run_both(program)
    assert fused_draws(plans) == 2


def test_lognormal_and_raw_bits(always_fuse: Any, plans: list[PlanSummary]) -> None:
    def program() -> list[Any]:
        bits = np.random.XORWOW(seed=13)
        raw = bits.random_raw(2000)
        g = np.random.Generator(bits)
        return [raw ^ 7, g.lognormal(0.1, 0.7, size=500) * 3.0,
                bits.lognormal(0.0, 1.0, (9, 9), dtype=np.float32) + 1.0]

    run_both(program)
    assert fused_draws(plans) == 3


def test_the_global_generator_as_numpy_programs_use_it(always_fuse: Any,
                                                       plans: list[PlanSummary]) -> None:
    # (cuPyNumeric's `random.seed` does nothing where it draws with cuRAND: its global generator
    # is seeded from the clock. Each run gets one of the same seed instead.)
    from cupynumeric.random import _generator

    def program() -> list[Any]:
        _generator._static_generator = np.random.default_rng(14)
        x = np.random.rand(100, 50) * 10.0
        y = np.random.randn(5000) + np.random.random(5000)
        z = np.random.uniform(1.0, 2.0, 64) ** 2
        return [x, y, z, np.random.randint(0, 9, size=40) * 3]

    run_both(program)
    assert fused_draws(plans) >= 4


@pytest.mark.parametrize("kind", ["PHILOX4_32_10", "MRG32k3a"])
def test_other_generator_types(always_fuse: Any, plans: list[PlanSummary], kind: str) -> None:
    def program() -> list[Any]:
        g = np.random.Generator(getattr(np.random, kind)(seed=15))
        return [g.random(777) - 0.5, g.normal(size=(20, 20)) * 4.0]

    run_both(program)
    assert fused_draws(plans) == 2


def test_a_draw_nothing_reads_still_moves_its_generator_on(always_fuse: Any,
                                                          plans: list[PlanSummary]) -> None:
    """A draw whose result is never read is not dead: the draws after it get the numbers
    after its own."""
    def program() -> list[Any]:
        g = np.random.default_rng(16)
        g.random(1000)  # dropped at once
        unused = g.normal(size=300) * 2.0
        del unused
        return [g.random(1000) + 1.0]

    run_both(program)
    assert fused_draws(plans) == 3


def test_draws_stay_in_order_behind_a_slow_input(always_fuse: Any, plans: list[PlanSummary],
                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """The first draw joins work on an array a slow task (a sort) makes, so its fused task
    waits; the draws after it (fused with nothing to wait for, and one cuPyNumeric runs as
    built: an exponential, not lifted) must still get the numbers after its own. Which task
    Legate runs first when the sort ends varies from run to run: several rounds.

    Checked against one draw of all the numbers from a generator of the same seed, not against
    fusion off: cuPyNumeric's own draw tasks may run out of order where one of them is given a
    field a slow task still uses (Legate's free fields), and that run here after others did."""
    # What keeps the order (draw_order.py), seen deterministically: every fused task that draws
    # reads and writes the token, and a fence comes before each draw run as built.
    tokens: list[Any] = []
    fences: list[bool] = []
    fences_before_fused: list[bool] = []
    build, settle = fuser.build_fused_task, DrawOrder.settle
    before_fused_draw = DrawOrder.before_fused_draw

    def building(*args: Any, **kwargs: Any) -> Any:
        if args[6]:  # its draws
            tokens.append(args[7])
        return build(*args, **kwargs)

    def settling(self: DrawOrder) -> None:
        fences.append(self.pending)
        settle(self)

    def before_drawing(self: DrawOrder) -> None:
        fences_before_fused.append(self.unbuilt)
        before_fused_draw(self)

    monkeypatch.setattr(fuser, "build_fused_task", building)
    monkeypatch.setattr(DrawOrder, "settle", settling)
    monkeypatch.setattr(DrawOrder, "before_fused_draw", before_drawing)
    unsorted = np.random.default_rng(1).random(2_000_000)
    for _ in range(5):
        g = np.random.default_rng(17)
        slow = np.sort(unsorted)[:1000]
        first = g.random(1000) + slow
        second = g.random(500) * 2.0  # another shape: a fused task of its own, waiting for nothing
        g.exponential(2.0, size=1000)  # the same numbers of the stream as random(1000)
        fourth = g.random(1000) * 3.0
        legate_fuse.flush()
        expected = numpy.asarray(np.random.default_rng(17).random(3500))
        assert numpy.array_equal(numpy.asarray(first), expected[:1000] + numpy.asarray(slow))
        assert numpy.array_equal(numpy.asarray(second), expected[1000:1500] * 2.0)
        assert numpy.array_equal(numpy.asarray(fourth), expected[2500:] * 3.0)
    assert fused_draws(plans) == 3 * 5
    assert len(tokens) == 3 * 5 and all(token is not None for token in tokens)
    assert fences.count(True) >= 5  # before each exponential
    # and before each fourth draw, after the exponential (Legate may run it first otherwise)
    assert len(fences_before_fused) == 3 * 5 and fences_before_fused.count(True) >= 5


def test_a_loop_of_draws_with_a_plan_per_shape(always_fuse: Any,
                                               plans: list[PlanSummary]) -> None:
    """A loop drawing each step: the windows share their plan, each launch reads its draws'
    seeds and parameters from its own tasks."""
    def program() -> list[Any]:
        x, y = np.zeros(4096), np.zeros(100)
        g = np.random.default_rng(18)
        for step in range(20):
            x = 0.9 * x + g.normal(0.0, 1.0 + step, size=4096)  # parameters of its own
            y = 0.5 * y + g.random(100)  # the same draw each step: lifted once, then looked up
        return [x, y]

    run_both(program)
    assert fused_draws(plans) == 40


# A program drawing twice and fusing the work on the numbers; prints how many draws ran as
# cuPyNumeric built them, and how many fused launches there were.
_DRAWING = """
import cupynumeric as np, legate_fuse
g = np.random.default_rng(3)
x = float((g.random(100000) * 2.0 + 1.0).sum()) + float((g.normal(size=500) - 1.0).sum())
legate_fuse.flush()
stats = legate_fuse.stats()
print("unfused draws:", stats["unfused"].get("cupynumeric.BITGENERATOR", {}).get("tasks", 0))
print("fused launches:", stats["fused_launches"])
"""


@pytest.mark.parametrize("setting,unfused", [("1", 0), ("0", 2)])
def test_the_setting_at_each_value(setting: str, unfused: int) -> None:
    result = run([sys.executable, "-c", _DRAWING], LEGATE_FUSE="1", LEGATE_FUSE_RANDOM=setting)
    assert result.returncode == 0, result.stderr[-3000:]
    assert f"unfused draws: {unfused}" in result.stdout, result.stdout
    assert "fused launches: 0" not in result.stdout


# The probe of cuPyNumeric's generators: how many were submitted ahead by the first store, then
# whether the first draw, lifted at the window's flush, took that one (none left, none run).
_PROBED = """
import cupynumeric as np, legate_fuse
from legate_fuse.backend import draw_probe
ones = np.ones(10)  # the first store
print("submitted at the first store:", len(draw_probe._submitted))
draw_probe._submit = lambda runtime: print("probe submitted at the draw")
x = float((np.random.default_rng(4).random(1000) * 2.0).sum())
print("left:", len(draw_probe._submitted), "verdicts read:",
      draw_probe.generators_usable.cache_info().currsize)
print("unfused draws:", legate_fuse.stats()["unfused"].get("cupynumeric.BITGENERATOR", {})
      .get("tasks", 0))
"""


@pytest.mark.parametrize("setting,submitted", [("1", 1), ("0", 0)])
def test_the_probe_runs_ahead_of_the_first_draw(setting: str, submitted: int) -> None:
    """Submitted when the program's first store starts fusion, the probe has run by the first
    flush, whose first draw reads its verdict without waiting: submitted at that draw, it waited
    for every task before it (a tenth of a second, inside what the LSTM examples time). With
    draws left to cuPyNumeric (LEGATE_FUSE_RANDOM=0), no probe runs."""
    result = run([sys.executable, "-c", _PROBED], LEGATE_FUSE="1", LEGATE_FUSE_RANDOM=setting)
    assert result.returncode == 0, result.stderr[-3000:]
    assert f"submitted at the first store: {submitted}" in result.stdout, result.stdout
    assert "probe submitted at the draw" not in result.stdout
    assert f"left: 0 verdicts read: {submitted}" in result.stdout, result.stdout
    assert f"unfused draws: {1 - submitted}" in result.stdout, result.stdout


def test_draws_left_to_cupynumeric_on_two_cpus() -> None:
    """Each point task would draw a block cuPyNumeric's partition may not give it."""
    result = run([sys.executable, "-c", _DRAWING], LEGATE_FUSE="1", LEGATE_CONFIG=TWO_CPUS)
    assert result.returncode == 0, result.stderr[-3000:]
    assert "unfused draws: 2" in result.stdout, result.stdout


def test_a_draw_into_a_view_stays_cupynumeric_s(always_fuse: Any,
                                                plans: list[PlanSummary]) -> None:
    """`out=` a view of an array: cuPyNumeric fills it in the memory order of the instance
    Legate maps the view to; the fused task would map its own. Only new arrays are lifted.

    (The view is drawn from a generator of its own: cuPyNumeric's draw into an existing array
    waits for the array's fill, and a later draw from the same generator, which waits for
    nothing, may take its numbers, fused or not.)"""
    def program() -> list[Any]:
        a = np.zeros((20, 30))
        np.random.default_rng(19).random(out=a[2:7, 3:9])
        fresh = np.random.default_rng(20).random(100) * 2.0
        return [a * 1.0, fresh]

    run_both(program)
    assert fused_draws(plans) == 1


@pytest.fixture
def draws_in_small_parts() -> Iterator[int]:
    """Draws of a few hundred values made in parts on two threads, as a large one is (parts of
    at least 16 values rather than 65,536); yields the count of draws split before the test."""
    threads, least = _tasks.kernel_threads(), _tasks.kernel_part_elements()
    _tasks.set_kernel_threads(2)
    _tasks.set_kernel_part_elements(16)
    yield _tasks.split_draw_runs()
    _tasks.set_kernel_threads(threads)
    _tasks.set_kernel_part_elements(least)


def test_draws_in_parts_give_the_numbers_of_one_call(always_fuse: Any, plans: list[PlanSummary],
                                                     draws_in_small_parts: int) -> None:
    """Every kind of draw, split at part boundaries of the generator's stream: each part from
    the state at its first value (tasks/draw_in_parts.h). Odd counts of normal values keep the
    second of a pair in the generator's state, so the next normal draw starts with it (made by
    one call), and the one after, from the start of a pair again, in parts."""
    assert _tasks.draws_in_parts_match_one_call()

    def program() -> list[Any]:
        g = np.random.default_rng(21)
        bits = np.random.XORWOW(seed=22)
        return [g.random(1001) * 2.0,
                g.normal(0.5, 2.0, size=333) + 1.0,  # odd: the second of its last pair kept
                g.normal(size=421) - 1.0,  # the kept value, then 210 pairs: one call
                g.normal(size=(20, 25)) * 3.0,  # nothing kept: in parts
                g.random(999, dtype=np.float32) + 1.0,
                g.normal(size=777, dtype=np.float32) * 2.0,
                g.normal(size=400, dtype=np.float32) * 2.0,  # from a kept value: one call
                g.integers(-50, 1000, size=555, dtype=np.int16) * 2,
                g.integers(-50, 1000, size=(31, 17), dtype=np.int32) * 2,
                g.integers(-50, 10**12, size=401, dtype=np.int64) - 1,
                g.lognormal(0.1, 0.7, size=301) * 3.0,
                bits.lognormal(0.0, 1.0, (19, 19), dtype=np.float32) + 1.0,
                bits.random_raw(999) ^ 7,
                g.random(64) + 0.5]  # the generator goes on where one call leaves it

    run_both(program)
    assert fused_draws(plans) >= 13
    # All but the two draws that start from a kept normal value.
    assert _tasks.split_draw_runs() - draws_in_small_parts >= 12


def test_a_large_draw_alone_runs_fused_in_parts(always_fuse: Any, plans: list[PlanSummary],
                                                draws_in_small_parts: int) -> None:
    """A draw read back at once has nothing to fuse with: still, one of at least two parts
    runs as a fused task of its own, made in parts on several threads where cuPyNumeric's task
    draws in one call (lift/random_draws.py: draw_pays_alone), at every iteration of a loop (its
    program line counts as fused); a smaller one runs as built."""
    def program() -> list[Any]:
        g = np.random.default_rng(23)
        first = 0.0
        for _ in range(6):
            large = g.random(1000)
            first += float(large[0])  # the window ends with the draw alone
        small = g.random(20)  # below two parts of 16 values
        second = float(small[0])
        return [large, small, g.random(100) * first + second]

    run_both(program)
    assert fused_draws(plans) == 7
    assert _tasks.split_draw_runs() - draws_in_small_parts == 7
