"""Synthetic windows for the analysis tests: Legate-format store descriptions and the task
encoding the Python side sends to `_core`, without Legate."""

from __future__ import annotations

from dataclasses import dataclass, field

from legate_fuse import _core

PRIVILEGES = {"R": 0, "W": 1, "RW": 2, "RED": 3, "R_WHOLE": 4, "W_WHOLE": 5}


def region(root: int, shape: tuple[int, ...] = (100,), *, space: int = 5,
           transform: str = "", dtype: str = "float64", store_id: int = 1) -> str:
    """A region-backed store of root `root` (tree 7, field 10000 + root)."""
    extents = ", ".join(str(e) for e in shape)
    transform_part = f"transform: {transform}, " if transform else ""
    level = 0 if space == 5 else 2
    return (f"Store({store_id}) {{shape: [{extents}], {transform_part}type: {dtype}, "
            f"storage: Storage({store_id}) {{kind: Region, level: {level}, "
            f"region: (7, ({space}, 1), 6), field: {10000 + root}}}}}")


def shifted(root: int, offset: int, shape: tuple[int, ...] = (98,)) -> str:
    """The slice [offset:offset + shape[0]] of root `root`."""
    return region(root, shape, space=20 + offset, transform=f"Shift(dim: 0, offset: -{offset})")


def value(storage: int, dtype: str = "float64") -> str:
    """A 0-d Future-backed store."""
    return (f"Store({storage}) {{shape: [], type: {dtype}, "
            f"storage: Storage({storage}) {{kind: Future, level: 0}}}}")


@dataclass
class WindowBuilder:
    descriptions: list[str] = field(default_factory=list)
    kept: list[str] = field(default_factory=list)  # descriptions of the stores kept alive
    codes: list[int] = field(default_factory=list)  # the task encoding, as the planner's
    count: int = 0
    one_point: bool = False  # the window's fused tasks run as one point task
    # Numbers the operations named by `task(op="BINARY_OP.ADD")`, as the planner's does.
    analyzer: _core.Analyzer = field(default_factory=_core.Analyzer)
    # Root keys over memory not Legate's own; None: every root's (as without a lookup).
    foreign: set[str] | None = None
    # Descriptions of spare stores (memory an earlier window let go), numbered after the rest.
    spares: list[str] = field(default_factory=list)

    def _index(self, desc: str) -> int:
        if desc not in self.descriptions:
            self.descriptions.append(desc)
        return self.descriptions.index(desc)

    def task(self, *args: tuple[str, str] | tuple[str, str, int], op: int | str = 1,
             aligned: bool = True, fused_alone: bool = False, draws: bool = False) -> int:
        """A task: its arguments (description, privilege[, redop]) in order; `op` is an
        operation name, or an id (-1: opaque); `draws`: it draws random numbers."""
        op_id = self.analyzer.op_id(op) if isinstance(op, str) else op
        self.codes += [op_id, int(aligned) | 2 * int(fused_alone) | 4 * int(draws), len(args)]
        for arg in args:
            desc, privilege = arg[0], arg[1]
            redop = arg[2] if len(arg) > 2 else -1  # type: ignore[misc]
            self.codes += [self._index(desc), PRIVILEGES[privilege], redop]
        self.count += 1
        return self.count - 1

    def keep_alive(self, *descs: str) -> None:
        self.kept.extend(descs)

    @property
    def live(self) -> list[int]:
        """The numbers of the window's stores kept alive."""
        return [self.descriptions.index(desc) for desc in self.kept if desc in self.descriptions]

    @property
    def live_roots(self) -> set[str] | None:
        """The root keys of the other stores kept alive (views of the window's roots, say), as
        the planner passes those of arrays over stores outside the window; None when none."""
        keys = set()
        for desc in self.kept:
            if desc not in self.descriptions:
                parsed = _core.parse_store_desc(desc)
                assert parsed is not None, desc
                keys.add(parsed.root_key)
        return keys or None

    @property
    def encoded(self) -> _core.TaskEncoding:
        return _core.TaskEncoding(self.codes, len(self.descriptions))

    def plan(self, analyzer: _core.Analyzer | None = None) -> _core.Plan:
        plan, _ = (analyzer or self.analyzer).analyze([*self.descriptions, *self.spares],
                                                      self.live, self.encoded,
                                                      live_roots=self.live_roots,
                                                      foreign_roots=self.foreign,
                                                      spares=len(self.spares),
                                                      one_point=self.one_point)
        return plan


def groups(plan: _core.Plan) -> list[tuple[str, list[int]]]:
    return [(g.kind, list(g.tasks)) for g in plan.groups]
