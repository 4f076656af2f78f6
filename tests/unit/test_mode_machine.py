"""The mode machine (mode/machine.py): its transitions, written out here independently of its
table, what each mode means for a task, and what it counts."""

from __future__ import annotations

import itertools

import pytest

from legate_fuse.mode.machine import TRANSITIONS, Mode, ModeMachine

S, F, U, A, R, D, X = (Mode.STARTING, Mode.FUSING, Mode.UNFUSED, Mode.ASIDE, Mode.RESUMING,
                       Mode.DISABLED, Mode.OFF)
LIVE = (S, F, U, A, R, D)  # X: off

# Every transition there must be, and no other: (event, from, to).
EXPECTED = {
    ("hooks_ready", S, F),
    ("fusion_does_not_pay", F, U), ("fusion_does_not_pay", R, U),
    ("fusion_pays", U, R),
    ("step_aside", F, A), ("step_aside", R, A), ("step_aside", U, A),
    ("come_back", A, R), ("come_back_unfused", A, U),
    ("frames_returned", R, F),
    *(("disable", m, D) for m in LIVE if m is not D),
    ("enable", D, R),
    *(("turn_off", m, X) for m in LIVE),
}


def machine_in(mode: Mode) -> ModeMachine:
    """A machine put in `mode` directly (as its transitions would have)."""
    machine = ModeMachine(clock=lambda: 0.0)
    machine.mode = mode
    machine.holds = mode is Mode.FUSING
    machine.records = mode in (Mode.FUSING, Mode.RESUMING)
    return machine


def test_the_table_has_exactly_the_expected_transitions() -> None:
    table = {(event, source, target) for event, moves in TRANSITIONS.items()
             for source, target in moves.items()}
    assert table == EXPECTED


@pytest.mark.parametrize(("event", "source"),
                         list(itertools.product(sorted(TRANSITIONS), list(Mode))),
                         ids=lambda value: getattr(value, "value", value))
def test_each_event_from_each_mode(event: str, source: Mode) -> None:
    machine = machine_in(source)
    expected = {(e, s): t for e, s, t in EXPECTED}.get((event, source))
    changed = machine.fire(event, "because")
    assert changed == (expected is not None)
    assert machine.mode is (expected or source)
    # One attribute per task tells whether to hold it; one whether to record it.
    assert machine.holds == (machine.mode is Mode.FUSING)
    assert machine.records == (machine.mode in (Mode.FUSING, Mode.RESUMING))
    if changed:
        assert machine.last_reason[machine.mode] == "because"


def test_a_program_starts_in_starting_holding_nothing() -> None:
    machine = ModeMachine()
    assert machine.mode is Mode.STARTING and not machine.holds and not machine.records


def test_off_is_for_good() -> None:
    machine = machine_in(Mode.FUSING)
    assert machine.fire("turn_off", "a name is missing")
    assert not any(machine.fire(event) for event in TRANSITIONS)
    assert machine.mode is Mode.OFF and not machine.holds


def test_seconds_by_mode_and_reasons_are_counted() -> None:
    now = [10.0]
    machine = ModeMachine(clock=lambda: now[0])
    now[0] = 10.5
    machine.fire("hooks_ready", "every hook installed")
    now[0] = 12.5
    machine.fire("step_aside", "nothing fused")
    now[0] = 13.0
    machine.fire("come_back")
    machine.fire("frames_returned")
    machine.fire("step_aside", "nothing fused")
    now[0] = 14.0
    assert machine.seconds_by_mode() == {"starting": 0.5, "fusing": 2.0, "aside": 1.5,
                                         "resuming": 0.0}
    assert machine.reasons()["aside"] == {"nothing fused": 2}
    assert machine.reasons()["resuming"] == {"come_back": 1}
