"""The plugin's mode: whether it holds tasks to fuse them, runs them unfused, stands aside or is
off, in one state machine with named states and transitions.

Every decision to hold a task or not is a state here; what decides (the import hooks, the
measurement of whether fusion pays, stepping aside, the kill switches, `disable()`) fires a
named event, and the machine moves along the transition that event has from the current state.
An event with no transition from the current state changes nothing: the decision it carries
does not apply there (e.g. "fusion pays" while the plugin stands aside, or anything once off).
The session reads one attribute per task, `holds`.

    starting  --hooks_ready-->          fusing
    fusing    --fusion_does_not_pay-->  unfused  --fusion_pays-->  resuming
    fusing, resuming, unfused  --step_aside-->  aside
    aside     --come_back-->  resuming,  --come_back_unfused-->  unfused
    resuming  --frames_returned-->  fusing   (also --fusion_does_not_pay--> unfused)
    any but off  --disable-->  disabled  --enable-->  resuming
    any  --turn_off-->  off   (for good: the plugin has left the program's path)

`TRANSITIONS` below is the whole table; tests/unit/test_mode_machine.py checks it against a
copy written out independently and fires every event from every mode.

Time spent in each state and the reason of each entry are counted for the statistics.
"""

from __future__ import annotations

import enum
import logging
import time
from collections import Counter
from collections.abc import Callable

logger = logging.getLogger("legate_fuse")


class Mode(enum.Enum):
    # cuPyNumeric is still importing: a read point is not wrapped yet, so a held task could be
    # read stale. Tasks run when submitted.
    STARTING = "starting"
    # Tasks of kinds the lifting knows are recorded and held; windows are fused.
    FUSING = "fusing"
    # Fusion was measured not to pay (payoff.py): tasks are built as cuPyNumeric builds them,
    # and handed to it without a proxy where that is safe (capture/direct_tasks.py).
    UNFUSED = "unfused"
    # cuPyNumeric's tasks go straight to Legate, unseen (step_aside.py).
    ASIDE = "aside"
    # Back from unfused or aside: tasks are recorded, but none is held while a function of
    # cuPyNumeric that may have received one of Legate's tasks still runs.
    RESUMING = "resuming"
    # `legate_fuse.disable()`: tasks run when submitted until `enable()`.
    DISABLED = "disabled"
    # A kill switch fired: the plugin has undone its hooks and is out of the program's path.
    OFF = "off"


_EVERY = tuple(Mode)
_LIVE = tuple(m for m in Mode if m is not Mode.OFF)

# event -> {from: to}
TRANSITIONS: dict[str, dict[Mode, Mode]] = {
    "hooks_ready": {Mode.STARTING: Mode.FUSING},
    "fusion_does_not_pay": {Mode.FUSING: Mode.UNFUSED, Mode.RESUMING: Mode.UNFUSED},
    "fusion_pays": {Mode.UNFUSED: Mode.RESUMING},
    "step_aside": {Mode.FUSING: Mode.ASIDE, Mode.RESUMING: Mode.ASIDE,
                   Mode.UNFUSED: Mode.ASIDE},
    "come_back": {Mode.ASIDE: Mode.RESUMING},
    "come_back_unfused": {Mode.ASIDE: Mode.UNFUSED},
    "frames_returned": {Mode.RESUMING: Mode.FUSING},
    "disable": {m: Mode.DISABLED for m in _LIVE if m is not Mode.DISABLED},
    "enable": {Mode.DISABLED: Mode.RESUMING},
    "turn_off": {m: Mode.OFF for m in _EVERY if m is not Mode.OFF},
}

# Modes in which a task of a kind the lifting knows is recorded rather than built at once.
RECORDING = frozenset({Mode.FUSING, Mode.RESUMING})


class ModeMachine:
    def __init__(self, clock: Callable[[], float] = time.perf_counter) -> None:
        self.mode = Mode.STARTING
        self.holds = False  # whether a submitted task is held: mode is FUSING
        self.records = False  # whether a liftable task is recorded: mode in RECORDING
        self._clock = clock
        self._since = clock()
        self.seconds: dict[Mode, float] = {}
        # (mode entered, reason) -> times; the reason of the last entry of each mode.
        self.entries: Counter[tuple[Mode, str]] = Counter()
        self.last_reason: dict[Mode, str] = {}
        # Called when the mode stops holding tasks (fused draws then settle: draw_order.py;
        # values of reductions are forgotten: window/repeated_reductions.py).
        self.on_stop_holding: list[Callable[[], None]] = []

    def fire(self, event: str, reason: str = "") -> bool:
        """Moves along `event`'s transition from the current mode, if it has one; returns
        whether the mode changed. `reason` says why, for the statistics and the log."""
        target = TRANSITIONS[event].get(self.mode)
        if target is None:
            return False
        now = self._clock()
        self.seconds[self.mode] = self.seconds.get(self.mode, 0.0) + now - self._since
        self._since = now
        logger.debug("mode %s -> %s (%s%s)", self.mode.value, target.value, event,
                     f": {reason}" if reason else "")
        held = self.holds
        self.mode = target
        self.holds = target is Mode.FUSING
        self.records = target in RECORDING
        why = reason or event
        self.entries[(target, why)] += 1
        self.last_reason[target] = why
        if held and not self.holds:
            for callback in self.on_stop_holding:
                callback()
        return True

    def seconds_by_mode(self) -> dict[str, float]:
        """Seconds spent in each mode so far, the current one included."""
        seconds = dict(self.seconds)
        seconds[self.mode] = seconds.get(self.mode, 0.0) + self._clock() - self._since
        return {mode.value: round(value, 6) for mode, value in seconds.items()}

    def reasons(self) -> dict[str, dict[str, int]]:
        """Per mode entered, why, and how many times."""
        found: dict[str, dict[str, int]] = {}
        for (mode, why), count in sorted(self.entries.items(), key=lambda e: e[0][0].value):
            found.setdefault(mode.value, {})[why] = count
        return found
