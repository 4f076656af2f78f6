"""Random draws kept in program order across tasks.

cuPyNumeric's draws from one generator continue one stream: the numbers a draw gets depend on
the draws made before it on that processor. Its own draw tasks have no inputs: it relies on
Legate running them in the order they were submitted. A fused task that draws
(lift/random_draws.py) also reads the arrays its kernel reads, and waits for them: a draw
submitted after it could run first and take its numbers. So:

- every fused task that draws also reads and writes one token store of the plugin's, which
  orders those tasks among themselves as they were submitted;
- before a task the plugin does not build is submitted (a draw run as cuPyNumeric built it, a
  task built at once or by hand, anything once tasks go straight to Legate), `settle()` issues
  an execution fence if a fused task that draws was submitted since the last one: the later
  task then runs after it;
- before a fused task that draws is submitted, `before_fused_draw()` issues an execution fence
  if a task the plugin did not build was submitted since the last one. Legate does not keep
  the submission order of tasks without a dependency between them: a fused draw submitted
  after cuPyNumeric's own draw, both ready at once behind a fence, was seen to run first and
  take its numbers.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any


class DrawOrder:
    def __init__(self, runtime: Callable[[], Any]) -> None:
        self._runtime = runtime  # Legate's own runtime
        self._token: Any = None
        # A fused task that draws was submitted since the last fence.
        self.pending = False
        # A task the plugin did not build was submitted since the last fence (it may draw).
        self.unbuilt = False

    def token(self) -> Any:
        """The store every fused task that draws reads and writes (one element, made once)."""
        if self._token is None:
            from legate.core import Scalar, types

            runtime = self._runtime()
            self._token = runtime.create_store(types.int8, shape=(1,))
            runtime.issue_fill(self._token, Scalar(0, types.int8))
        return self._token

    def note_drawn(self) -> None:
        """A fused task that draws was submitted."""
        self.pending = True

    def settle(self) -> None:
        """Before a task the plugin did not build: every fused draw submitted so far runs
        first."""
        if self.pending:
            self.pending = False
            self._runtime().issue_execution_fence()
        self.unbuilt = True

    def before_fused_draw(self) -> None:
        """Before a fused task that draws: every task the plugin did not build submitted so far
        runs first."""
        if self.unbuilt:
            self.unbuilt = False
            self._runtime().issue_execution_fence()
