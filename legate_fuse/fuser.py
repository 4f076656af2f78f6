"""Runs a planned window: fused groups as one generated kernel each, everything else as built.

A fused group that cannot be generated, compiled or loaded runs its original tasks, in order,
after one warning; the program's results are the same either way.
"""

from __future__ import annotations

import logging
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from legate_fuse import _core, _tasks
from legate_fuse.compiler import CompileError, KernelCompiler
from legate_fuse.kernel_spec import FusedKernel, KernelSpec, UnsupportedGroup, build_kernel
from legate_fuse.launch import launch_fused
from legate_fuse.planner import PlannedWindow, task_label
from legate_fuse.stats import Stats

logger = logging.getLogger("legate_fuse")

FUSION_ERRORS = (UnsupportedGroup, CompileError, _core.UnsupportedError, RuntimeError, OSError)


class Fuser:
    def __init__(self, stats: Stats, compiler: KernelCompiler, runtime: Callable[[], Any],
                 warn: Callable[[str], None], log_kernels: bool = False) -> None:
        self.log_kernels = log_kernels
        self.stats = stats
        self.compiler = compiler
        self.runtime = runtime
        self.warn = warn
        self._kernels: dict[KernelSpec, str] = {}  # spec -> path of a loaded kernel

    def execute(self, planned: PlannedWindow) -> None:
        for group in planned.plan.groups:
            if group.kind == "fused" and self._launch(planned, group):
                continue
            for t in group.tasks:
                planned.records[t].task.execute()

    def _launch(self, planned: PlannedWindow, group: _core.Group) -> bool:
        try:
            kernel = build_kernel(planned.lifted, planned.stores, planned.descriptions, group)
            path = self._kernel_path(kernel.spec)
        except FUSION_ERRORS as error:
            self.warn(f"could not fuse tasks {list(group.tasks)}, running them unfused: {error}")
            return False
        ops = [task_label(planned.records[t], planned.lifted[t]) for t in group.tasks]
        launch_fused(self.runtime(), path, kernel.args, b"", "legate_fuse[" + ", ".join(ops) + "]")
        self._count(group, kernel)
        return True

    def _kernel_path(self, spec: KernelSpec) -> str:
        known = self._kernels.get(spec)
        if known is not None:
            return known
        source = spec.render_c()
        if self.log_kernels:
            print(f"legate-fuse kernel:\n{source}", file=sys.stderr, flush=True)
        compiled_before = self.compiler.compiled
        path = self.compiler.build(source)
        try:
            _tasks.load_kernel(str(path), _core.KERNEL_SYMBOL)
        except RuntimeError:
            if self.compiler.compiled != compiled_before:
                raise
            # A cached entry that does not load (truncated, corrupt): rebuild it once.
            self.compiler.forget(source, path)
            path = self.compiler.build(source)
            _tasks.load_kernel(str(path), _core.KERNEL_SYMBOL)
        self._kernels[spec] = str(path)
        return str(path)

    def _count(self, group: _core.Group, kernel: FusedKernel) -> None:
        self.stats.tasks_fused += len(group.tasks) + len(group.dead_tasks)
        self.stats.fused_launches += 1
        self.stats.temporaries_eliminated += len(group.temporaries)
        self.stats.bytes_not_allocated += group.bytes_not_allocated
        self.stats.kernel_cache_hits = self.compiler.cache_hits
        self.stats.compile_seconds = self.compiler.compile_seconds


def default_compiler(cache_dir: str, compiler: str) -> KernelCompiler:
    return KernelCompiler(Path(cache_dir) / "kernels", compiler)
