"""Call sites whose tasks are not lifted have their next tasks built at once, as cuPyNumeric
builds them (capture/call_sites.py); a site once lifted is always recorded."""

from __future__ import annotations

import cupynumeric as num
import numpy
import pytest

from legate_fuse.session import Session


def test_an_isclose_in_a_loop_is_built_at_once(session: Session) -> None:
    values = numpy.linspace(-1.0, 1.0, 1000)
    a, b = num.array(values), num.array(values + 1e-9)
    before = session.stats.tasks_built_at_once
    for _ in range(20):
        # Its tolerances are scalar arguments after its operation code: never lifted.
        close = num.isclose(a * 1.5, b * 1.5)
    assert bool(numpy.asarray(close).all())
    # 1, 2, 4, 8 iscloses built at once between the recorded ones.
    assert session.stats.tasks_built_at_once - before >= 10


# Every float iteration fused (counted below): past the payoff tuner's warm-up, the 40 reads
# would let it run some unfused, which is right at the default settings.
@pytest.mark.usefixtures("always_fuse")
def test_a_site_whose_tasks_lift_again_is_recorded_again(session: Session) -> None:
    real = numpy.linspace(-1.0, 1.0, 100)
    complex_values = real + 1j * real
    arrays = [num.array(complex_values), num.array(real)]
    built_at_once, fused = [], []
    for i in range(40):
        x = arrays[i % 2]
        y = num.exp(x)  # one line: not lifted on complex data, lifted on float data
        result = numpy.asarray(y * 2)
        expected = numpy.exp(complex_values if i % 2 == 0 else real) * 2
        numpy.testing.assert_allclose(result, expected, rtol=1e-15)
        built_at_once.append(session.stats.tasks_built_at_once)
        fused.append(session.stats.tasks_fused)
    # Built at once after a complex iteration (runs of 1, then 2), until a float iteration was
    # recorded and lifted: never after; from then on every float iteration fuses its two tasks.
    assert built_at_once[19] == built_at_once[-1]
    assert fused[-1] - fused[19] >= 2 * 10


# Every window fused: the tuner would rightly run some of these small windows unfused.
@pytest.mark.usefixtures("always_fuse")
def test_tasks_every_plan_runs_alone_are_built_at_once_where_nothing_is_held(
        session: Session) -> None:
    # Each copy of a concatenate writes another slice of the result: every plan runs it alone.
    # The copies are created with nothing held (the sort before them runs what was held); the
    # absolute value and the maximum after them fuse.
    values = numpy.linspace(-1.0, 1.0, 64)
    a, expected = num.array(values), values
    stats = session.stats
    built_at_once, fused = stats.tasks_built_at_once, stats.fused_launches
    for _ in range(16):
        joined = num.concatenate([num.sort(a[:8]), a[8:]])
        a = joined / num.abs(joined).max()
        joined_np = numpy.concatenate([numpy.sort(expected[:8]), expected[8:]])
        expected = joined_np / numpy.abs(joined_np).max()
    numpy.testing.assert_array_equal(numpy.asarray(a), expected)
    assert stats.fused_launches - fused >= 16  # each iteration's absolute value and maximum
    # Two copies an iteration: 1, 2, 4... of each site's built at once between recorded ones.
    assert stats.tasks_built_at_once - built_at_once >= 16
