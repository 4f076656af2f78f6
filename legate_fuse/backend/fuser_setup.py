"""The fuser a session runs its windows with, as its settings ask: the kernel cache's folder
and bounds, the compilers (a GPU's too where Legate has GPUs), the kernel threads, and where
kernels missing from the cache compile (in the background, in one process)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from legate_fuse import _tasks
from legate_fuse.backend import finish_kernels, kernel_threads
from legate_fuse.backend.background import Job, KernelJobs
from legate_fuse.backend.cache_folders import cache_policy, kernel_folder
from legate_fuse.backend.cpu_kernels import KernelCompiler
from legate_fuse.backend.fuser import Fuser
from legate_fuse.capture.packed_futures import PackedFutures
from legate_fuse.counters import Stats
from legate_fuse.draw_order import DrawOrder
from legate_fuse.lift.base import machine_has_gpus, process_count
from legate_fuse.settings import Config
from legate_fuse.stage_clock import StageClock
from legate_fuse.task_timer import TaskTimer


def make_fuser(stats: Stats, config: Config, runtime: Callable[[], Any],
               warn: Callable[[str], None], packed_futures: PackedFutures,
               clock: StageClock | None = None, timer: TaskTimer | None = None,
               draws: DrawOrder | None = None) -> Fuser:
    kernels, kept = kernel_folder(config.cache_dir, warn)
    policy = cache_policy(config.cache_size, config.cache_readonly, warn)
    stats.kernel_threads = kernel_threads.apply(config.kernel_threads)
    cpu = KernelCompiler(kernels, config.c_compiler, warn, config.math, policy)
    gpu, gpu_arch = None, None
    if machine_has_gpus():
        from legate_fuse.backend.nvrtc import DEFAULT_ARCH, PtxCompiler

        gpu_arch = _tasks.cuda_device_arch() or DEFAULT_ARCH
        gpu = PtxCompiler(kernels, gpu_arch, warn=warn, policy=policy)
    fuser = Fuser(stats, cpu, gpu, runtime, warn, packed_futures,
                  "kernels" in config.log_topics, clock, timer, draws=draws)
    # Several processes must launch the same tasks (one rank's kernel may be ready, not another's).
    if config.compile_mode == "background" and process_count() == 1:
        settings = finish_kernels.BuildSettings(kernels, config.c_compiler, config.math, gpu_arch,
                                                policy)

        def hand_over(jobs: list[Job]) -> None:
            if not kept:
                return  # a folder of the process, deleted at its exit: nothing to build into
            stats.kernels_compiling = len(jobs)
            finish_kernels.hand_over(jobs, settings)

        def on_change(pending: int) -> None:
            stats.kernels_compiling = pending

        fuser.jobs = KernelJobs(lambda job: finish_kernels.start_builder(job, settings),
                                config.compile_jobs, hand_over, on_change)
    return fuser
