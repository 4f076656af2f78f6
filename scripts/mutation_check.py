#!/usr/bin/env python3
"""Mutation check: the regression tests of the plugin's correctness rules must be able to fail.

For each rule below, one mutation removes or breaks it in a temporary copy of the package, and
the tests that guard the rule run against that copy; they must fail (the mutation is "killed").
A mutation the tests do not notice "survived": the rule is not guarded, and the check fails.
Before any mutation, every selected test runs once on the unmutated copy and must pass, or the
check means nothing (the C++ mutations' tests also with modules built from the unmodified
sources, which is what their mutations change).

    .venv/bin/python scripts/mutation_check.py               # every mutation
    .venv/bin/python scripts/mutation_check.py --list        # what they are
    .venv/bin/python scripts/mutation_check.py --only cache-digest,export-views
    .venv/bin/python scripts/mutation_check.py --after-pytest  # as scripts/test.sh runs it

With --after-pytest (scripts/test.sh passes it: its pytest run of the whole suite, on these very
sources, has just passed), the unmutated baselines run only QUICK_BASELINE, enough to show that
the package copy imports and runs with Legate, instead of every selected test again: once with
the installed modules, once with those built from the repository's C++ sources (the same
sources, built Release as the install builds them, without link-time optimisation).

Exit status: 0 when every mutation was killed, 1 when one survived, 2 when the check itself
could not run (a mutation whose original text is no longer in the source, exactly once; an
unmutated test that fails; a build that fails).

How: the installed package (site-packages/legate_fuse, with its compiled _core and _tasks) is
copied into a temporary folder, the repository's Python sources over it, and that folder goes
first on PYTHONPATH: `import legate_fuse`, and the legate_fuse.pth start-up hook of every
process the tests start, then load the copy. A Python mutation edits the copy. A C++ mutation
edits a copy of the sources in build/mutation/src, rebuilds the one module that contains the
file (incrementally, in build/mutation/build) and puts it into the package copy. Neither the
working tree nor the virtual environment is changed. Every run has a kernel cache of its own.

The virtual environment is $LEGATE_FUSE_VENV, else .venv at the repository's root.
"""

from __future__ import annotations

import argparse
import contextlib
import filecmp
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterable, Sequence
from concurrent.futures import ThreadPoolExecutor, as_completed
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
VENV = Path(os.environ.get("LEGATE_FUSE_VENV") or ROOT / ".venv")
PYTHON = VENV / "bin" / "python"
PACKAGE = "legate_fuse"
# The sparse library beside it: its Python package and its compiled module (installed in
# site-packages itself, not in the package), copied and mutated the same way.
CSR_PACKAGE = "legate_csr"
CSR_MODULE = "_legate_csr"
# The incremental C++ build of mutated sources (build/ is ignored by git).
MUTATION_BUILD = ROOT / "build" / "mutation"
# Release, as the install builds, but without the link-time optimisation pybind11 adds to its
# modules: each mutation relinks a module, and with it the link recompiled the whole module
# (12 s for _core, 39 for _tasks on a 2-core machine, against 4 and 17 without), one build at
# a time: most of the check's time. What a mutation changes does not depend on it.
NO_LTO = "CMAKE_INTERPROCEDURAL_OPTIMIZATION:BOOL=OFF"
# What CMake needs of the repository to build the two modules.
CMAKE_INPUTS = ("CMakeLists.txt", "cmake", "src")
# Sources of the _tasks module (see CMakeLists.txt); every other .cc is part of _core.
CSR_SOURCES = ("src/cpp/csr/", "src/cpp/bindings/csr_module.cc")
TASKS_SOURCES = ("src/cpp/tasks/", "src/cpp/runtime/kernel_registry.cc",
                 "src/cpp/runtime/kernel_threads.cc",
                 "src/cpp/runtime/cuda_driver.cc", "src/cpp/bindings/tasks_module.cc")
# The unmutated baseline with --after-pytest: a short test file that runs Legate and fusion.
QUICK_BASELINE = ("tests/integration/test_call_sites.py",)
DEFAULT_TIMEOUT = 3600.0  # seconds for one pytest run; a mutation that hangs counts as killed
GUARD = "_mutation_check_guard"
# Mutations tested at once: a test run spends much of its time starting Legate and waiting on
# it, so two runs on two cores take little more than one. C++ builds still run one at a time.
DEFAULT_JOBS = 2


@dataclass(frozen=True)
class Mutation:
    name: str
    path: str  # relative to the repository's root
    original: str  # must occur exactly once in the file
    replacement: str
    tests: tuple[str, ...]  # pytest node ids or files, cheapest first (pytest runs with -x)
    rule: str

    @property
    def is_cpp(self) -> bool:
        return self.path.startswith("src/")

    def targets(self) -> tuple[str, ...]:
        """The CMake targets whose build contains the file (a header: both, to be safe)."""
        if self.path.startswith(CSR_SOURCES):
            return (CSR_MODULE,)
        if not self.path.endswith(".cc"):
            return ("_core", "_tasks")
        return ("_tasks",) if self.path.startswith(TASKS_SOURCES) else ("_core",)


FAIL_CLOSED = "tests/integration/test_fail_closed.py"
EXTERNAL = "tests/integration/test_external_memory.py"
MULTI_CPU = "tests/integration/test_multi_cpu.py"
ANALYSIS = "tests/unit/test_analysis.py"
SHARING = "tests/unit/test_shared_storage.py"
SWITCHING = "tests/integration/test_payoff_switching.py"
REPLAY = "tests/integration/test_replay.py"
BACKGROUND = "tests/integration/test_background_compile.py"
BACKGROUND_JOBS = "tests/unit/test_background_jobs.py"
CUDA_ON_HOST = "tests/unit/test_cuda_on_host.py"
TASK_TIMES = "tests/integration/test_task_times.py"
COMPLEX_ARITHMETIC = "tests/integration/test_complex_arithmetic.py"
AXIS_REDUCTIONS = "tests/integration/test_axis_reductions.py"
DISJOINT_VIEWS = "tests/integration/test_disjoint_views.py"
PRODUCTS = "tests/integration/test_products.py"
DRAWS = "tests/integration/test_random_draws.py"
DRAWS_ANALYSIS = "tests/unit/test_analysis_draws.py"
RECYCLING = "tests/integration/test_store_recycling.py"
LET_GO = "tests/integration/test_let_go_stores.py"
# Legate traces after other tests' windows, in one process, in this order: the stores kept and
# handed back around a trace depend on the windows before it (Legion aborted the program).
TRACES_AFTER_OTHER_WINDOWS = ("tests/integration/test_shared_storage.py",
                              "tests/integration/test_step_aside.py",
                              "tests/integration/test_traces.py")
AXIS_REDUCTIONS = "tests/integration/test_axis_reductions.py"
LIBRARY_LIFTING = "tests/integration/test_library_lifting.py"
CSR = "tests/sparse/test_csr.py"
CSR_PROCESSES = "tests/sparse/test_csr_processes.py"
ROW_CALLS = "tests/integration/test_row_calls.py"
REPEATED = "tests/unit/test_repeated_reductions.py"
REPEATED_PROGRAMS = "tests/integration/test_repeated_reductions.py"
VALUE_OUTPUTS = "tests/integration/test_value_outputs.py"
CODEGEN_C = "tests/unit/test_codegen_c.py"

MUTATIONS: tuple[Mutation, ...] = (
    Mutation(
        "draws-never-dead", "src/cpp/analysis/temporaries.cc",
        "    bool produces_needed = task.draws;  // a draw advances its generator: never dead\n",
        "    bool produces_needed = false;\n",
        (f"{DRAWS_ANALYSIS}::test_a_draw_nothing_reads_is_not_dead",
         f"{DRAWS}::test_a_draw_nothing_reads_still_moves_its_generator_on"),
        "a random draw whose result nothing reads still moves its generator on: never dead"),
    Mutation(
        "draws-read-as-written", "src/cpp/ir/window.cc",
        "      if (task.draws && arg.privilege == Privilege::WriteWhole"
        " && store.unpromoted < 0) {\n",
        "      if (false) {\n",
        (f"{DRAWS_ANALYSIS}::test_a_draw_and_the_work_on_its_numbers_are_one_group",),
        "a draw's result is read by the kernel as it is written (no promotion)"),
    Mutation(
        "draws-listed-apart-from-products", "src/cpp/analysis/temporaries.cc",
        "        if (window.tasks[static_cast<std::size_t>(task)].draws) {\n",
        "        if (false) {\n",
        (f"{DRAWS_ANALYSIS}::test_a_draw_and_the_work_on_its_numbers_are_one_group",),
        "the fused task makes a group's draws, not products with no factors"),
    Mutation(
        "draws-ordered-by-token", "legate_fuse/backend/fuser.py",
        "                        self.draws.token() if draws else None, calls)\n",
        "                        None, calls)\n",
        (f"{DRAWS}::test_draws_stay_in_order_behind_a_slow_input",),
        "every fused task that draws reads and writes the token (draws in program order)"),
    Mutation(
        "draws-fence-before-theirs", "legate_fuse/backend/fuser.py",
        "                if is_draw(record):  # after the fused draws submitted before it\n"
        "                    self.draws.settle()\n",
        "",
        (f"{DRAWS}::test_draws_stay_in_order_behind_a_slow_input",),
        "a draw run as built follows the fused draws submitted before it (a fence)"),
    Mutation(
        "fused-draws-fence-after-theirs", "legate_fuse/backend/fuser.py",
        "                    if draws:\n                        self.draws.before_fused_draw()\n",
        "",
        (f"{DRAWS}::test_draws_stay_in_order_behind_a_slow_input",),
        "a fused draw follows the draws run as built submitted before it (a fence)"),
    Mutation(
        "reductions-recorded-writes-forget", "legate_fuse/window/repeated_reductions.py",
        "            else:\n                self.written(writes)\n",
        "            else:\n                pass\n",
        (REPEATED, f"{REPEATED_PROGRAMS}::test_a_change_between_the_two_reductions_is_seen"),
        "a task recorded after a reduction's value was remembered, writing its array, forgets it"),
    Mutation(
        "reductions-fills-forget", "legate_fuse/window/repeated_reductions.py",
        "        self.written(stores)\n        key =", "        key =",
        (f"{REPEATED_PROGRAMS}::test_a_change_between_the_two_reductions_is_seen",),
        "a runtime fill of a remembered reduction's array forgets it"),
    Mutation(
        "reductions-runtime-operations-forget", "legate_fuse/capture/proxies.py",
        "        self._session.reductions.clear()\n        return getattr",
        "        return getattr",
        (f"{REPEATED_PROGRAMS}::test_a_change_between_the_two_reductions_is_seen",),
        "a runtime copy (gather, scatter) forgets every remembered reduction"),
    Mutation(
        "reductions-exports-forget", "legate_fuse/session.py",
        "        self.external.exported = self.reductions.written\n", "",
        (f"{REPEATED_PROGRAMS}::test_a_change_between_the_two_reductions_is_seen",),
        "a NumPy view exported of a remembered reduction's array forgets it"),
    Mutation(
        "reductions-only-targets-written", "legate_fuse/window/repeated_reductions.py",
        "        if not as_built and not any(", "        if False and not any(",
        (REPEATED,
         f"{REPEATED_PROGRAMS}::test_the_value_of_a_reduction_nothing_read_is_not_reused"),
        "a fused reduction is remembered only if its launch wrote its target"),
    Mutation(
        "reductions-later-writes-in-window", "legate_fuse/window/repeated_reductions.py",
        "        if any(store.overlaps(other) for store in stores for other in later):\n"
        "            return\n", "",
        (REPEATED,
         f"{REPEATED_PROGRAMS}::test_a_write_later_in_the_reductions_own_window_is_seen"),
        "a reduction whose arrays a later task of its window writes is not remembered"),
    Mutation(
        "reductions-same-inputs", "legate_fuse/window/repeated_reductions.py",
        "remembered.inputs == tuple(str(store) for store in parts.inputs)",
        "remembered.inputs[:1] == tuple(str(store) for store in parts.inputs)[:1]",
        (REPEATED, f"{REPEATED_PROGRAMS}::test_a_reduction_over_other_arrays_is_not_reused"),
        "a remembered reduction's value goes only to the same task over the same arrays"),
    Mutation(
        "reductions-same-calls", "legate_fuse/window/repeated_reductions.py",
        "            if (remembered.kind == parts.kind and remembered.fill == fill",
        "            if (remembered.kind[:2] == parts.kind[:2] and remembered.fill == fill",
        (REPEATED,),
        "a remembered reduction's value goes only to a task built with the same calls"),
    Mutation(
        "reductions-same-fill", "legate_fuse/window/repeated_reductions.py",
        "remembered.kind == parts.kind and remembered.fill == fill",
        "remembered.kind == parts.kind",
        (REPEATED,),
        "a remembered reduction's value goes only to a target filled with the same value"),
    Mutation(
        "reductions-fail-closed", "legate_fuse/window/repeated_reductions.py",
        "            except Exception as error:  # the plugin must never break the program\n",
        "            except ZeroDivisionError as error:"
        "  # the plugin must never break the program\n",
        (f"{REPEATED}::test_a_failure_inside_forgets_every_value_and_warns",),
        "a failure while reusing a reduction's value forgets every value, with one warning"),
    Mutation(
        "reductions-keep-no-store", "legate_fuse/window/repeated_reductions.py",
        "            self._started_from[id(record)] = (weakref.ref(record), fill)\n",
        "            self._started_from[id(record)] = (weakref.ref(record), fill,"
        " [arg.store for arg in record.args])\n",
        ("tests/integration/test_plans.py::test_cg_iteration_groups",),
        "what is noted of a recorded task keeps none of its stores (they would count as the "
        "program's)"),
    Mutation(
        "reductions-one-point", "legate_fuse/window/repeated_reductions.py",
        "        if any(self._exported(store) for store in stores) or not self._one_point():",
        "        if any(self._exported(store) for store in stores):",
        (REPEATED,),
        "reductions are remembered only where a launch runs as one point (one order of sums)"),
    Mutation(
        "draws-take-memory-let-go", "src/cpp/analysis/storage_sharing.cc",
        "                   same.privilege == ir::Privilege::WriteWhole) &&\n",
        "                   false) &&\n",
        (f"{DRAWS_ANALYSIS}::test_a_draw_s_result_takes_the_memory_of_one_let_go",),
        "a draw's result, written whole before anything reads it, takes memory let go"),
    Mutation(
        "products-take-memory-let-go", "src/cpp/analysis/storage_sharing.cc",
        "  return window.stores[static_cast<std::size_t>(ref.unpromoted)].whole ? ref.unpromoted"
        " : -1;\n",
        "  return -1;\n",
        ("tests/integration/test_shared_storage.py::test_a_products_result_runs_in_the_memory_"
         "of_an_array_let_go",),
        "a product's result, written whole through its promotion, takes memory let go"),
    Mutation(
        "promoted-views-rebuilt", "legate_fuse/backend/shared_storage.py",
        "    promote = _PROMOTE.fullmatch(latest)\n",
        "    promote = None\n",
        ("tests/integration/test_shared_storage.py::test_a_promoted_view_rebuilt_over_other_"
         "memory",
         "tests/integration/test_shared_storage.py::test_a_products_result_runs_in_the_memory_"
         "of_an_array_let_go"),
        "a promotion last is rebuilt over another array's memory (a product's result)"),
    Mutation(
        "external-roots-recycled-apart", "legate_fuse/capture/external_memory.py",
        "        return any(self.holds(root) and not self._made_anew(store, root)\n",
        "        return any(self.holds(root)\n",
        ("tests/integration/test_external_memory.py::test_arrays_made_over_the_field_of_a_numpy_"
         "out_are_held",),
        "a store made anew over the field of a NumPy buffer's store is not external memory"),
    Mutation(
        "external-views-stay-external", "legate_fuse/capture/external_memory.py",
        "    if desc is None or desc.is_future or desc.level != 0:\n",
        "    if desc is None or desc.is_future:\n",
        ("tests/integration/test_external_memory.py::test_writes_through_a_slice_of_a_shared_"
         "array",
         "tests/integration/test_external_memory.py::test_a_numpy_view_of_an_array_sees_later_"
         "writes"),
        "a view of a store over a NumPy buffer stays external memory"),
    Mutation(
        "iteration-space-kept", "src/cpp/analysis/temporaries.cc",
        "    if (const auto root = root_for_iteration_space(window, group); root >= 0) {\n",
        "    if (const auto root = root_for_iteration_space(window, group); false) {\n",
        ("tests/integration/test_iteration_space.py::test_a_sum_of_a_range_never_allocated",),
        "a group whose arrays are all temporaries keeps one: the fused task's iteration space"),
    Mutation(
        "iteration-block-of-results-written-whole", "src/cpp/tasks/fused_task.cc",
        "    if (stores[i].dim() == 0) {\n",
        "    if (stores[i].dim() == 0 || i == 0) {\n",
        ("tests/integration/test_iteration_space.py::test_a_sum_of_a_product_alone",),
        "the iteration block is every partitioned store's (a product's result alone: slot 0)"),
    Mutation(
        "sums-of-narrower-integers", "legate_fuse/lift/cupynumeric.py",
        "                    or (name in (\"SUM\", \"PROD\")"
        " and ins[0] in WIDENED_INTO.get(out, ())))\n",
        "                    )\n",
        ("tests/integration/test_integer_sums.py",),
        "sums and products of narrower integers into 64 bits are fused"),
    Mutation(
        "lift-cache-keeps-draws", "legate_fuse/lift/__init__.py",
        "            lifted.fused_alone, lifted.draws)\n",
        "            lifted.fused_alone, False)\n",
        (f"{DRAWS}::test_a_loop_of_draws_with_a_plan_per_shape",),
        "a draw lifted from the lifting cache is still known to draw"),
    Mutation(
        "draws-setting", "legate_fuse/lift/random_draws.py",
        "current.config.random and draw_probe.draws_possible()",
        "draw_probe.draws_possible()",
        (f"{DRAWS}::test_the_setting_at_each_value",),
        "LEGATE_FUSE_RANDOM=0 leaves every draw to cuPyNumeric"),
    Mutation(
        "draw-parts-weyl-jump", "src/cpp/tasks/xorwow.cc",
        "  state.d += static_cast<std::uint32_t>(steps * kWeyl);\n", "",
        (f"{DRAWS}::test_draws_in_parts_give_the_numbers_of_one_call",),
        "a draw's part starts from the generator's state at its first value, Weyl sequence "
        "included"),
    Mutation(
        "draw-parts-kept-value", "src/cpp/tasks/draw_in_parts.cc",
        "  if (parts < 2 || keeps_a_value(state, one.kept)) {\n", "  if (parts < 2) {\n",
        (f"{DRAWS}::test_draws_in_parts_give_the_numbers_of_one_call",),
        "a normal draw that starts from a value kept in the generator's state is one call"),
    Mutation(
        "draw-pays-alone", "legate_fuse/plan/replay.py",
        "        return pays_alone(records[lifted.index(True)])\n", "        return False\n",
        (f"{DRAWS}::test_a_large_draw_alone_runs_fused_in_parts",),
        "a large draw alone in its window runs fused, in parts"),
    Mutation(
        "draw-only-task-counts-as-fused", "legate_fuse/plan/planner.py",
        "            if step.kind == \"fused\" and not step.kernel_error:",
        "            if step.kind == \"fused\" and step.kernel is not None:",
        (f"{DRAWS}::test_a_large_draw_alone_runs_fused_in_parts",),
        "a fused task that only draws counts as fused for its program line"),
    Mutation(
        "vector-form-slower-verdict", "legate_fuse/backend/vector_math.py",
        "            output.write_text(f\"{SLOWER}:\\n{ran.stdout}\")\n",
        "            output.write_text(PASSED)\n",
        ("tests/unit/test_vector_math.py::"
         "test_a_vector_form_slower_than_the_library_here_is_not_used",),
        "a vector form slower than the C library on this machine is not used"),
    Mutation(
        "vector-form-timed", "src/cpp/codegen/vector_checks.cc",
        "  return vector < library ? 0 : 3;", "  return 0;",
        ("tests/unit/test_vector_math.py::"
         "test_a_vector_form_slower_than_the_library_here_is_not_used",),
        "a vector form's check times it against the C library"),
    Mutation(
        "stage-clock-own-cost", "legate_fuse/stage_clock.py",
        "self._charge(self._stack.pop(), now - self._since - self._inside)",
        "self._charge(self._stack.pop(), now - self._since)",
        ("tests/unit/test_stage_clock.py::test_the_clocks_own_cost_is_not_charged",),
        "the stage clock takes its own cost off what each stage is charged"),
    Mutation(
        "vector-forms-blend", "src/cpp/codegen/c_vector_math.cc",
        "#define LF_BLEND(mask, a, b) lf_double(lf_bits(b) ^ ((lf_bits(a) ^ lf_bits(b)) &"
        " (mask)))",
        "#define LF_BLEND(mask, a, b) lf_double((lf_bits(a) & (mask)) | (lf_bits(b) &"
        " ~(mask)))",
        ("tests/unit/test_vector_loops.py::test_the_vector_forms_loops_vectorise[expm1-haswell]",),
        "the expm1 and tanh forms choose by blending bits, so that their loops vectorise on AVX2"),
    Mutation(
        "vector-forms-blend-float32", "src/cpp/codegen/c_vector_math.cc",
        "#define LF_SELECT32(mask, a, b) lf_float(lf_fbits(b) ^ ((lf_fbits(a) ^ lf_fbits(b)) &"
        " (mask)))",
        "#define LF_SELECT32(mask, a, b) lf_float((lf_fbits(a) & (mask)) | (lf_fbits(b) &"
        " ~(mask)))",
        ("tests/unit/test_vector_loops.py::test_the_vector_forms_loops_vectorise[expm1f-"
         "haswell]",),
        "float32 forms choose by blending bits, so that their loops vectorise on AVX2"),
    Mutation(
        "probe-as-fusion-starts", "legate_fuse/window/runner.py",
        "            self.submit_draw_probe()\n",
        "            pass\n",
        (f"{DRAWS}::test_the_probe_runs_ahead_of_the_first_draw",),
        "the generators' probe is submitted as fusion starts, not waited for at the first draw"),
    Mutation(
        "replay-store-numbers", "legate_fuse/plan/replay.py",
        "    key = (tuple(kinds), tuple(numbers)) if lazy else None\n",
        "    key = (tuple(kinds),) if lazy else None\n",
        (f"{REPLAY}::test_the_same_stream_on_other_stores_is_told_apart",),
        "a window's stream says which store each argument is, not only the tasks"),
    Mutation(
        "replay-last-stream-compared", "legate_fuse/plan/replay.py",
        "        if last is not None and last[0] == key:\n",
        "        if last is not None:\n",
        ("tests/unit/test_replay_streams.py",),
        "the last stream found is reused only for a window of that very stream"),
    Mutation(
        "replay-lifted-references", "legate_fuse/plan/planner.py",
        "                    held[index[id(arg.store)]] += 1\n",
        "                    held[index[id(arg.store)]] += 0\n",
        (f"{REPLAY}::test_a_loop_encodes_its_stream_once_and_replays_it",),
        "the references a record's lifted form holds are the window's own"),
    Mutation(
        "stencil-hint-passes-through", "legate_fuse/capture/compat.py",
        '"node_count", "node_id", "prefetch_bloated_instances", "realm_config",',
        '"node_count", "node_id", "realm_config",',
        ("tests/integration/test_flush_points.py::test_a_stencil_hint_does_not_cut_the_window",),
        "a stencil hint (prefetch_bloated_instances) is passed on without running what is held"),
    Mutation(
        "external-write-flush", "legate_fuse/session.py",
        '                # NumPy reads its own memory as soon as cuPyNumeric returns, calling no '
        'one.\n                self.flush("external_write")\n',
        "                pass\n",
        (EXTERNAL,),
        "a held task that writes memory NumPy owns is flushed at once (submit_auto_task)"),
    Mutation(
        "direct-tasks-resume", "legate_fuse/session.py",
        "        if mode is Mode.RESUMING and not self.direct_tasks.being_built():\n",
        "        if mode is Mode.RESUMING:\n",
        (f"{SWITCHING}::test_fusion_resumes_only_once_no_task_without_a_proxy_is_being_built",),
        "fusion resumes only when no task handed out without a proxy is being built"),
    Mutation(
        "direct-tasks-walk-cycle", "legate_fuse/capture/direct_tasks.py",
        "            while frame is not None:\n"
        "                running.add((id(frame), id(frame.f_code)))\n"
        "                frame = frame.f_back\n",
        "            current = frame\n"
        "            while current is not None:\n"
        "                running.add((id(current), id(current.f_code)))\n"
        "                current = current.f_back\n",
        ("tests/unit/test_direct_tasks.py::test_looking_for_them_leaves_no_reference_cycle",),
        "looking for the frames given a task leaves no frame referred to (no reference cycle)"),
    Mutation(
        "direct-tasks-callers", "legate_fuse/capture/direct_tasks.py",
        '    return isinstance(module, str) and module.partition(".")[0] in BUILT_IN_ONE_CALL\n',
        "    return True\n",
        (f"{SWITCHING}::test_unfused_only_cupynumeric_gets_legates_own_tasks",),
        "only modules that build each task within one call get tasks without a proxy"),
    Mutation(
        "export-views", "legate_fuse/capture/external_memory.py",
        "            self.note(getattr(thunk, compat.STORE_ATTRIBUTE),\n"
        "                      owner if isinstance(result, numpy.ndarray) else None)\n",
        "",
        (f"{EXTERNAL}::test_a_numpy_view_of_an_array_sees_later_writes",
         f"{EXTERNAL}::test_a_flat_iterator_sees_a_later_element_write",
         f"{EXTERNAL}::test_writes_to_an_array_exported_through_dlpack_run_at_once"),
        "stores exported as NumPy views or DLPack are external memory (_noting_exports)"),
    Mutation(
        "unknown-runtime-call", "legate_fuse/capture/proxies.py",
        "        def after_the_window(*args: Any, **kwargs: Any) -> Any:\n"
        '            self._session.flush("unknown_runtime_call")\n',
        "        def after_the_window(*args: Any, **kwargs: Any) -> Any:\n",
        (f"{FAIL_CLOSED}::test_an_unknown_runtime_method_runs_after_everything_held",),
        "an unknown runtime method runs after everything held (RuntimeProxy.__getattr__)"),
    Mutation(
        "scope-change-flushes", "legate_fuse/capture/scopes.py",
        "            if self._legate_fuse_flushes:\n"
        '                flush("scope")\n'
        "            super().__enter__()\n",
        "            super().__enter__()\n",
        ("tests/integration/test_lazy_tasks.py::"
         "test_entering_and_leaving_a_scope_runs_what_is_held",),
        "what is held runs before a scope that changes placement is entered (scopes.py)"),
    Mutation(
        "lazy-task-unknown-call-builds", "legate_fuse/capture/lazy_task.py",
        "        return getattr(self.build(), name)\n",
        "        return lambda *args, **kwargs: None\n",
        ("tests/integration/test_lazy_tasks.py::"
         "test_a_call_not_understood_builds_the_task_at_once",),
        "a call a lazy task does not understand builds the real task (LazyAutoTask.__getattr__)"),
    Mutation(
        "lazy-task-no-cycles", "legate_fuse/capture/lazy_task.py",
        "        build.record = weakref.ref(self._record)\n",
        "        build.record = lambda: self._record\n",
        ("tests/integration/test_lazy_tasks.py::"
         "test_a_lazy_task_is_freed_without_the_garbage_collector",),
        "a record's builder refers to it weakly: no reference cycle through a lazy task and "
        "its record keeps stores alive"),
    Mutation(
        "lazy-unbound-output-builds", "legate_fuse/capture/lazy_task.py",
        "                and not store.unbound):\n",
        "                ):\n",
        ("tests/integration/test_lazy_tasks.py::"
         "test_store_arguments_the_lifting_does_not_take_build_the_task",),
        "an unbound output store (its shape known only once the task ran) builds the task"),
    Mutation(
        "undefined-reduction-builds", "legate_fuse/capture/lazy_task.py",
        "                or (arity == 2 and not _reduction_defined(store, args[1]))):\n",
        "                ):\n",
        ("tests/integration/test_lazy_tasks.py::"
         "test_a_reduction_legate_does_not_define_raises_in_its_statement",),
        "a reduction Legate does not define on the store's type builds the task at once: it "
        "raises in its statement"),
    Mutation(
        "lift-cache-keys-on-types", "legate_fuse/capture/lazy_task.py",
        "        self._shape.append((name, redop, store.type, store.ndim))\n",
        "        self._shape.append((name, redop, store.ndim))\n",
        ("tests/integration/test_plan_cache_keys.py::"
         "test_a_task_is_lifted_from_its_cached_form_as_afresh",),
        "the lifting cache keys on the stores' types (LazyAutoTask._add_store_arg)"),
    Mutation(
        "lift-cache-keys-on-dimensions", "legate_fuse/capture/lazy_task.py",
        "        self._shape.append((name, redop, store.type, store.ndim))\n",
        "        self._shape.append((name, redop, store.type, store.ndim > 0))\n",
        ("tests/integration/test_axis_reductions.py::"
         "test_argmin_and_argmax_along_another_axis_stay_as_built",),
        "the lifting cache keys on the stores' dimensions (an argmin along axis 1 is the last "
        "axis of a matrix, not of a 3-D array)"),
    Mutation(
        "unliftable-lazy-task-built-at-once", "legate_fuse/capture/lazy_task.py",
        "                or (self._max_scalars is not None"
        " and self._scalars > self._max_scalars)):\n",
        "                or False):\n",
        ("tests/integration/test_lazy_tasks.py::"
         "test_a_task_that_cannot_be_lifted_is_built_as_soon_as_that_is_known",),
        "a lazy task given more scalars than it can be lifted with is built at once"),
    Mutation(
        "task-built-at-once-runs-after-held", "legate_fuse/capture/task_proxy.py",
        "        if self._blocks:  # the program waits here for every task so far, as at a read\n"
        '            session.flush("blocking_task")\n'
        "        elif session.window.tasks:\n"
        '            session.flush("opaque_task")\n'
        "        else:  # as at a flush",
        "        if False:\n"
        "            pass\n"
        "        else:  # as at a flush",
        ("tests/integration/test_lazy_tasks.py::"
         "test_a_task_built_at_once_runs_after_the_tasks_submitted_before_it",),
        "a task built at once runs after every task submitted before it (AutoTaskProxy.execute)"),
    Mutation(
        "window-exception-runs-rest", "legate_fuse/window/runner.py",
        "            execute_in_order(left)\n",
        "            pass\n",
        (f"{FAIL_CLOSED}::test_an_exception_half_way_through_a_window_runs_the_rest_unfused",
         f"{FAIL_CLOSED}::test_a_failing_plan_runs_the_window_unfused"),
        "when running a window fails, the tasks not run yet run unfused (execute_window)"),
    Mutation(
        "missing-hooks-turn-off", "legate_fuse/session.py",
        "            self.turn_off(f\"Legate or cuPyNumeric lacks {', '.join(missing)}"
        '{versions}")\n',
        "            pass\n",
        (f"{FAIL_CLOSED}::test_a_missing_hook_runs_everything_unfused_with_one_warning",),
        "a missing hook of Legate or cuPyNumeric turns fusion off (check_hooks)"),
    Mutation(
        "untrusted-refcounts", "legate_fuse/session.py",
        "    if not reference_counts_as_assumed():\n",
        "    if False:\n",
        (f"{FAIL_CLOSED}::test_untrusted_reference_counts_run_everything_unfused",),
        "fusion stays off where reference counts are not trusted (session._start)"),
    Mutation(
        # Fusion silently off in the fused run (as a kill switch firing by mistake): every
        # comparison of results with fusion off still passes; the tests must see no fusion.
        "fused-run-fuses-nothing", "legate_fuse/session.py",
        "        if mode.holds:\n            if self.reductions.takes_value(record):\n",
        "        if False:\n            if self.reductions.takes_value(record):\n",
        ("tests/integration/test_loop_state.py",
         "tests/fuzz/test_differential.py::test_fusion_on_equals_fusion_off_and_numpy"),
        "a comparison of fusion on against off checks that the fused run fused"),
    Mutation(
        "refcount-probe", "legate_fuse/window/liveness.py",
        "    return alone == [] and referenced == [0]\n",
        "    return True\n",
        (f"{FAIL_CLOSED}::test_the_reference_count_probe_rejects_borrowed_references",),
        "the probe reports reference counts that miss references (reference_counts_as_assumed)"),
    Mutation(
        "refcount-versions", "legate_fuse/window/liveness.py",
        '    if sys.implementation.name != "cpython" or not (3, 11) <= sys.version_info[:2] '
        "<= (3, 13):\n        return False\n",
        "",
        (f"{FAIL_CLOSED}::test_untested_interpreters_are_not_trusted",),
        "reference counts of interpreters other than CPython 3.11-3.13 are not trusted"),
    Mutation(
        "cache-digest", "legate_fuse/backend/cache_entry.py",
        "        if hashlib.sha256(contents).hexdigest() != sha256:\n",
        "        if False:\n",
        ("tests/unit/test_cache_entry.py",
         "tests/integration/test_fallback.py::test_damaged_cache_entries_are_rebuilt_with_one_"
         "warning"),
        "a cache entry whose contents differ from its record's sha256 is not loaded"),
    Mutation(
        "live-array-roots", "src/cpp/ir/window.cc",
        "      array_live[root] = is_live_root && is_live_root(key);\n",
        "      array_live[root] = false;\n",
        ("tests/unit/test_live_roots.py",
         "tests/integration/test_plans.py::test_a_view_keeps_its_root_reachable",
         "tests/integration/test_programs.py"),
        "a root of an array the program holds is live in every window (build_window)"),
    Mutation(
        "live-store-roots", "src/cpp/ir/window.cc",
        "    if (root >= 0) {  // (a store whose description could not be read has no root)\n",
        "    if (false && root >= 0) {\n",
        (ANALYSIS, "tests/integration/test_programs.py"),
        "a store of the window that the program reaches keeps its root live (build_window)"),
    Mutation(
        "cut-window-liveness", "src/cpp/analysis/cut.cc",
        "      prefix.root_live[root] = true;\n",
        "      prefix.root_live[root] = window.root_live[root];\n",
        ("tests/integration/test_window_cut.py",),
        "in a cut window, what the tasks held back touch is live (window_prefix)"),
    Mutation(
        "cut-counts-reachable-values", "src/cpp/analysis/cut.cc",
        "    const auto end   = window.root_live[root] ? n : window.root_last_task[root];",
        "    const auto end   = window.root_last_task[root];",
        ("tests/unit/test_window_cut.py",),
        "a value the program reaches must be allocated after any cut past its write"),
    Mutation(
        "packed-future-fill", "legate_fuse/capture/proxies.py",
        "self._runtime.issue_fill(lhs, session.packed_futures.fill_value(value))",
        "self._runtime.issue_fill(lhs, value)",
        ("tests/integration/test_futures.py",),
        "a fill whose value is a packed Future of a fused task fills with its value"),
    Mutation(
        "packed-bool-future-scalar", "legate_fuse/capture/packed_futures.py",
        "Scalar(contents.reshape(-1)[:1].reshape(()).copy(), value.type)",
        "Scalar(contents.reshape(-1)[0], value.type)",
        ("tests/integration/test_futures.py::test_a_fill_from_a_packed_bool_future",
         "tests/integration/test_futures.py::test_a_one_element_result_of_every_dtype_copied"),
        "the value of a packed Future is a 0-d array (Legate's Scalar refuses NumPy's bool)"),
    Mutation(
        "staged-reductions-read-old-values", "src/cpp/codegen/staged_body.cc",
        "  if (!spec.stores.empty() && reduce_stage != stages.last) {\n",
        "  if (false && !spec.stores.empty() && reduce_stage != stages.last) {\n",
        ("tests/unit/test_kernel_paths.py", "tests/unit/test_staged_loops.py",
         "tests/integration/test_reduce_then_update.py"),
        "a staged kernel's reductions read the inputs from before its stores"),
    Mutation(
        "empty-arrays-not-fused", "src/cpp/analysis/legality.cc",
        "    if (store.empty) {\n",
        "    if (false && store.empty) {\n",
        (f"{ANALYSIS}::test_rule2_a_task_over_an_empty_array_is_not_fusible",
         f"{ANALYSIS}::test_plan_cache_distinguishes_empty_arrays",
         "tests/integration/test_plan_cache_keys.py"),
        "a task over an empty partitioned store does not join a group (legality rule 2)"),
    Mutation(
        "group-moves-feeding-tasks", "src/cpp/analysis/grouping.cc",
        "      if (moved > 0) {\n",
        "      if (false && moved > 0) {\n",
        ("tests/unit/test_group_moves.py",),
        "tasks that only feed the task closing a group start the next group with it"),
    Mutation(
        "shared-memory-of-dead-arrays-only", "src/cpp/analysis/storage_sharing.cc",
        "    const bool dead_after = use.first_group >= 0 && !window.root_live[root];\n",
        "    const bool dead_after = use.first_group >= 0;\n",
        (f"{SHARING}::test_an_array_the_program_holds_keeps_its_memory",
         f"{SHARING}::test_an_array_read_first_the_program_holds_keeps_its_memory",
         "tests/integration/test_shared_storage.py::test_an_update_the_program_holds_keeps_its_"
         "values"),
        "an array the program reaches neither takes nor gives memory (share_storage)"),
    Mutation(
        "shared-memory-read-first-gives", "src/cpp/analysis/storage_sharing.cc",
        " && !use.first_access_writes && !foreign && whole;\n",
        " && false;\n",
        (f"{SHARING}::test_an_array_read_first_gives_its_memory_once_let_go",
         "tests/integration/test_shared_storage.py::test_a_loop_state_read_first_gives_its_"
         "memory_once_let_go"),
        "an array read first and let go gives its memory on after its last access "
        "(share_storage)"),
    Mutation(
        "shared-memory-read-first-free-after-last-group", "src/cpp/analysis/storage_sharing.cc",
        "      owner[static_cast<std::size_t>(root)] = use.store;\n"
        "      ending[static_cast<std::size_t>(use.last_group)].push_back(root);\n",
        "      owner[static_cast<std::size_t>(root)] = use.store;\n"
        "      ending[static_cast<std::size_t>(use.first_group)].push_back(root);\n",
        (f"{SHARING}::test_an_array_read_first_gives_its_memory_only_after_its_last_access",),
        "an array read first gives its memory only after the group of its last access "
        "(share_storage)"),
    Mutation(
        "shared-memory-foreign-kept", "src/cpp/analysis/storage_sharing.cc",
        " && !use.first_access_writes && !foreign && whole;\n",
        " && !use.first_access_writes && whole;\n",
        (f"{SHARING}::test_an_array_read_first_keeps_memory_not_legates_own",),
        "memory not Legate's own is never given to another array (share_storage)"),
    Mutation(
        "shared-memory-read-first-whole", "src/cpp/analysis/storage_sharing.cc",
        " && !use.first_access_writes && !foreign && whole;\n",
        " && !use.first_access_writes && !foreign;\n",
        (f"{SHARING}::test_an_array_read_first_only_through_a_view_keeps_its_memory",),
        "an array read first gives its memory only through a whole store of it "
        "(share_storage)"),
    Mutation(
        "foreign-private-copies", "legate_fuse/capture/external_memory.py",
        "            self._foreign.setdefault(root, []).append(_reference(buffer) or _forever)\n",
        "            pass\n",
        ("tests/unit/test_foreign_memory.py::test_a_private_copy_is_foreign_while_it_lives",),
        "the private copy cupynumeric.array attaches is not Legate's own memory "
        "(ExternalMemory.foreign_roots)"),
    Mutation(
        "foreign-program-buffers", "legate_fuse/capture/external_memory.py",
        "        self._foreign.setdefault(root, []).append(reference or _forever)\n",
        "",
        ("tests/integration/test_shared_storage.py::test_memory_a_numpy_array_shares_is_never_"
         "given_away",
         "tests/integration/test_background_compile.py::test_a_group_run_unfused_never_writes_"
         "into_memory_numpy_shares"),
        "a NumPy buffer attached in place is never given to another array "
        "(ExternalMemory.foreign_roots)"),
    Mutation(
        "foreign-roots-to-the-analysis", "legate_fuse/plan/planner.py",
        "        foreign = self.foreign_roots() if self.foreign_roots is not None else None\n",
        "        foreign = None\n",
        ("tests/integration/test_shared_storage.py::test_a_loop_state_read_first_gives_its_"
         "memory_once_let_go",),
        "the planner tells the analysis which roots' memory is Legate's own (planner)"),
    Mutation(
        "spares-taken", "src/cpp/analysis/storage_sharing.cc",
        "    free_memory[kind_of(ref.root)].push_back(spare);\n",
        "",
        (f"{SHARING}::test_an_array_takes_the_memory_of_a_spare_store",),
        "an array takes the memory of a spare store an earlier window let go (share_storage)"),
    Mutation(
        "spares-legates-own", "src/cpp/analysis/storage_sharing.cc",
        "    if (!ref.known || !ref.whole || ref.future || ref.empty || foreign(ref.root) ||\n",
        "    if (!ref.known || !ref.whole || ref.future || ref.empty ||\n",
        (f"{SHARING}::test_a_spare_store_of_another_shape_or_not_legates_own_is_not_taken",),
        "a spare store over memory not Legate's own is never taken (share_storage)"),
    Mutation(
        "free-at-end-legates-own", "src/cpp/analysis/storage_sharing.cc",
        "      if (!foreign(window.stores[static_cast<std::size_t>(store)].root) &&\n",
        "      if (true &&\n",
        (f"{SHARING}::test_the_memory_free_at_the_end_is_of_arrays_let_go_and_legates_own",),
        "only Legate's own memory is left to the next window (share_storage)"),
    Mutation(
        "untaken-spares-let-go", "src/cpp/analysis/storage_sharing.cc",
        "          untaken_spares.count(store) == 0) {\n",
        "          true) {\n",
        (f"{SHARING}::test_a_spare_store_no_array_takes_is_let_go_not_handed_on",
         "tests/integration/test_shared_storage.py::test_spares_no_window_takes_do_not_pile_up"),
        "spares no array of a window took are let go after it, not handed on (share_storage)"),
    Mutation(
        "spares-carried", "legate_fuse/window/runner.py",
        "                    self._spares = [planned.stores[n] for n in planned.plan."
        "free_at_end]\n",
        "                    self._spares = []\n",
        ("tests/integration/test_shared_storage.py::test_a_cut_window_leaves_the_memory_it_let_"
         "go_to_the_next",),
        "a cut window leaves the memory it let go to the next window's plan (runner)"),
    Mutation(
        "spares-after-a-cut-only", "legate_fuse/window/runner.py",
        "                if self.window.held_back:\n",
        "                if True:\n",
        ("tests/integration/test_shared_storage.py::test_a_cut_window_leaves_the_memory_it_let_"
         "go_to_the_next",),
        "only a cut window keeps the memory it let go; any other gives it to Legate (runner)"),
    Mutation(
        "shared-memory-first-access-writes", "src/cpp/analysis/storage_sharing.cc",
        "          use.first_access_writes = writes && !other;\n",
        "          use.first_access_writes = true;\n",
        (f"{SHARING}::test_an_array_whose_first_access_reads_it_keeps_its_memory",),
        "an array whose first access in the window reads it keeps its memory (share_storage)"),
    Mutation(
        "shared-memory-opaque-tasks-pin", "src/cpp/analysis/storage_sharing.cc",
        "      pin_roots(window, group.tasks, uses);\n",
        "",
        (f"{SHARING}::test_an_array_an_opaque_task_touches_keeps_its_memory",),
        "an array a task built at once touches keeps its memory (share_storage)"),
    Mutation(
        "shared-memory-free-after-last-group", "src/cpp/analysis/storage_sharing.cc",
        "      starting[static_cast<std::size_t>(use.first_group)].push_back(root);\n"
        "      ending[static_cast<std::size_t>(use.last_group)].push_back(root);\n",
        "      starting[static_cast<std::size_t>(use.first_group)].push_back(root);\n"
        "      ending[static_cast<std::size_t>(std::max(use.first_group, use.last_group - 1))]"
        ".push_back(root);\n",
        (f"{SHARING}::test_memory_is_free_only_after_the_group_of_its_last_access",),
        "memory is handed on only after the group of its last access (share_storage)"),
    Mutation(
        "shared-memory-whole-arrays", "src/cpp/analysis/storage_sharing.cc",
        "        if (!(ref.whole || ref.sliced || promoted >= 0) || ref.future || ref.empty) {\n",
        "        if (ref.future || ref.empty) {\n",
        (f"{SHARING}::test_an_array_seen_through_another_view_keeps_its_memory",),
        "only arrays seen whole or through slices share memory (share_storage)"),
    Mutation(
        "shared-memory-first-write-whole", "src/cpp/analysis/storage_sharing.cc",
        "                  (same_ref.whole || whole_under_promotion(window, same) >= 0);\n",
        "                  true;\n",
        (f"{SHARING}::test_an_array_seen_through_another_view_keeps_its_memory",),
        "an array shares memory only when its first access writes all of it (share_storage)"),
    Mutation(
        "shared-memory-same-shape", "src/cpp/analysis/storage_sharing.cc",
        "    return std::make_pair(ref.shape_class, ref.dtype_class);\n",
        "    return std::make_pair(0, ref.dtype_class);\n",
        (f"{SHARING}::test_only_memory_of_the_same_shape_and_type_is_shared",),
        "memory is shared only between arrays of one shape and type (share_storage)"),
    Mutation(
        "shared-memory-rebuilt-tasks", "legate_fuse/capture/build_task.py",
        " | (record.storage or {})\n",
        "\n",
        ("tests/integration/test_shared_storage.py::test_an_in_place_stencil_runs_its_updates_"
         "in_one_memory",),
        "a task run as built takes the stores the plan gave the window (replay)"),
    Mutation(
        "shared-memory-lazy-tasks-only", "legate_fuse/backend/shared_storage.py",
        "    if any(not record.lazy or type(record.task) is not BuildAndExecute for record in "
        "touching):\n",
        "    if False:\n",
        (f"{SHARING}::test_a_task_built_with_its_stores_keeps_every_store_as_given",),
        "a window whose task cannot be rebuilt keeps every store as given (launch_stores)"),
    Mutation(
        "shared-memory-views-sliced-from-zero", "legate_fuse/backend/shared_storage.py",
        "            recipe.append((\"slice\", dim, 0, extents[dim]))\n",
        "            pass\n",
        ("tests/integration/test_shared_storage.py::test_a_view_rebuilt_over_other_memory_"
         "addresses_the_same_elements",),
        "a view rebuilt over an owner's memory keeps the slices that start at 0 (view_over)"),
    Mutation(
        "shared-memory-remembered-steps", "legate_fuse/backend/shared_storage.py",
        "        return None if recipe is None else _applied(owner, recipe)\n",
        "        return None if recipe is None else _applied(owner, recipe[1:])\n",
        ("tests/integration/test_shared_storage.py::test_a_view_rebuilt_again_from_its_"
         "remembered_steps",),
        "a view rebuilt again over new memory takes every step found the first time (view_over)"),
    Mutation(
        "cut-whole-iterations", "src/cpp/analysis/cut.cc",
        "  if (const auto period = loop_period(window); period > 0 && least >= 0) {",
        "  if (const auto period = loop_period(window); period < 0 && least >= 0) {",
        ("tests/unit/test_window_cut.py::test_a_loop_is_cut_a_whole_number_of_iterations_in",
         "tests/integration/test_replay.py::test_a_loop_without_reads_is_cut_whole_iterations_"
         "apart"),
        "a full window of a loop is cut a whole number of iterations in (choose_cut)"),
    Mutation(
        "cut-whole-iterations-cost", "src/cpp/analysis/cut.cc",
        "    if (aligned >= 0 && cost[static_cast<std::size_t>(aligned)] <= least + least / 16) {",
        "    if (aligned >= 0) {",
        ("tests/unit/test_window_cut.py::test_a_loop_is_not_cut_inside_an_iteration_where_"
         "more_crosses",),
        "a loop's window is cut a whole number of iterations in only if that costs little more"
        " (choose_cut)"),
    Mutation(
        "loop-period-same-step", "src/cpp/analysis/cut.cc",
        "  if (a.op != b.op || a.aligned != b.aligned",
        "  if (a.aligned != b.aligned",
        ("tests/unit/test_window_cut.py::test_a_window_that_is_no_loop_is_cut_at_its_latest_"
         "cheapest_task",),
        "a window is a loop's only if its tasks repeat their operations (loop_period)"),
    Mutation(
        "plan-cache-keys-emptiness", "src/cpp/analysis/analyzer.cc",
        "    key.push_back(store.empty ? 1 : 0);\n",
        "",
        (f"{ANALYSIS}::test_plan_cache_distinguishes_empty_arrays",
         "tests/integration/test_plan_cache_keys.py"),
        "the plan cache keys on whether each store is empty (signature)"),
    Mutation(
        "product-inputs-not-computed-in-group", "src/cpp/analysis/legality.cc",
        "  if (arg.privilege == ir::Privilege::ReadWhole) {\n    if (accessed) {\n",
        "  if (arg.privilege == ir::Privilege::ReadWhole) {\n    if (false) {\n",
        (f"{PRODUCTS}::test_a_matrix_written_in_the_group_is_not_read_whole",),
        "a product's matrix and vector are not computed in its group: it runs before the kernel"),
    Mutation(
        "product-result-unpromoted", "src/cpp/ir/window.cc",
        'std::string{transform.substr(next + 4)};', 'std::string{transform};',
        ("tests/unit/test_analysis_products.py::test_the_result_is_the_store_without_its_last_"
         "promotion",),
        "a product's result is read as the store without its last transform, the promotion"),
    Mutation(
        "product-transposed-matrix", "src/cpp/tasks/products.cc",
        "transpose ? kTrans : kNoTrans", "kNoTrans",
        (f"{PRODUCTS}::test_a_transposed_matrix_and_a_vector_computed_before",),
        "a matrix stored column by column is given to BLAS transposed, as cuPyNumeric gives it"),
    Mutation(
        "fill-asks-tasks-held-since-creation", "legate_fuse/window/holding.py",
        "            return created[1]\n", "            return len(self.tasks)\n",
        ("tests/integration/test_flush_points.py::test_fill_of_a_held_store_flushes_first",),
        "a fill of a new store asks the tasks held since the store was created"),
    Mutation(
        "product-transposed-right-factor", "src/cpp/tasks/products.cc",
        "transpose_b ? kTrans : kNoTrans", "kNoTrans",
        (f"{PRODUCTS}::test_transposed_factors_as_cupynumeric_passes_them",),
        "a right factor stored column by column is given to BLAS transposed, as cuPyNumeric "
        "gives it"),
    Mutation(
        "product-result-argument-unpromoted", "src/cpp/analysis/temporaries.cc",
        "        result.store   = store.unpromoted;\n", "",
        (f"{PRODUCTS}::test_a_matrix_product_fuses_with_the_work_on_its_result",),
        "the kernel's argument for a product's result is the result without the promotion"),
    Mutation(
        "product-one-point", "legate_fuse/backend/launch.py",
        "machine.count(TaskTarget.CPU) == 1", "machine.count(TaskTarget.CPU) >= 1",
        (f"{PRODUCTS}::test_products_stay_cupynumeric_s_on_two_cpus",),
        "products are fused only where a fused task runs as one point"),
    Mutation(
        "coalesce-only-uniform-steps", "src/cpp/tasks/fused_task.cc",
        "          return array.strides[kept] == array.strides[d] * block.extents[d];\n",
        "          return true;\n",
        ("tests/integration/test_kernel_layouts.py",),
        "a fused task merges two dimensions only where every store steps through them as one"),
    Mutation(
        "row-start-rewinds", "src/cpp/codegen/c_renderer.cc",
        '      out << "      row" << a << " -= (extents[d] - 1) * arrays["'
        ' << a << "].strides[d];\\n";\n',
        "",
        ("tests/integration/test_kernel_layouts.py",),
        "a kernel's next row starts where the odometer says, after a dimension wraps around"),
    Mutation(
        "plan-cache-keys-dtypes", "src/cpp/analysis/analyzer.cc",
        "    key.push_back(dtype.first->second);\n",
        "",
        ("tests/unit/test_kernel_builder.py::"
         "test_a_cached_plan_carries_kernels_of_the_windows_own_dtypes",),
        "a plan is cached with its kernels under each store's dtype (Analyzer::analyze)"),
    Mutation(
        "kernel-number-per-text", "src/cpp/analysis/kernel_builder.cc",
        "  numbers.emplace(text, next);\n  return next++;\n",
        "  return 0;\n",
        ("tests/integration/test_kernel_layouts.py",),
        "a kernel's number stands for its text alone (kernel_number): a launch runs its own"),
    Mutation(
        "cut-encoding-reused-blindly", "legate_fuse/plan/planner.py",
        "            if len(encoded_records) == len(records) and all(\n",
        "            if True or all(\n",
        ("tests/integration/test_window_cut.py::"
         "test_an_encoding_made_for_other_records_is_not_reused",),
        "the plan reuses the cut's encoding only for the very records it encoded"),
    Mutation(
        "broadcast-domain-intersection", "src/cpp/tasks/fused_task.cc",
        "    for (std::int32_t d = 0; d < block.ndim; ++d) {\n"
        "      const std::int64_t lo = std::max<std::int64_t>(block.lo[d], domain.lo()[d]);\n",
        "    for (std::int32_t d = 0; false && d < block.ndim; ++d) {\n"
        "      const std::int64_t lo = std::max<std::int64_t>(block.lo[d], domain.lo()[d]);\n",
        (f"{MULTI_CPU}::test_broadcast_operands_split_across_two_cpus",),
        "a point task iterates over the intersection of its stores' domains"),
    Mutation(
        "zero-d-escaping-value", "src/cpp/analysis/grouping.cc",
        "  if (!iterates) {\n",
        "  if (!iterates || true) {\n",
        (f"{ANALYSIS}::test_a_value_read_after_the_group_is_written_by_it_only_from_one_point",
         "tests/integration/test_plans.py::test_cg_iteration_groups",
         f"{MULTI_CPU}::test_a_0d_value_written_by_a_group_and_read_later_on_two_cpus"),
        "a 0-d value written in a group over an array and read after it: its task runs alone"),
    Mutation(
        "views-apart-only-when-boxes-are", "src/cpp/ir/view_box.cc",
        "    if (a.hi[dim] < b.lo[dim] || b.hi[dim] < a.lo[dim]) {\n",
        "    if (true) {\n",
        (f"{ANALYSIS}::test_rule3_stencil_reading_a_written_root_through_a_shift_splits",
         DISJOINT_VIEWS),
        "two views of one root are apart only when their boxes of the root are disjoint"),
    Mutation(
        "views-apart-within-a-class", "src/cpp/analysis/legality.cc",
        "    return other != view && !window_.views_apart(other, view);\n",
        "    return other != view;\n",
        (f"{ANALYSIS}::test_rule3_views_apart_within_a_class_of_overlapping_views_join",
         DISJOINT_VIEWS),
        "a group may access views of one memory class that are apart (legality rules 3, 4)"),
    Mutation(
        "views-apart-within-a-class-overlap", "src/cpp/analysis/legality.cc",
        "    return other != view && !window_.views_apart(other, view);\n",
        "    return false;\n",
        (f"{ANALYSIS}::test_rule3_views_apart_within_a_class_of_overlapping_views_join",
         f"{ANALYSIS}::test_rule3_stencil_reading_a_written_root_through_a_shift_splits"),
        "views of one class that may overlap never meet in a group (legality rules 3, 4)"),
    Mutation(
        "plan-cache-keys-apart-views", "src/cpp/analysis/analyzer.cc",
        "    key.push_back(a);\n    key.push_back(b);\n",
        "",
        (f"{ANALYSIS}::test_plan_cache_distinguishes_views_apart_from_views_that_overlap",),
        "a plan is cached under which views of a memory class are apart"),
    Mutation(
        "apart-view-read-from-memory", "src/cpp/analysis/temporaries.cc",
        "written_views.count(store.view) == 0) {\n",
        "written_live.count(root) == 0) {\n",
        (DISJOINT_VIEWS,),
        "a view apart from those the group wrote is read from memory (resolve_group)"),
    Mutation(
        "views-apart-of-one-type", "src/cpp/ir/view_box.cc",
        "same_root(a, b) && a.dtype == b.dtype && a_box",
        "same_root(a, b) && a_box",
        (f"{ANALYSIS}::test_views_not_known_to_be_apart_still_split",),
        "views of another element type over the same field are never apart"),
    Mutation(
        "view-box-shift-direction", "src/cpp/ir/view_box.cc",
        "    box.lo[static_cast<std::size_t>(dim)] -= amount;\n"
        "    box.hi[static_cast<std::size_t>(dim)] -= amount;\n",
        "    box.lo[static_cast<std::size_t>(dim)] += amount;\n"
        "    box.hi[static_cast<std::size_t>(dim)] += amount;\n",
        (DISJOINT_VIEWS,),
        "a view's box undoes its Shift transforms (Legate's Shift::invert_point)"),
    Mutation(
        "axis-reduction-kernels-not-staged", "src/cpp/codegen/staged_body.cc",
        "      return false;  // folds each element into memory: nothing to gain from stages\n",
        "      break;\n",
        (f"{AXIS_REDUCTIONS}::test_axes_of_a_3d_array_and_keepdims",),
        "a kernel reducing into an array is not staged (stages fold into accumulators)"),
    Mutation(
        "axis-reduction-mask", "src/cpp/codegen/element_body.cc",
        '(masked ? "if (" + operand_name(red.mask) + ") " : "")',
        'std::string{}',
        (f"{AXIS_REDUCTIONS}::test_masked_axis_reductions_fuse_with_their_mask",),
        "a masked axis reduction folds only the elements its mask selects"),
    Mutation(
        "integer-floor-division-floors", "src/cpp/codegen/element_body.cc",
        '")(q - (((a < 0) != (b < 0)) && q * b != a));\\n}\\n";',
        '")(q);\\n}\\n";',
        ("tests/integration/test_fused_ops.py::test_integer_division_in_a_chain",),
        "signed integers divide with floor, as cuPyNumeric's floor_divide_signed"),
    Mutation(
        "run-time-scalar-slots-by-task", "src/cpp/analysis/kernel_builder.cc",
        "scalar_sources_.emplace_back(number, k);",
        "scalar_sources_.emplace_back(number, 0);",
        ("tests/integration/test_fused_ops.py::test_clip_reads_its_bounds_at_each_launch",),
        "each scalar slot of a kernel is filled with its own task's own value"),
    Mutation(
        "run-time-scalars-of-the-result-type", "legate_fuse/lift/cupynumeric.py",
        "if len(scalars) != first + extra or any(",
        "if len(scalars) != first + extra or False and any(",
        ("tests/integration/test_fused_ops.py::test_clip_lifts_only_with_two_bounds_of_its_type",),
        "a task whose run-time values are not of its result type is not lifted"),
    Mutation(
        "integer-power-rounds-half-away", "src/cpp/codegen/c_ops.cc",
        '"round(pow((double)" + a + ", (double)" + b + "))"',
        '"(pow((double)" + a + ", (double)" + b + "))"',
        ("tests/unit/test_codegen_c.py::test_integer_power_goes_through_double",),
        "integers are raised to a power as cuPyNumeric does: pow in double, rounded"),
    Mutation(
        "narrow-unsigned-through-int32", "src/cpp/codegen/c_ops.cc",
        'const bool narrow = out == "uint8" || out == "uint16";',
        "const bool narrow = false;",
        ("tests/unit/test_codegen_c.py::test_integer_power_goes_through_double",),
        "a double becomes uint8/uint16 through a 32-bit conversion, as compiled code does it"),
    Mutation(
        "half-computed-nan-is-one-nan", "src/cpp/codegen/half_float.cc",
        "  if (f != f) return lf_half_to_float(0x7fffu);\n",
        "  if (f != f) return f;\n",
        ("tests/unit/test_codegen_half.py::test_each_operation_rounds_its_single_precision_result",),
        "a float16 result that is NaN is the one NaN 0x7FFF, as __half rounds it"),
    Mutation(
        "half-nan-widens-to-one-positive-nan", "src/cpp/codegen/half_float.cc",
        "  if (f == f) return f;\n",
        "  return f;\n",
        ("tests/unit/test_codegen_half.py::test_every_half_widens_exactly_and_every_nan_to_one",),
        "every float16 NaN widens to the positive NaN 0x7FFFFFFF, as __half widens it"),
    Mutation(
        "half-from-double-rounds-once", "src/cpp/codegen/c_ops.cc",
        "std::optional<std::string>{half_rounded_from_double(*wide)}",
        'std::optional<std::string>{half_rounded("(float)" + *wide)}',
        ("tests/unit/test_codegen_half.py::"
         "test_conversion_into_float16_rounds_once_to_the_nearest_even",),
        "a conversion into float16 rounds once, from double, as cuPyNumeric's ConvertOp"),
    Mutation(
        "half-selections-keep-their-bits", "src/cpp/codegen/c_ops.cc",
        "  if (is_selection(op)) {\n",
        "  if (false && is_selection(op)) {\n",
        ("tests/unit/test_codegen_half.py::test_selections_keep_the_bits_they_select",),
        "float16 selections (where, maximum, copies) keep the bits they select"),
    Mutation(
        "private-copies-attached-mutable", "legate_fuse/capture/proxies.py",
        "        if session.external.copying and session.config.read_only_copies:\n",
        "        if False:\n",
        ("tests/integration/test_read_only_copies.py",),
        "cupynumeric.array's private copy of NumPy data is attached read-only"),
    Mutation(
        "shared-numpy-memory-attached-read-only", "legate_fuse/capture/external_memory.py",
        "        return self._copying > 0\n",
        "        return True\n",
        ("tests/integration/test_read_only_copies.py::test_shared_numpy_memory_stays_mutable",),
        "NumPy memory the program shares (asarray, out=) stays a mutable attachment"),
    Mutation(
        "complex-any-all-lifted", "legate_fuse/lift/cupynumeric.py",
        "                                     and ins[0] not in COMPLEX_DTYPES)\n",
        "                                     )\n",
        ("tests/integration/test_complex_arithmetic.py::"
         "test_any_and_all_of_complex_values_are_left_to_cupynumeric",),
        "any and all of complex values are left to cuPyNumeric"),
    Mutation(
        "integer-true-division-in-double", "src/cpp/codegen/c_ops.cc",
        '    return "((double)" + x[0] + " / (double)" + x[1] + ")";\n',
        '    return "((double)" + x[0] + " / (float)" + x[1] + ")";\n',
        ("tests/integration/test_fused_ops.py::"
         "test_true_division_of_integers_and_bools_in_a_chain",),
        "integers divide into float64 with both operands converted to double"),
    Mutation(
        "row-folds-stored-back", "src/cpp/codegen/c_renderer.cc",
        '        out << "      " << row_element(arg) << " = racc" << r << ";\\n";\n',
        '        out << "      ;\\n";\n',
        (AXIS_REDUCTIONS,),
        "a row folded into a local variable (a reduction along the last axis) stores it back"),
    Mutation(
        "row-folds-start-from-the-element", "src/cpp/codegen/c_renderer.cc",
        '            << row_element(arg) << ";\\n";\n',
        '            << "0;\\n";\n',
        (AXIS_REDUCTIONS,),
        "a row folded into a local variable starts from the element's value (its identity, or "
        "what an earlier row of another block folded)"),
    Mutation(
        "tasks-run-as-built-untimed", "legate_fuse/backend/fuser.py",
        "        counts, timer = self.stats.unfused, self.timer\n",
        "        counts, timer = self.stats.unfused, None\n",
        (f"{TASK_TIMES}::test_every_task_run_unfused_is_timed_by_kind_longest_first",),
        "with LEGATE_FUSE_TIME_TASKS=1, the tasks of a planned window run as built are timed"),
    Mutation(
        "tasks-built-at-once-untimed", "legate_fuse/capture/proxies.py",
        "        if session.task_timer is not None:\n            return TimedAutoTaskProxy",
        "        if False:\n            return TimedAutoTaskProxy",
        (f"{TASK_TIMES}::test_every_task_run_unfused_is_timed_by_kind_longest_first",),
        "with LEGATE_FUSE_TIME_TASKS=1, the tasks built at once are timed"),
    Mutation(
        "timed-tasks-step-aside", "legate_fuse/session.py",
        "        self.step_aside = StepAside(0 if config.time_tasks else config.step_aside,\n",
        "        self.step_aside = StepAside(config.step_aside,\n",
        (f"{TASK_TIMES}::test_timing_while_fusion_does_not_pay_keeps_every_task_behind_the_"
         "plugin",),
        "while tasks are timed the plugin never steps aside (its tasks would go untimed)"),
    Mutation(
        "complex-quotient-contracted-as-cupynumeric", "src/cpp/codegen/complex_float.cc",
        "  const LF_T nx = LF_C_nan3(fmaLF_F(a, c, bd), c, a, bd);\n",
        "  const LF_T nx = LF_C_nan3(a * c + bd, c, a, bd);\n",
        (f"{COMPLEX_ARITHMETIC}::test_quotients_of_random_parts_of_every_magnitude",),
        "a complex quotient contracts its products into fused multiply-adds as cuPyNumeric's "
        "compiled division does"),
    Mutation(
        "complex-quotient-keeps-cupynumerics-nan", "src/cpp/codegen/complex_float.cc",
        "  const LF_T ny = LF_C_nan3(fmaLF_F(-a, d, bc), d, a, bc);\n",
        "  const LF_T ny = fmaLF_F(-a, d, bc);\n",
        (f"{COMPLEX_ARITHMETIC}::test_binary_op_over_every_pair",),
        "a complex quotient's NaN is the operand cuPyNumeric's instructions keep, unflipped"),
    Mutation(
        "complex-quotient-nan-operand-order", "src/cpp/codegen/complex_float.cc",
        "  const LF_T bd = LF_C_nan2(b * d, d, b), bc = LF_C_nan2(b * c, c, b);\n",
        "  const LF_T bd = LF_C_nan2(b * d, b, d), bc = LF_C_nan2(b * c, b, c);\n",
        (f"{COMPLEX_ARITHMETIC}::test_binary_op_over_every_pair",),
        "of two NaN operands, a complex quotient keeps the one cuPyNumeric's does"),
    Mutation(
        "vector-log-near-one-bound", "src/cpp/codegen/vector_log.cc",
        "0x3ff1090000000000ULL - 0x3fee000000000000ULL",
        "0x3ff1080000000000ULL - 0x3fee000000000000ULL",
        ("tests/unit/test_vector_math.py::"
         "test_the_vector_forms_round_as_this_machines_c_library[log]",),
        "the vector log takes the C library's near-one path for exactly its inputs (its check "
        "finds any difference, and the tests require it to pass on glibc with FMA)"),
    Mutation(
        "vector-forms-special-values-to-the-library", "src/cpp/codegen/staged_body.cc",
        '      out << in3 << "  t" << n << "[i - tile] = r" << n << ";\\n" << in3 << "}\\n";\n',
        '      out << in3 << "}\\n";\n',
        ("tests/integration/test_functions_bitwise.py::"
         "test_vector_forms_equal_the_unfused_tasks_on_every_kind_of_value",
         "tests/unit/test_vector_math.py::test_kernels_agree_with_and_without_the_vector_forms"),
        "elements off a vector form's common path (NaN, infinities, zero, negatives) are "
        "computed by the element body's own expression"),
    Mutation(
        "vector-expf-scale", "src/cpp/codegen/vector_float32.cc",
        "lf_expf_data[ki % 32] + (ki << 47)", "lf_expf_data[ki % 32] + (ki << 46)",
        ("tests/unit/test_vector_math.py::"
         "test_the_vector_forms_round_as_this_machines_c_library[expf]",),
        "the float32 vector exp scales by 2^(k/32) as the C library does (its check finds any "
        "difference, and the tests require it to pass on glibc with FMA)"),
    Mutation(
        "vector-expm1-fused-like-the-library", "src/cpp/codegen/vector_expm1.cc",
        "fma(-rat, half_r, 3.0)", "3.0 - rat * half_r",
        ("tests/unit/test_vector_math.py::"
         "test_the_vector_forms_round_as_this_machines_c_library[expm1]",),
        "the vector expm1 fuses the multiply-adds the C library's FMA build fuses (its check "
        "finds any difference, and the tests require it to pass on glibc with FMA)"),
    Mutation(
        "vector-tanh-formula-from-one", "src/cpp/codegen/vector_expm1.cc",
        "LF_MASK(magnitude >= 1.0)", "LF_MASK(magnitude >= 0.5)",
        ("tests/unit/test_vector_math.py::"
         "test_the_vector_forms_round_as_this_machines_c_library[tanh]",),
        "the vector tanh takes the C library's formula for |x| >= 1 for exactly those inputs"),
    Mutation(
        "vector-log1p-rounding-correction", "src/cpp/codegen/vector_log1p.cc",
        "LF_SELECT(huge, 0.0, rounding / u)", "0.0",
        ("tests/unit/test_vector_math.py::"
         "test_the_vector_forms_round_as_this_machines_c_library[log1p]",),
        "the vector log1p corrects for the rounding of 1 + x as the C library does"),
    Mutation(
        "vector-expm1f-unfused-like-the-library", "src/cpp/codegen/vector_fdlibm_float32.cc",
        "const float t = 3.0f - rat * half_r;", "const float t = fmaf(-rat, half_r, 3.0f);",
        ("tests/unit/test_vector_math.py::"
         "test_the_vector_forms_round_as_this_machines_c_library[expm1f]",),
        "the float32 vector expm1 rounds each product on its own, as the C library's plain SSE "
        "build does"),
    Mutation(
        "vector-sin-fused-like-the-library", "src/cpp/codegen/vector_sincos.cc",
        "const double cor = fma(s, cs, fma(-c, sn, fma(s, ccs, ssn)));",
        "const double cor = ((ssn + s * ccs) - sn * c) + cs * s;",
        ("tests/unit/test_vector_math.py::"
         "test_the_vector_forms_round_as_this_machines_c_library[sin]",),
        "the vector sin fuses the multiply-adds the C library's FMA build fuses"),
    Mutation(
        "vector-sinf-cosine-negated-by-quadrant", "src/cpp/codegen/vector_sincos.cc",
        "LF_MASK((n & 2) != 0), -cosine_value", "LF_MASK(0), -cosine_value",
        ("tests/unit/test_vector_math.py::"
         "test_the_vector_forms_round_as_this_machines_c_library[sinf]",),
        "the float32 vector sin negates the cosine polynomial in quadrants 2 and 3, as the C "
        "library's second table does"),
    Mutation(
        "vector-pow-argument-tail", "src/cpp/codegen/vector_pow.cc",
        "const double rr = elo + reduced;", "const double rr = reduced;",
        ("tests/unit/test_vector_math.py::"
         "test_the_vector_forms_round_as_this_machines_c_library[pow]",),
        "the vector pow adds the tail of y log(x) to exp's argument, as the C library does"),
    Mutation(
        "vector-pow-reads-its-value-for-the-special-path", "src/cpp/codegen/staged_body.cc",
        '(form.special_reads_value ? ", t" + std::to_string(n) + "[i - tile]" : "")',
        '(form.special_reads_value ? ", 0.0" : "")',
        ("tests/unit/test_vector_math.py::"
         "test_a_power_kernel_uses_the_vector_pow_where_its_check_passes",),
        "a pow whose y log(x) overflows, underflows or is tiny is computed by the C library"),
    Mutation(
        "float32-powers-use-the-vector-pow", "src/cpp/codegen/c_vector_math.cc",
        '    return power ? form_named("pow") : nullptr;',
        '    return power && node.dtype == "float64" ? form_named("pow") : nullptr;',
        ("tests/unit/test_vector_math.py::"
         "test_a_power_kernel_uses_the_vector_pow_where_its_check_passes[float32]",),
        "float32 powers run pow's vector form on their values widened to double"),
    Mutation(
        "sincos-table-entries-checked", "legate_fuse/backend/libm_tables.py",
        "        if all(abs(values[4 * i] - math.sin(i / 128)) <= 2**-52\n",
        "        if all(abs(values[4 * i] - math.sin(i / 128)) <= 2**-52 or True\n",
        ("tests/unit/test_vector_math.py::"
         "test_the_sincos_table_is_found_in_a_library_and_nowhere_else",),
        "sin's and cos's table is taken only where every entry is sin and cos of i/128"),
    Mutation(
        "vector-forms-of-expm1-and-tanh", "src/cpp/codegen/c_vector_math.cc",
        '    return form_named("expm1" + suffix);', "    return nullptr;",
        ("tests/unit/test_vector_math.py::"
         "test_kernels_use_the_vector_forms_of_the_functions_they_call",),
        "float64 expm1 runs in its vector form where its check passed"),
    Mutation(
        "logf-table-pairs", "legate_fuse/backend/libm_tables.py",
        "0.5 < v < 2.0 and abs(c + math.log(v)) < 1e-7 for v, c in",
        "0.5 < v < 2.0 for v, c in",
        ("tests/unit/test_vector_math.py::"
         "test_the_float32_tables_are_found_in_a_library_and_nowhere_else",),
        "logf's table is taken only where each logc is the logarithm of its 1/invc"),
    Mutation(
        "vector-check-compile-failure-is-a-verdict", "legate_fuse/backend/vector_math.py",
        '            output.write_text(f"could not compile: {error}")\n            return\n',
        "            raise\n",
        ("tests/unit/test_vector_math.py::"
         "test_a_check_that_cannot_be_compiled_is_a_verdict_kept_in_the_cache",),
        "a check program that cannot be compiled leaves a failing verdict in the cache, which "
        "kernels built in the background find"),
    Mutation(
        "vector-forms-of-the-functions-a-kernel-calls", "legate_fuse/backend/vector_math.py",
        '    return tuple(f for f in FUNCTIONS if f"LF_VECTOR_{f.upper()}" in guards)\n',
        "    return ()\n",
        ("tests/unit/test_vector_math.py::test_a_kernel_without_vector_calls_runs_no_check",),
        "a kernel's prelude enables the vector forms of the functions it calls"),
    Mutation(
        "kernel-parts-move-their-corner", "src/cpp/runtime/kernel_threads.cc",
        "    corner += first_row;\n", "",
        ("tests/integration/test_kernel_threads.py::test_results_do_not_depend_on_the_threads",),
        "each part of a kernel that reads its block's corner gets its own corner"),
    Mutation(
        "kernel-helpers-unpinned", "src/cpp/runtime/kernel_threads.cc",
        "  unpin();\n", "",
        ("tests/integration/test_kernel_threads.py::test_results_do_not_depend_on_the_threads",),
        "a kernel helper runs on any core of the process, not on its Legate worker's"),
    Mutation(
        "csr-tasks-built-in-one-call", "legate_csr/fusion.py",
        'tasks_built_in_one_call = ("legate_csr",)\n', "",
        ("tests/integration/test_step_aside.py::"
         "test_a_library_whose_lifting_says_so_gets_legates_own_tasks_while_aside",),
        "a library whose lifting says it builds each task in one call gets Legate's own tasks "
        "while the plugin stands aside"),
    Mutation(
        "aside-stores-are-legates-own", "legate_fuse/mode/step_aside.py",
        '_LEGATES_OWN = ("create_auto_task", "create_store")\n',
        '_LEGATES_OWN = ("create_auto_task",)\n',
        ("tests/unit/test_step_aside.py::"
         "test_stepping_aside_hands_legates_own_tasks_until_enough_arrays",),
        "while the plugin stands aside, stores are created by Legate without the plugin"),
    Mutation(
        "kernel-helpers-in-the-program-class", "src/cpp/runtime/kernel_threads.cc",
        "  unpin();\n",
        "  unpin();\n  sched_param idle{};\n"
        "  pthread_setschedparam(pthread_self(), SCHED_IDLE, &idle);\n",
        ("tests/integration/test_kernel_threads.py::test_results_do_not_depend_on_the_threads",),
        "a kernel helper stays in its program's scheduling class (the worker waits for it)"),
    Mutation(
        "float-reductions-never-in-partials", "src/cpp/codegen/c_renderer.cc",
        "    if (!ordered && (value_reductions() != spec_.reductions.size() || "
        "uses_argval_nodes(spec_) ||\n"
        "                     !reductions_free_of_order())) {\n",
        "    if (!ordered && (value_reductions() != spec_.reductions.size() || "
        "uses_argval_nodes(spec_))) {\n",
        ("tests/unit/test_kernel_parts.py::test_which_kernels_split_and_how",),
        "a floating-point reduction into a value is never summed in parts: its order would "
        "show"),
    Mutation(
        "resumed-kernels-carry-their-accumulators", "src/cpp/codegen/c_renderer.cc",
        "      if (resume) {\n        out << \"  \" << c_type_of(dtype)",
        "      if (false) {\n        out << \"  \" << c_type_of(dtype)",
        ("tests/unit/test_kernel_parts.py::test_parts_resumed_in_order_give_the_one_pass_bits",
         ROW_CALLS + "::test_a_product_in_parts_on_the_kernel_threads"),
        "a kernel resumed on parts of its rows starts each from the accumulators the last one "
        "ended with: the bits of its one pass"),
    Mutation(
        "kernels-resume-on-row-call-parts", "src/cpp/tasks/fused_task.cc",
        "resumes_on_call_rows(context, layout, block, call) ? &call : nullptr;",
        "nullptr;",
        (ROW_CALLS + "::test_a_product_in_parts_on_the_kernel_threads",),
        "a fused kernel after a row call in parts folds each part's rows as soon as they are "
        "computed"),
    Mutation(
        "resumed-part-after-its-rows", "src/cpp/runtime/kernel_threads.cc",
        "    row_part(part);\n    resume_part(job, part, partial.data(), arrays, extents, "
        "scalars);\n",
        "    resume_part(job, part, partial.data(), arrays, extents, scalars);\n"
        "    row_part(part);\n",
        (ROW_CALLS + "::test_a_product_in_parts_on_the_kernel_threads",),
        "on one thread, the kernel resumes on a row call's part only once its rows are "
        "computed"),
    Mutation(
        "loops-stand-aside-while-kernels-compile", "legate_fuse/session.py",
        "            self.step_aside.begin_while_compiling(self.runner.fuser().compiling)\n",
        "            pass\n",
        ("tests/integration/test_background_compile.py::"
         "test_a_loop_stands_aside_while_its_kernel_compiles",),
        "a window seen before that fused nothing while its kernels compile steps the plugin "
        "aside until they are built"),
    Mutation(
        "new-windows-planned-while-kernels-compile", "legate_fuse/session.py",
        "                and stats.plan_cache_hits > hits and not window.held_back\n",
        "                and not window.held_back\n",
        ("tests/integration/test_background_compile.py::"
         "test_a_loop_stands_aside_while_its_kernel_compiles",),
        "a window not seen before is planned while kernels compile, so that its kernels start "
        "compiling too"),
    Mutation(
        "aside-until-kernels-built", "legate_fuse/mode/step_aside.py",
        "            if not self._compiling():\n                self.come_back()\n"
        "            return\n",
        "            self.come_back()\n            return\n",
        ("tests/integration/test_background_compile.py::"
         "test_a_loop_stands_aside_while_its_kernel_compiles",),
        "aside while kernels compile, the plugin comes back only once none is compiling"),
    Mutation(
        "aside-looks-again-while-compiling", "legate_fuse/mode/step_aside.py",
        "        if compiling():\n",
        "        if False:\n",
        ("tests/unit/test_step_aside.py::"
         "test_aside_while_kernels_compile_looks_again_until_none_is",),
        "aside while kernels compile, the plugin looks again after more arrays, and stays "
        "aside while one still compiles"),
    Mutation(
        "never-aside-while-tasks-stay-held", "legate_fuse/session.py",
        "                and stats.plan_cache_hits > hits and not window.held_back\n",
        "                and stats.plan_cache_hits > hits\n",
        ("tests/integration/test_background_compile.py::"
         "test_never_aside_while_tasks_stay_held",),
        "the plugin never steps aside while a full window's later tasks stay held: tasks "
        "created aside would run before them"),
    Mutation(
        "submitted-records-hold-tuples", "legate_fuse/capture/lazy_task.py",
        "        record.calls, record.shape = tuple(self._calls), tuple(self._shape)\n",
        "",
        ("tests/integration/test_lazy_tasks.py::test_align_over_a_lazy_task_is_recorded",),
        "a submitted record keeps its calls in tuples, which the cyclic garbage collector "
        "stops following"),
    Mutation(
        "recorded-constraints-hold-no-variables", "legate_fuse/capture/lazy_task.py",
        "                    recorded.append(argument_ref(arg.index))\n",
        "                    recorded.append(arg)\n",
        ("tests/integration/test_lazy_tasks.py::test_align_over_a_lazy_task_is_recorded",),
        "a recorded constraint names its task's variables by argument index, not by the "
        "objects cuPyNumeric was given"),
    Mutation(
        "ordered-fold-in-element-order", "src/cpp/codegen/ordered_fold.cc",
        "    for (int64_t i = 0; i < count; ++i) {\\n      \" << acc",
        "    for (int64_t i = count - 1; i >= 0; --i) {\\n      \" << acc",
        ("tests/unit/test_kernel_parts.py::test_stages_folded_in_order_give_the_one_pass_bits",
         "tests/integration/test_kernel_threads.py::test_results_do_not_depend_on_the_threads"),
        "an ordered reduction's operands are folded in element order, as the one pass folds "
        "them: the same bits as fusion off"),
    Mutation(
        "ordered-stages-only-for-kernels-with-calls", "src/cpp/codegen/ordered_fold.cc",
        "  return ordered && calls;\n",
        "  return ordered;\n",
        ("tests/unit/test_kernel_parts.py::test_which_kernels_split_and_how",),
        "an ordered reduction splits into stages only where the kernel calls a C library "
        "function (the fold's chain of additions would outweigh the stage's work)"),
    Mutation(
        "ordered-folds-keep-what-the-mask-drops", "src/cpp/codegen/ordered_fold.cc",
        "      combined = \"(masks[i] ? \" + combined + \" : \" + acc + \")\";\n",
        "",
        ("tests/unit/test_kernel_parts.py::test_stages_folded_in_order_give_the_one_pass_bits",
         "tests/integration/test_kernel_threads.py::test_results_do_not_depend_on_the_threads"),
        "a masked ordered reduction folds only the elements its mask keeps"),
    Mutation(
        "axis-reductions-run-whole", "src/cpp/codegen/c_renderer.cc",
        "    if (!ordered && (value_reductions() != spec_.reductions.size() || "
        "uses_argval_nodes(spec_) ||\n",
        "    if (!ordered && (uses_argval_nodes(spec_) ||\n",
        ("tests/unit/test_kernel_parts.py::test_which_kernels_split_and_how",),
        "a kernel reducing along an axis is never split: its parts would fold into one element"),
    Mutation(
        "common-subexpressions-computed-once", "src/cpp/analysis/kernel_builder.cc",
        "    const auto found = node_of_.try_emplace(std::move(key), next);\n",
        "    const auto found = node_of_.try_emplace(std::to_string(next), next);\n",
        ("tests/unit/test_kernel_builder.py::test_a_value_computed_twice_is_computed_once",),
        "an operation on the same operands as an earlier one reads the earlier one's register"),
    Mutation(
        "run-time-scalars-never-shared", "src/cpp/analysis/kernel_builder.cc",
        "      key += '|' + std::to_string(static_cast<std::int32_t>(input.kind)) + ':' +\n"
        "             std::to_string(input.index);\n",
        "      key += input.kind == Operand::Kind::Scalar\n"
        "                 ? std::string(\"|s\")\n"
        "                 : '|' + std::to_string(static_cast<std::int32_t>(input.kind)) + ':' +\n"
        "                       std::to_string(input.index);\n",
        ("tests/unit/test_kernel_builder.py::test_operations_on_run_time_scalars_are_never_shared",),
        "operations on different run-time scalars are never shared"),
    Mutation(
        "masks-kept-as-wide-as-values", "src/cpp/codegen/staged_body.cc",
        "(dtype == \"bool\" ? mask_type : c_type_of(dtype))",
        "c_type_of(dtype)",
        ("tests/unit/test_staged_loops.py::test_a_mask_kept_between_loops_is_as_wide_as_the_values",),
        "a bool kept between a kernel's loops is kept as wide as its values, so loops vectorise"),
    Mutation(
        "kernel-threads-share-the-cores", "legate_fuse/backend/kernel_threads.py",
        "    return max(1, min(8, cores // max(1, workers)))\n",
        "    return 1\n",
        ("tests/integration/test_kernel_threads.py::test_results_do_not_depend_on_the_threads",),
        "by default a fused kernel uses the cores Legate's CPU workers leave"),
    Mutation(
        "background-launch-waits-for-its-kernel", "legate_fuse/backend/fuser.py",
        "                    self.jobs.submit(kernel_id, sources)\n"
        "                    return False\n",
        "                    files = self._build(sources)\n",
        (f"{BACKGROUND}::test_a_group_runs_unfused_until_its_kernel_is_ready_then_fused",),
        "a group whose kernel is not in the cache runs unfused while it compiles"),
    Mutation(
        "background-kernel-takes-over", "legate_fuse/backend/fuser.py",
        "            elif not job.finished and not wait:\n",
        "            elif True:\n",
        (f"{BACKGROUND}::test_a_group_runs_unfused_until_its_kernel_is_ready_then_fused",),
        "the fused task takes over once its kernel is ready"),
    Mutation(
        "background-big-groups-wait", "legate_fuse/backend/fuser.py",
        "self._register(kernel, bytes_not_allocated >= WAIT_BYTES\n",
        "self._register(kernel, False\n",
        (f"{BACKGROUND}::test_a_group_whose_temporaries_take_much_memory_waits_for_its_kernel",),
        "a group whose temporaries take WAIT_BYTES or more waits for its kernel: run as built, "
        "its window would hold them all at once"),
    Mutation(
        "recycled-stores-counted-as-held", "legate_fuse/plan/planner.py",
        "        for number in self.recycler.held_numbers(index):\n"
        "            held[number] += 1\n",
        "",
        (f"{RECYCLING}::"
         "test_a_loop_hands_its_temporaries_stores_back_and_its_results_keep_their_memory",),
        "the references the recycler holds to new stores are the window's own (else no "
        "temporary is ever eliminated)"),
    Mutation(
        "recycled-only-where-a-temporary-was", "legate_fuse/window/recycling.py",
        "        if not self._became_temporary.get(key, False):\n            return None\n",
        "",
        ("tests/unit/test_store_recycling.py",
         f"{RECYCLING}::"
         "test_a_loop_hands_its_temporaries_stores_back_and_its_results_keep_their_memory"),
        "a kept store is handed back only where a temporary was created in the last window "
        "(a result given one takes new memory)"),
    Mutation(
        "recycled-by-call-site", "legate_fuse/window/recycling.py",
        "        key = self._key(kind, site())\n",
        "        key = self._key(kind, None)\n",
        ("tests/unit/test_store_recycling.py::test_where_is_the_call_site_wherever_the_window_"
         "begins",),
        "a kept store is handed back where the program made a store that became a temporary "
        "last time, by the program's call site"),
    Mutation(
        "held-stores-stay-noted", "legate_fuse/window/holding.py",
        "            self.recycler.window_flushed(kept)\n",
        "            self.recycler.window_flushed()\n",
        (f"{RECYCLING}::test_a_loop_whose_windows_begin_at_other_steps_writes_no_new_memory",),
        "the stores of tasks a cut window keeps held stay noted as created, to be kept when "
        "those tasks run"),
    Mutation(
        "recycler-keeps-a-window", "legate_fuse/window/holding.py",
        "        self.recycler = StoreRecycler(most_kept=capacity)",
        "        self.recycler = StoreRecycler()",
        ("tests/unit/test_window.py::test_the_recycler_keeps_a_windows_temporaries",),
        "the recycler keeps as many stores as a window has tasks"),
    Mutation(
        "trace-frees-kept-stores", "legate_fuse/window/runner.py",
        "            self.window.recycler.clear()\n",
        "            pass\n",
        TRACES_AFTER_OTHER_WINDOWS,
        "entering a Legate trace frees the stores kept (Legion aborted a trace whose "
        "iterations issued different operations)"),
    Mutation(
        "trace-builds-kernels-first", "legate_fuse/backend/fuser.py",
        "                                              or self.tracing > 0):\n",
        "                                              ):\n",
        ("tests/integration/test_traces.py::test_a_program_whose_first_tasks_are_in_a_trace",),
        "inside a Legate trace, a kernel missing from the cache is built before its launch"),
    Mutation(
        "fusion-starts-at-first-store", "legate_fuse/capture/proxies.py",
        "        if session.mode.mode is Mode.STARTING:\n            session.update_mode()\n"
        "        if session.mode.records:  # the store of a temporary",
        "        if session.mode.records:  # the store of a temporary",
        ("tests/integration/test_traces.py::test_a_program_whose_first_tasks_are_in_a_trace",
         f"{DRAWS}::test_the_probe_runs_ahead_of_the_first_draw"),
        "fusion starts at the program's first store, not at its first task only"),
    Mutation(
        "created-store-not-kept-while-nothing-held", "legate_fuse/window/holding.py",
        "self._created = (store, len(self.tasks)) if self.tasks else None",
        "self._created = (store, len(self.tasks))",
        (f"{LET_GO}::test_results_built_at_once_take_the_field_of_the_result_let_go",),
        "the store created last is not kept while no task is held (the next store of its "
        "shape would take a new field, and memory not yet touched)"),
    Mutation(
        "created-stores-released-at-a-task-run-as-built", "legate_fuse/capture/task_proxy.py",
        "            session.window.recycler.release_created()\n", "            pass\n",
        (f"{LET_GO}::test_no_reference_outlives_a_task_run_as_built_with_nothing_held",),
        "a task run as built with nothing held drops the references to the stores created "
        "since the last flush"),
    Mutation(
        "created-stores-released-at-every-flush", "legate_fuse/window/holding.py",
        "        else:  # the stores created since the last flush are the program's alone\n"
        "            self.recycler.release_created()\n",
        "",
        (f"{RECYCLING}::test_stores_the_program_lets_go_are_freed_at_the_next_flush",),
        "the references to new stores are dropped at every flush, also of an empty window"),
    Mutation(
        "background-only-in-one-process", "legate_fuse/backend/fuser_setup.py",
        '    if config.compile_mode == "background" and process_count() == 1:\n',
        '    if config.compile_mode == "background":\n',
        (f"{BACKGROUND}::"
         "test_over_several_processes_kernels_compile_before_their_first_launch",),
        "over several processes every rank waits for its kernels: all launch the same tasks"),
    Mutation(
        "one-builder-per-cache-folder", "legate_fuse/backend/finish_kernels.py",
        "                fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)\n",
        "                pass\n",
        (f"{BACKGROUND_JOBS}::test_one_builder_at_a_time_builds_every_file_handed_over",),
        "one builder at a time builds the kernels handed over in a cache folder"),
    Mutation(
        "payoff-waits-for-kernels", "legate_fuse/mode/payoff.py",
        "        if stats.kernels_compiling and self.step != SETTLED:\n",
        "        if False:\n",
        ("tests/unit/test_payoff.py::"
         "test_nothing_is_measured_while_kernels_compile_in_the_background",
         "tests/unit/test_payoff.py::"
         "test_a_probe_under_way_when_kernels_start_compiling_starts_again"),
        "whether fusion pays is not measured while kernels compile in the background"),
    Mutation(
        "payoff-reference-after-a-change", "legate_fuse/mode/payoff.py",
        "        if self.step == SETTLED:\n            self._settled_rate = None\n",
        "",
        ("tests/unit/test_payoff.py::"
         "test_a_change_in_what_the_plugin_sees_while_settled_is_not_a_program_that_moved_on",),
        "a change in what the plugin sees while settled is not taken for a program that moved on"),
    Mutation(
        "payoff-reference-from-a-phase", "legate_fuse/mode/payoff.py",
        "                    self._settled_rate = rate\n",
        "                    pass\n",
        ("tests/unit/test_payoff.py::test_a_program_that_moves_on_to_other_sizes_is_measured_again",
         "tests/unit/test_payoff.py::test_a_program_standing_aside_that_moves_on_is_measured_again"),
        "settled, the time per task of the way chosen is measured over its first whole phase"),
    Mutation(
        "payoff-aside-ignores-arrays", "legate_fuse/mode/step_aside.py",
        "        if not self._for_payoff:\n            self.come_back()\n",
        "        self.come_back()\n",
        ("tests/unit/test_step_aside.py::"
         "test_arrays_counted_before_fusion_was_found_not_to_pay_do_not_bring_it_back",),
        "aside because fusion does not pay, the arrays counted before do not bring it back"),
    Mutation(
        "payoff-aside-counts-no-arrays", "legate_fuse/mode/step_aside.py",
        "            self._step_aside(\"fusion does not pay\")\n",
        "            self.begin()\n",
        ("tests/unit/test_step_aside.py::"
         "test_aside_because_fusion_does_not_pay_only_the_measurement_brings_it_back",),
        "aside because fusion does not pay, only measuring whether it does brings it back"),
    Mutation(
        "fills-straight-to-legate-unrecorded", "legate_fuse/capture/proxies.py",
        "        if window.tasks or session.mode.records:\n",
        "        if True:\n",
        (f"{REPEATED_PROGRAMS}::test_a_fill_while_nothing_is_recorded_is_not_followed",),
        "a fill while nothing is recorded goes straight to Legate, not noted"),
    Mutation(
        "builders-stopped-at-exit", "legate_fuse/backend/background.py",
        "            job.builder.stop()\n",
        "            pass\n",
        (f"{BACKGROUND_JOBS}::"
         "test_at_exit_the_builders_are_stopped_and_the_unbuilt_kernels_handed_over",),
        "at exit the builders are stopped: the program does not wait for them"),
    Mutation(
        "builder-stopped-with-its-process-group", "legate_fuse/backend/background.py",
        "            os.killpg(self.pid, signal.SIGTERM)\n",
        "            os.kill(self.pid, signal.SIGTERM)\n",
        (f"{BACKGROUND_JOBS}::"
         "test_at_exit_the_builders_are_stopped_and_the_unbuilt_kernels_handed_over",),
        "a builder and the compilers it started are stopped together"),
    Mutation(
        "builders-at-most-workers", "legate_fuse/backend/background.py",
        "        while self._queued and len(self._running) < self.workers:\n",
        "        while self._queued:\n",
        (f"{BACKGROUND_JOBS}::"
         "test_jobs_run_at_most_workers_at_a_time_on_the_programs_thread",),
        "at most LEGATE_FUSE_COMPILE_JOBS builders run at once"),
    Mutation(
        "failed-builder-reported-by-a-build-here", "legate_fuse/backend/fuser.py",
        "                files = self._find(sources) or self._build(sources)\n",
        "                files = self._find(sources)\n"
        "                if files is None:\n"
        "                    raise CompileError(\"the kernel was not built\")\n",
        (f"{BACKGROUND}::"
         "test_a_kernel_that_fails_to_compile_in_the_background_leaves_its_group_unfused",),
        "a builder's failure is reported with the compiler's own error"),
    Mutation(
        "compilers-in-the-idle-class", "legate_fuse/backend/background.py",
        "        os.sched_setscheduler(pid, os.SCHED_IDLE, os.sched_param(0))\n",
        "        pass\n",
        (f"{BACKGROUND_JOBS}::"
         "test_builders_run_in_the_idle_class_in_a_session_of_their_own",),
        "background compilers run only on a core no thread of the program wants"),
    Mutation(
        "cuda-grid-stride", "src/cpp/codegen/cuda_renderer.cc",
        '         "       idx += (int64_t)blockDim.x * gridDim.x) {\\n"\n',
        '         "       idx += (int64_t)blockDim.x) {\\n"\n',
        (f"{CUDA_ON_HOST}::test_every_reduction_to_a_value_folds_as_the_c_kernel[float64]",),
        "a CUDA kernel's threads stride over the whole grid: each element is visited once"),
    Mutation(
        "cuda-strides-per-dimension", "src/cpp/codegen/cuda_renderer.cc",
        '    out << "      o" << a << " += i * p.arrays[" << a << "].strides[d];\\n";\n',
        '    out << "      o" << a << " += i * p.arrays[" << a << "].strides[0];\\n";\n',
        (f"{CUDA_ON_HOST}::test_strided_and_broadcast_operands",),
        "a CUDA kernel steps through each dimension of an array by that dimension's stride"),
    Mutation(
        "cuda-launch-parameter-layout", "src/cpp/runtime/launch_parameter.cc",
        "    std::memcpy(parameter.data() + sizeof(header) + arrays_size, scalars.data(), "
        "scalars.size());\n",
        "    std::memcpy(parameter.data() + sizeof(header), scalars.data(), scalars.size());\n",
        (f"{CUDA_ON_HOST}::test_every_operation_computes_what_the_c_kernel_computes[float32]",),
        "the CUDA kernel's parameter has the run-time scalars after the arrays"),
    Mutation(
        "fast-math-declared-vector", "legate_fuse/backend/fast_math.py",
        '        lines.append("#pragma omp declare simd notinbranch")\n',
        "        pass\n",
        ("tests/unit/test_fast_math.py::"
         "test_every_function_is_vectorised_and_within_the_stated_ulps",),
        "in fast mode the kernels' math functions are the vector math library's"),
    Mutation(
        "compile-in-the-background-by-default", "legate_fuse/settings.py",
        '        "LEGATE_FUSE_COMPILE", "background", one_of(COMPILE_MODES),\n',
        '        "LEGATE_FUSE_COMPILE", "wait", one_of(COMPILE_MODES),\n',
        (f"{BACKGROUND}::test_by_default_kernels_compile_in_the_background",),
        "by default a program never waits for a compiler"),
    Mutation(
        "math-exact-by-default", "legate_fuse/settings.py",
        '        "LEGATE_FUSE_MATH", "exact", one_of(MATH_MODES),\n',
        '        "LEGATE_FUSE_MATH", "fast", one_of(MATH_MODES),\n',
        ("tests/integration/test_math_modes.py",),
        "fused results are bit for bit those of fusion off unless fast math is asked for"),
    Mutation(
        "log-table-marker", "legate_fuse/backend/libm_tables.py",
        "        if values[POLY1_FIRST_INDEX] == -0.5 and all(v > 0 for v in values[18::2]):\n",
        "        if all(v > 0 for v in values[18::2]):\n",
        ("tests/unit/test_vector_math.py::test_the_log_table_is_found_in_a_library_and_nowhere_else",),
        "the log table is taken only from a struct whose layout is the C library's log data"),
    Mutation(
        "complex-operations-compiled-apart", "src/cpp/codegen/complex_float.cc",
        '    "#define LF_OPAQUE static __attribute__((noipa))\\n"\n',
        '    "#define LF_OPAQUE static inline\\n"\n',
        ("tests/integration/test_complex_arithmetic.py::test_a_chain_of_complex_arithmetic",),
        "complex operations are compiled as functions of their own: a chain chooses its NaN "
        "operands as cuPyNumeric's tasks do"),
    Mutation(
        "complex-kernels-not-slp-vectorised", "src/cpp/codegen/complex_float.cc",
        '    "#pragma GCC optimize(\\"no-tree-slp-vectorize\\")\\n"\n',
        '    "\\n"\n',
        ("tests/integration/test_complex_arithmetic.py::"
         "test_a_product_narrowed_to_complex64_and_widened_again",),
        "kernels on complex numbers are compiled without GCC's straight-line vectoriser, which "
        "drops the rounding of (double)(float)x"),
    Mutation(
        "complex-sum-second-nan", "src/cpp/codegen/complex_float.cc",
        "  return LF_C_make(isnan(w.re) ? w.re + w.re : z.re + w.re, "
        "isnan(w.im) ? w.im + w.im : z.im + w.im);\n",
        "  return LF_C_make(z.re + w.re, z.im + w.im);\n",
        ("tests/integration/test_complex_arithmetic.py::test_binary_op_over_every_pair",),
        "where both parts added are NaN, a complex sum's part is the second one's"),
    Mutation(
        "complex-product-recovers-infinities", "src/cpp/codegen/complex_float.cc",
        "    if (recalc) {\n",
        "    if (0) {\n",
        ("tests/integration/test_complex_arithmetic.py::test_binary_op_over_every_pair",),
        "a complex product recovers infinities from NaN parts, as libcu++'s operator* does"),
    Mutation(
        "complex-product-inline-not-contracted", "src/cpp/codegen/complex_float.cc",
        "  return LF_C_make(z.re * w.re + lf_negate_LF_N(z.im * w.im), "
        "z.re * w.im + z.im * w.re);\n",
        "  return LF_C_make(z.re * w.re - z.im * w.im, z.re * w.im + z.im * w.re);\n",
        ("tests/unit/test_codegen_complex.py::"
         "test_tiles_with_and_without_a_nan_agree_bit_for_bit",
         f"{COMPLEX_ARITHMETIC}::test_sums_and_products_of_random_parts_with_nans_in_some_tiles"),
        "a complex product's inline form is not vectorised into fused multiply-adds"),
    Mutation(
        "complex-tile-with-a-nan-computed-again", "src/cpp/codegen/checked_complex_body.cc",
        '  out << in1 << "if (!lf_nan) {\\n" << in2',
        '  out << in1 << "if (1) {\\n" << in2',
        (f"{COMPLEX_ARITHMETIC}::test_binary_op_over_every_pair",
         f"{COMPLEX_ARITHMETIC}::test_sums_and_products_of_random_parts_with_nans_in_some_tiles"),
        "a tile of a complex kernel with a NaN part is computed again by the functions that "
        "choose NaN operands as cuPyNumeric's do"),
    Mutation(
        "complex-tile-stored-after-the-check", "src/cpp/codegen/checked_complex_body.cc",
        "    out << in2 << local(s) << \" = \"\n",
        "    out << in2 << element(arg) << \" = \" << to_storage(spec.args[arg].dtype, \"r\" + "
        "std::to_string(spec.stores[s].reg)) << \";\\n\" << in2 << local(s) << \" = \"\n",
        ("tests/unit/test_codegen_complex.py::"
         "test_an_output_that_is_an_input_is_read_before_it_is_written",),
        "a complex kernel stores a tile only once it knows the tile has no NaN"),
    Mutation(
        "argmin-first-index-wins-a-tie", "src/cpp/codegen/arg_reduction.cc",
        '              ";\\n  const int64_t taken = -(int64_t)(folded != held.value);'
        '\\n  held.arg ^= "\n',
        '              ";\\n  const int64_t taken = -(int64_t)(folded != held.value || '
        'next.value == held.value);\\n  held.arg ^= "\n',
        (f"{AXIS_REDUCTIONS}::test_argmin_and_argmax_along_the_last_axis_fuse_with_their_producers",),
        "of equal values along the axis, argmin and argmax keep the first index, as cuPyNumeric's "
        "fold does"),
    Mutation(
        "argmin-never-takes-a-nan", "src/cpp/codegen/arg_reduction.cc",
        '         {std::make_pair("min", "next.value < held.value ? next.value : '
        'held.value"),\n',
        '         {std::make_pair("min", "!(held.value <= next.value) ? next.value : '
        'held.value"),\n',
        (f"{AXIS_REDUCTIONS}::test_argmin_and_argmax_along_the_last_axis_fuse_with_their_producers",),
        "argmin never takes a NaN value's index, as cuPyNumeric's fold (std::min) does not"),
    Mutation(
        "argmin-index-from-the-blocks-corner", "src/cpp/codegen/arg_reduction.cc",
        '    return "lf_argval_" + ins[0] + "_make(lf_corner[" + axis + "] + (st" + arg +\n',
        '    return "lf_argval_" + ins[0] + "_make(0 + (st" + arg +\n',
        ("tests/integration/test_multi_cpu.py",),
        "an argmin's index counts from the block's corner along the axis (a row split between "
        "points)"),
    Mutation(
        "argmin-index-only-along-the-innermost-axis", "src/cpp/codegen/arg_reduction.cc",
        '           " == 0 ? i : 0), " + operands[0] + ")";\n',
        '           " == 0 ? i : i), " + operands[0] + ")";\n',
        ("tests/integration/test_axis_reductions.py::test_argmin_along_the_last_of_three_axes_and_of_views",),
        "where the block drops the reduced axis (one element), every argmin index is its corner"),
    Mutation(
        "argmin-runs-fused-alone", "legate_fuse/plan/planner.py",
        "                flags = int(task.aligned) | 2 * int(task.fused_alone)"
        " | 4 * int(task.draws)\n",
        "                flags = int(task.aligned) | 4 * int(task.draws)\n",
        ("tests/integration/test_axis_reductions.py::"
         "test_an_argmin_with_nothing_to_fuse_runs_as_a_fused_kernel",),
        "an argmin or argmax with nothing to fuse runs as the plugin's (faster) kernel"),
    Mutation(
        "lift-cache-keeps-fused-alone", "legate_fuse/lift/__init__.py",
        "            lifted.fused_alone, lifted.draws)\n",
        "            False, lifted.draws)\n",
        ("tests/integration/test_axis_reductions.py::"
         "test_an_argmin_with_nothing_to_fuse_runs_as_a_fused_kernel",),
        "a task lifted from the lifting cache still runs fused alone where its lifting said so"),
    Mutation(
        "argmin-lifted-along-the-last-axis-only", "legate_fuse/lift/cupynumeric.py",
        "            last = axis is not None and axis == record.args[0].store.ndim - 1\n",
        "            last = axis is not None\n",
        ("tests/integration/test_axis_reductions.py::test_argmin_and_argmax_along_another_axis_stay_as_built",),
        "argmin and argmax along an axis other than the last stay as cuPyNumeric built them"),
    Mutation(
        "cpu-only-dtypes-unfused-where-legate-has-gpus", "legate_fuse/lift/cupynumeric.py",
        "    if cpu_only and machine_has_gpus():\n",
        "    if False and machine_has_gpus():\n",
        ("tests/integration/test_cpu_only_dtypes.py",),
        "float16 and complex numbers stay unfused where Legate runs tasks on GPUs"),
    Mutation(
        "negation-by-the-sign-bit", "src/cpp/codegen/c_ops.cc",
        '    if (name == "NEGATIVE") return "lf_negate_" + in + "(" + a + ")";\n',
        '    if (name == "NEGATIVE") return "(-" + a + ")";\n',
        ("tests/integration/test_fused_ops.py::test_a_negated_nan_keeps_its_flipped_sign_in_a_sum",),
        "a fused negation flips the sign bit as cuPyNumeric's does, folded into no subtraction"),
    Mutation(
        "in-place-output-aligned-with-its-input", "legate_fuse/lift/base.py",
        "                join(args[1][1], argument)",
        "                pass",
        ("tests/integration/test_fused_ops.py::test_putmask_with_an_array_of_values_and_nan_to_num",),
        "an output given its input's partition (putmask) is aligned with that input"),
    Mutation(
        "arange-from-its-blocks-origin", "src/cpp/codegen/c_renderer.cc",
        '"    const int64_t lf_row_start = lf_origin + o * inner;\\n"',
        '"    const int64_t lf_row_start = 0 * lf_origin + o * inner;\\n"',
        (f"{MULTI_CPU}::test_programs_on_two_cpus_equal_plugin_absent",),
        "each point of a fused arange counts from its own block's first index"),
    Mutation(
        "arange-contracts-as-cupynumeric", "src/cpp/codegen/c_ops.cc",
        'return fma + "(" + idx + ", " + operands[2] + ", " + operands[1] + ")";',
        'return fma.substr(0, 0) + "(" + idx + " * " + operands[2] + " + " + operands[1]'
        ' + ")";',
        ("tests/integration/test_fused_ops.py::test_arange_fuses_with_its_consumers",),
        "a floating-point arange rounds once, as cuPyNumeric's contracted kernel does"),
    Mutation(
        "window-frees-in-program-order", "legate_fuse/window/holding.py",
        "    records.reverse()\n    records.clear()\n",
        "    records.clear()\n",
        ("tests/unit/test_window.py::test_a_flushed_windows_stores_are_freed_in_program_order",),
        "a flushed window's stores are freed first to last, as the program made them"),
    Mutation(
        "zero-d-reduction-joins-array-group", "src/cpp/analysis/legality.cc",
        "    if (reduces(task) && shape_class_ != -1) {\n",
        "    if (false && reduces(task) && shape_class_ != -1) {\n",
        ("tests/integration/test_value_reductions.py",),
        "a reduction of 0-d values does not join a group that iterates over an array"),
    Mutation(
        "zero-d-array-after-value-reduction", "src/cpp/analysis/legality.cc",
        "  if (reduces_values_) {\n",
        "  if (false && reduces_values_) {\n",
        (f"{ANALYSIS}::test_an_array_task_does_not_join_a_group_reducing_0d_values",
         "tests/integration/test_value_reductions.py"),
        "a task over an array does not join a group that reduces 0-d values"),
    Mutation(
        "zero-d-attached-is-data", "src/cpp/ir/window.cc",
        "= desc->shape.empty() && desc->kind == StoreDesc::Kind::Future;\n",
        "= desc->shape.empty();\n",
        (f"{ANALYSIS}::test_a_0d_store_in_a_region_is_data_not_a_0d_value",
         "tests/integration/test_attached_scalars.py"),
        "a 0-d store over NumPy memory is data, only a Future is a 0-d value"),
    Mutation(
        "float32-power-in-double", "src/cpp/codegen/c_ops.cc",
        '    if ((name == "POWER" || name == "FLOAT_POWER") && in == "float32") {\n',
        '    if (false && (name == "POWER" || name == "FLOAT_POWER") && in == "float32") {\n',
        ("tests/integration/test_functions_bitwise.py::test_function_fused_equals_unfused"
         "[power-float32]",),
        "float32 power is computed in double precision, as cuPyNumeric does"),
    Mutation(
        "one-identity-for-future-views", "src/cpp/ir/store_desc.cc",
        "  return a.kind == StoreDesc::Kind::Future ||\n",
        "  return false ||\n",
        ("tests/unit/test_kernel_builder.py::test_a_future_read_through_two_views_is_one_argument",
         "tests/integration/test_futures.py::test_a_value_read_through_two_views_in_one_group"),
        "every view of a Future is one store, for the analysis and the kernel's arguments"),
    Mutation(
        "register-holds-latest-value", "src/cpp/analysis/kernel_builder.cc",
        "    if (const auto latest = current_.find(ref.view); latest != current_.end()) {\n",
        "    if (const auto latest = current_.find(ref.view);"
        " false && latest != current_.end()) {\n",
        ("tests/unit/test_kernel_builder.py",
         "tests/integration/test_fused_ops.py"),
        "a value written earlier in the group is read from its register, not from memory"),
    Mutation(
        "kernel-id-content-hash", "legate_fuse/plan/kernel_spec.py",
        "    return hashlib.sha256(spec.describe().encode()).hexdigest()[:32]\n",
        "    from legate_fuse.backend.compiler import machine_identity\n"
        "    text = spec.describe() + machine_identity()\n"
        "    return hashlib.sha256(text.encode()).hexdigest()[:32]\n",
        ("tests/integration/test_rank_independence.py",),
        "a fused task names its kernel by a hash of its specification alone (rank-independent)"),
    Mutation(
        "trace-boundary-flush", "legate_fuse/capture/traces.py",
        '            flush("trace")\n            leaving()\n',
        "            leaving()\n",
        ("tests/integration/test_traces.py",),
        "the tasks created in a Legate trace are issued before it ends"),
    Mutation(
        "site-built-at-once", "legate_fuse/capture/call_sites.py",
        "        if state is None or state[0] == 0 or (state[2] and not nothing_held):\n"
        "            return False\n",
        "        return False\n",
        ("tests/integration/test_call_sites.py::test_an_isclose_in_a_loop_is_built_at_once",),
        "the tasks of a call site whose tasks are not lifted are built at once"),
    Mutation(
        "site-alone-built-at-once", "legate_fuse/plan/planner.py",
        "Outcome.FUSED if number in fused else Outcome.ALONE)",
        "Outcome.FUSED)",
        ("tests/integration/test_call_sites.py::"
         "test_tasks_every_plan_runs_alone_are_built_at_once_where_nothing_is_held",),
        "the tasks of a call site that every plan runs alone are built at once"),
    Mutation(
        "site-alone-waits-for-an-empty-window", "legate_fuse/capture/call_sites.py",
        " or (state[2] and not nothing_held):\n",
        ":\n",
        ("tests/unit/test_call_sites.py::"
         "test_a_site_run_alone_is_built_at_once_only_when_nothing_is_held",),
        "a lifted task run alone is built at once only where it cuts no window"),
    Mutation(
        "unfused-report-counts-replays", "legate_fuse/backend/fuser.py",
        "                counts[record.library_name, record.task_id, reason] += 1\n",
        "",
        ("tests/integration/test_unfused_report.py",),
        "every task of a window run as built is counted in the report of what ran unfused"),
    Mutation(
        "unfused-report-names-the-rule", "legate_fuse/plan/launch_steps.py",
        "    if ended_before.startswith(f\"task {task}: \"):\n",
        "    if False:\n",
        ("tests/unit/test_unfused_report.py",
         "tests/integration/test_unfused_report.py"),
        "a task kept alone is reported with the rule that kept it out of the group before it"),
    Mutation(
        "blocking-task-is-a-wait", "legate_fuse/capture/task_proxy.py",
        "        if self._blocks:  # the program waits here for every task so far, as at a read\n",
        "        if False:\n",
        ("tests/integration/test_blocking_tasks.py",),
        "whether fusion pays is measured where the program waits at a task that may throw"),
    Mutation(
        "waits-at-tasks-keep-proxies", "legate_fuse/capture/proxies.py",
        "if (session.window.tasks or session.waits_at_tasks or session.task_timer is not None\n",
        "if (session.window.tasks or session.task_timer is not None\n",
        ("tests/integration/test_blocking_tasks.py",),
        "a program that waits at tasks keeps the proxies that see those waits, unfused too"),
    Mutation(
        "site-lifted-sticky", "legate_fuse/capture/call_sites.py",
        "            if site is not None:\n                self._sites[site] = None\n",
        "            pass\n",
        ("tests/integration/test_call_sites.py::"
         "test_a_site_whose_tasks_lift_again_is_recorded_again",),
        "a call site with a task lifted is always recorded"),
    Mutation(
        "step-aside-cupynumeric-only", "legate_fuse/capture/proxies.py",
        "return cupynumeric_proxy if builds_in_one_call(sys._getframe(1)) else proxy",
        "return cupynumeric_proxy",
        ("tests/integration/test_step_aside.py::"
         "test_only_cupynumeric_gets_legates_own_tasks_while_aside",),
        "while the plugin stands aside, only cuPyNumeric gets Legate's own tasks"),
    Mutation(
        "step-aside-holds-nothing", "legate_fuse/mode/machine.py",
        "        self.holds = target is Mode.FUSING\n",
        "        self.holds = target in (Mode.FUSING, Mode.ASIDE)\n",
        ("tests/integration/test_step_aside.py::"
         "test_a_task_recorded_before_stepping_aside_runs_at_once",),
        "nothing is held while the plugin stands aside"),
    Mutation(
        "step-aside-come-back-remembers", "legate_fuse/mode/step_aside.py",
        "        self.direct_tasks.handed_to_every_running()\n",
        "",
        ("tests/integration/test_step_aside.py::"
         "test_no_task_is_held_while_cupynumeric_may_still_build_one_of_legates",),
        "coming back, nothing is held while a cuPyNumeric function may build Legate's task"),
    Mutation(
        "step-aside-comes-back", "legate_fuse/mode/step_aside.py",
        "        self.arrays.call_after(factor * self.after, self._enough_arrays)\n",
        "",
        ("tests/integration/test_step_aside.py::"
         "test_a_stream_that_never_fuses_steps_aside_and_comes_back",),
        "the plugin comes back after stepping aside, once enough arrays were created"),
    Mutation(
        "step-aside-wait-resets", "legate_fuse/mode/step_aside.py",
        "            self.come_back_factor = COME_BACK_FACTOR\n",
        "",
        ("tests/unit/test_step_aside.py::"
         "test_each_look_that_finds_nothing_doubles_the_wait_until_a_fused_launch",),
        "a fused launch brings the wait before the plugin looks again back to the first"),
    Mutation(
        "step-aside-not-while-fusing", "legate_fuse/mode/step_aside.py",
        "        if self.stats.fused_launches != self._fused_launches:\n",
        "        if False:\n",
        ("tests/integration/test_step_aside.py::"
         "test_a_program_that_fuses_now_and_then_does_not_step_aside",),
        "a program that launches fused tasks between tasks built at once never steps aside"),
    Mutation(
        "compat-judges-whole-modules", "legate_fuse/capture/import_hooks.py",
        '    return not getattr(getattr(module, "__spec__", None), "_initializing", False)\n',
        "    return True\n",
        ("tests/unit/test_import_hooks.py::"
         "test_a_module_still_running_its_body_waits_for_poll",
         "tests/integration/test_import_orders.py::"
         "test_every_import_order_fuses_without_warning"),
        "a module still running its body is not judged by the compatibility check"),
    Mutation(
        "kill-switch-leaves-path", "legate_fuse/session.py",
        "        PATCHES.undo()\n",
        "",
        ("tests/integration/test_kill_switches.py::"
         "test_a_kill_switch_firing_late_leaves_the_path",),
        "a kill switch undoes every hook: cuPyNumeric calls Legate's own runtime afterwards"),
    Mutation(
        "kill-switch-installs-nothing-after", "legate_fuse/session.py",
        "        if self.mode.mode is Mode.OFF:  # out of the program's path: nothing is "
        "installed\n            return\n",
        "",
        ("tests/integration/test_kill_switches.py::"
         "test_store_descriptions_it_cannot_read_turn_fusion_off_before_any_task",),
        "once off, modules imported later get no hook"),
    Mutation(
        "store-description-check", "legate_fuse/session.py",
        "        if unreadable is not None:\n",
        "        if False:\n",
        ("tests/integration/test_kill_switches.py::"
         "test_store_descriptions_it_cannot_read_turn_fusion_off_before_any_task",),
        "a store description format the planner cannot read turns fusion off at start"),
    Mutation(
        "cache-refuses-folders-others-may-write", "legate_fuse/backend/cache_safety.py",
        "        if status.st_mode & SHARED_WRITE and not status.st_mode & stat.S_ISVTX:\n",
        "        if False:\n",
        ("tests/unit/test_cache_safety.py::test_a_world_writable_cache_folder_is_refused",),
        "a cache under a folder others may write (without the sticky bit) is refused"),
    Mutation(
        "cache-accepts-sticky-parents", "legate_fuse/backend/cache_safety.py",
        "        if status.st_mode & SHARED_WRITE and not status.st_mode & stat.S_ISVTX:\n",
        "        if status.st_mode & SHARED_WRITE:\n",
        ("tests/unit/test_cache_safety.py::test_a_sticky_world_writable_parent_is_accepted",),
        "a sticky parent such as /tmp does not make the cache refused"),
    Mutation(
        "cache-refuses-folders-of-other-users", "legate_fuse/backend/cache_safety.py",
        "        if status.st_uid not in above:\n",
        "        if False:\n",
        ("tests/unit/test_cache_safety.py::test_a_cache_folder_owned_by_another_user_is_refused",),
        "a cache in a folder owned by another user (not root) is refused"),
    Mutation(
        "cache-entry-owner-checked", "legate_fuse/backend/cache_safety.py",
        "    if status.st_uid not in owners:\n",
        "    if False:\n",
        ("tests/unit/test_cache_safety.py::test_a_planted_entry_with_a_valid_record_is_not_loaded",),
        "an entry another user wrote is not loaded, whatever its record says"),
    Mutation(
        "cache-entry-mode-checked", "legate_fuse/backend/cache_safety.py",
        "    if status.st_mode & SHARED_WRITE:\n",
        "    if False:\n",
        ("tests/unit/test_cache_safety.py::test_an_entry_others_may_write_is_not_loaded",),
        "an entry group or others may write is not loaded"),
    Mutation(
        "cache-entry-checked-before-load", "legate_fuse/backend/cache_entry.py",
        "                if untrusted is not None:\n",
        "                if False:\n",
        ("tests/unit/test_cache_safety.py::test_an_entry_others_may_write_is_not_loaded",),
        "each entry's owner and mode are checked on the file that is then loaded"),
    Mutation(
        "cache-files-private", "legate_fuse/backend/cache_entry.py",
        "        os.chmod(produced, 0o600)\n",
        "        pass\n",
        ("tests/unit/test_cache_safety.py::test_folders_and_files_are_private_whatever_the_umask",),
        "the cache's files are written mode 600 whatever the umask"),
    Mutation(
        "site-cache-owner-trusted", "legate_fuse/backend/compiler.py",
        "self.suffix, self.policy.site_owners)\n",
        "self.suffix, entry.owners)\n",
        ("tests/unit/test_cache_safety.py::test_a_sites_read_only_cache_is_read_and_never_written",),
        "a site's read-only cache, owned by its administrator, is read"),
    Mutation(
        "site-cache-never-touched", "legate_fuse/backend/compiler.py",
        "                    target = site.find()\n",
        "                    target = site.find(mark_use=True)\n",
        ("tests/unit/test_cache_safety.py::test_a_sites_read_only_cache_is_read_and_never_written",),
        "nothing of a site's read-only cache is written, not even its files' times"),
    Mutation(
        "cache-evicts", "legate_fuse/backend/compiler.py",
        "            evict(entry.folder, budget, keep=entry.key)\n",
        "            pass\n",
        ("tests/unit/test_cache_bounds.py::test_two_processes_filling_the_cache_keep_it_within_its_limit",),
        "the cache stays within LEGATE_FUSE_CACHE_SIZE"),
    Mutation(
        "cache-evicts-least-recently-used", "legate_fuse/backend/compiler.py",
        "        target = (entry.find(mark_use=True) if self._trusted(",
        "        target = (entry.find() if self._trusted(",
        ("tests/unit/test_cache_bounds.py::"
         "test_the_least_recently_used_entries_are_evicted_first",),
        "an entry found on disk counts as used: the least recently used are evicted first"),
    Mutation(
        "cache-hits-counted", "legate_fuse/backend/compiler.py",
        "            cache_usage.count(self.cache_dir, hits=1)\n",
        "            pass\n",
        ("tests/unit/test_cache_bounds.py::test_the_cache_command_reports_and_clears",),
        "the cache's hit rate counts the lookups that found an entry"),
    Mutation(
        "off-imports-nothing", "legate_fuse/__init__.py",
        '__version__ = "0.1.0"\n',
        '__version__ = "0.1.0"\nfrom legate_fuse import api as _api  # noqa: E402, F401\n',
        ("tests/unit/test_layout.py::test_the_startup_module_imports_nothing_of_the_package",),
        "with fusion off, start-up imports nothing of the package but _autoload.py"),
    # Other libraries' liftings (legate_fuse.register_lifting).
    Mutation(
        "lifting-registered-forgets-encodings", "legate_fuse/plan/replay.py",
        "        if self._generation != lift.generation():"
        "  # a library's lifting was registered since\n",
        "        if False:\n",
        (f"{LIBRARY_LIFTING}::test_a_registered_librarys_task_is_fused_with_cupynumerics",
         f"{LIBRARY_LIFTING}::test_a_task_its_lifting_does_not_lift_runs_as_built"),
        "a stream encoded under a library's earlier lifting is encoded anew"),
    Mutation(
        "data-interface-flushes-for-others", "legate_fuse/capture/flush_points.py",
        "            if not builds_tasks(sys._getframe(1).f_globals.get(\"__name__\", \"\")):\n",
        "            if False:\n",
        ("tests/integration/test_flush_points.py",
         f"{LIBRARY_LIFTING}::test_a_library_that_builds_tasks_from_the_data_interface_does_"
         "not_flush"),
        "the data interface flushes the window unless a registered library builds tasks "
        "with it"),
    Mutation(
        "liftings-from-entry-points", "legate_fuse/lift/__init__.py",
        "        _LIFTINGS.setdefault(entry.name, entry.value)\n",
        "        pass\n",
        (f"{LIBRARY_LIFTING}::test_a_library_that_builds_tasks_from_the_data_interface_does_"
         "not_flush",),
        "an installed package's lifting is found through its entry point"),
    # A 0-d value read after its group, written by it where each fused task runs as one point.
    Mutation(
        "value-written-by-its-one-point-group", "src/cpp/analysis/grouping.cc",
        "  if (window.one_point) {\n    return std::nullopt;  // the one point writes it\n",
        "  if (false) {\n    return std::nullopt;  // the one point writes it\n",
        (f"{ANALYSIS}::test_a_value_read_after_the_group_is_written_by_it_only_from_one_point",
         f"{VALUE_OUTPUTS}::test_a_kept_value_is_written_by_its_group[float64]"),
        "where each fused task runs as one point, a group writes a 0-d value read after it"),
    Mutation(
        "plan-cache-keyed-by-one-point", "src/cpp/analysis/analyzer.cc",
        "  key.push_back(window.one_point ? 1 : 0);\n",
        "",
        (f"{ANALYSIS}::test_a_value_read_after_the_group_is_written_by_it_only_from_one_point",),
        "a plan made for one point is never taken from the cache for several"),
    Mutation(
        "value-outputs-written-after-the-loop", "src/cpp/codegen/c_renderer.cc",
        "      write_value_outputs(out, spec_, \"  \");\n",
        "",
        (f"{CODEGEN_C}::test_a_value_output_is_written_once_after_the_loop",
         f"{VALUE_OUTPUTS}::test_a_kept_value_is_written_by_its_group[float64]"),
        "a group's 0-d output is written once, after its loop"),
    Mutation(
        "value-outputs-are-no-arrays", "src/cpp/codegen/c_renderer.cc",
        "           !(writes_values_once(spec_) && is_value_output(spec_, arg));\n",
        "           true;\n",
        (f"{CODEGEN_C}::test_a_value_output_is_written_once_after_the_loop",),
        "a 0-d output keeps a kernel's rows contiguous"),
    # The sparse library (legate_csr).
    Mutation(
        "csr-x-through-columns", "legate_csr/_library.py",
        "    task.add_constraint(image(columns, factor, ImageComputationHint.MIN_MAX))\n",
        "",
        (f"{CSR_PROCESSES}::test_a_program_runs_alike_without_the_plugin_and_with_it"
         "[two-cpus-default]",),
        "a block of rows reads x through the image of its columns"),
    Mutation(
        "csr-x-through-each-rows-columns", "src/cpp/csr/column_bounds.cc",
        "    bounds[row] = legate::Rect<1>{*least, *greatest};\n",
        "    bounds[row] = legate::Rect<1>{*least, *least};\n",
        (f"{CSR_PROCESSES}::test_a_program_runs_alike_without_the_plugin_and_with_it"
         "[two-cpus-default]",),
        "the image a block reads x through spans each of its rows' columns"),
    Mutation(
        "csr-indices-as-scipy-keeps-them", "legate_csr/_stores.py",
        "    fits = max(rows, columns, nnz) <= INT32_MAX\n",
        "    fits = False\n",
        (f"{CSR}::test_what_the_matrix_tells_equals_scipy",),
        "a matrix keeps 4-byte indices where they fit, as scipy does"),
    Mutation(
        "csr-diagonal-sums-duplicates", "src/cpp/csr/diagonal.cc",
        "        sum += matrix.values[k];\n",
        "        sum = matrix.values[k];\n",
        (f"{CSR}::test_what_the_matrix_tells_equals_scipy",),
        "the diagonal sums duplicate elements, as scipy does"),
    Mutation(
        "csr-product-in-storage-order", "src/cpp/csr/spmv.cc",
        "      for (legate::coord_t k = range.lo[0]; k <= range.hi[0]; ++k) {\n"
        "        sum += matrix.values[k] * factor[matrix.columns[k]];\n",
        "      for (legate::coord_t k = range.hi[0]; k >= range.lo[0]; --k) {\n"
        "        sum += matrix.values[k] * factor[matrix.columns[k]];\n",
        (f"{CSR}::test_products_equal_scipys",),
        "a product sums each row as scipy does, bit for bit"),
    Mutation(
        "csr-views-copied", "legate_csr/csr.py",
        "    if store_of(x).transformed:  # a view (a column, a strided slice): read through its"
        " image\n",
        "    if False:\n",
        (f"{CSR}::test_products_equal_scipys",),
        "a view is multiplied as a store of its own"),
    Mutation(
        "csr-diags-drops-zeros", "legate_csr/construct.py",
        "    kept = value != 0\n",
        "    kept = value == value\n",
        (f"{CSR}::test_diags_equals_scipys",),
        "diags stores no zeros, as scipy's diags(...).tocsr()"),
    Mutation(
        "dot-folds-by-fused-multiply-add", "src/cpp/analysis/kernel_builder.cc",
        "        reduction = \"SUM_PRODUCT\";\n",
        "",
        ("tests/integration/test_fused_ops.py::"
         "test_dot_fused_with_its_producers_has_cupynumerics_bits",),
        "a floating-point dot product folds each product by a fused multiply-add, as "
        "cuPyNumeric's CPU task does"),
    Mutation(
        "dot-factors-of-the-staged-fold", "src/cpp/codegen/staged_body.cc",
        "      note_use(reduce_uses, product_factor(spec, red, 1));\n",
        "",
        ("tests/integration/test_fused_ops.py::"
         "test_dot_fused_with_its_producers_has_cupynumerics_bits",),
        "a staged kernel keeps a dot product's factors for its fold"),
    # Row calls: legate_csr's product inside fused tasks (lift/row_calls.py).
    Mutation(
        "row-call-reads-what-the-group-writes", "src/cpp/analysis/legality.cc",
        "    if (written_views_.count(root) != 0 || reduced_.count(root) != 0) {\n"
        "      return \"a row call reads \" + arg_text(arg) + \", which the group writes\";",
        "    if (false) {\n"
        "      return \"a row call reads \" + arg_text(arg) + \", which the group writes\";",
        (f"{ROW_CALLS}::test_a_product_of_a_vector_the_group_writes_starts_a_group",),
        "rule 8: a row call reads nothing its group writes before it"),
    Mutation(
        "row-call-input-written-after", "src/cpp/analysis/legality.cc",
        "  if (ir::produces(arg.privilege) && call_reads_.count(root) != 0) {\n",
        "  if (false) {\n",
        (f"{ROW_CALLS}::test_a_vector_written_after_its_product_in_the_group",),
        "rule 8: nothing of a group writes what its row calls read"),
    Mutation(
        "row-call-image-undone-by-alias", "legate_fuse/backend/launch.py",
        "                store = _another_store(store)\n",
        "                pass\n",
        (f"{CSR_PROCESSES}::test_a_program_runs_alike_without_the_plugin_and_with_it"
         "[two-cpus-every-window-fused]",),
        "a kernel input that is a row call's imaged store is launched as another store"),
    Mutation(
        "row-call-images-dropped", "legate_fuse/backend/launch.py",
        "            for source, target, hint in call.images:\n",
        "            for source, target, hint in ():\n",
        (f"{CSR_PROCESSES}::test_a_program_runs_alike_without_the_plugin_and_with_it"
         "[two-cpus-every-window-fused]",
         f"{ROW_CALLS}::test_a_product_fuses_with_the_work_on_its_result"),
        "a row call reads its arguments through the images its lifting declares"),
    Mutation(
        "csr-product-parts-end-at-the-block", "src/cpp/csr/spmv.cc",
        "    product.rows(from, limit < product.last ? limit : product.last);\n",
        "    product.rows(from + 1, limit < product.last ? limit : product.last);\n",
        (f"{ROW_CALLS}::test_a_product_in_parts_on_the_kernel_threads",),
        "a product run in parts computes every row of its block once"),
    Mutation(
        "csr-product-lifted-whatever-its-constraints", "legate_csr/fusion.py",
        "            or constraints != _PRODUCT_CONSTRAINTS or _gpus()):\n",
        "            or _gpus()):\n",
        (f"{ROW_CALLS}::test_a_product_built_otherwise_runs_as_built",),
        "only a product built as the library builds it is lifted"),
)


class CheckError(Exception):
    """The check cannot run (exit status 2)."""


@dataclass
class Outcome:
    status: str  # killed, survived
    seconds: float
    detail: str  # the first failing test, or why there is none


def log(message: str) -> None:
    print(f"[mutation-check] {message}", file=sys.stderr, flush=True)


def apply(mutation: Mutation, text: str) -> str:
    count = text.count(mutation.original)
    if count != 1:
        raise CheckError(f"{mutation.name}: the original text occurs {count} times in "
                         f"{mutation.path} (expected once): the mutation list is stale")
    return text.replace(mutation.original, mutation.replacement)


def installed_package() -> Path:
    """The package as installed in the virtual environment (with its compiled modules)."""
    purelib = subprocess.run(
        [str(PYTHON), "-I", "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        capture_output=True, text=True, check=True).stdout.strip()
    package = Path(purelib) / PACKAGE
    if not list(package.glob("_core*.so")) or not list(package.glob("_tasks*.so")):
        raise CheckError(f"no compiled modules in {package}: is the package installed?")
    return package


def python_sources(folder: Path) -> set[Path]:
    return {p.relative_to(folder) for p in folder.rglob("*.py") if "__pycache__" not in p.parts}


def copy_sources(repo: Path, copy: Path) -> None:
    """The repository's Python sources of a package over its copy (`copy` may not exist yet)."""
    copy.mkdir(parents=True, exist_ok=True)
    for stale in python_sources(copy) - python_sources(repo):
        (copy / stale).unlink()  # removed from the repository since the install
    for source in python_sources(repo):
        (copy / source).parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(repo / source, copy / source)


def make_package_copy(run_dir: Path, installed: Path) -> Path:
    """site/legate_fuse in `run_dir`: the installed package with the repository's Python sources
    (the check tests the checked-out code; only the compiled modules come from the install).
    Returns the site folder. A fresh copy each run: no bytecode compiled from another run's
    sources can be picked up."""
    site = run_dir / "site"
    copy = site / PACKAGE
    shutil.copytree(installed, copy, ignore=shutil.ignore_patterns("__pycache__"))
    copy_sources(ROOT / PACKAGE, copy)
    # The sparse library: its sources as checked out, its compiled module as installed.
    copy_sources(ROOT / CSR_PACKAGE, site / CSR_PACKAGE)
    for module in installed.parent.glob(f"{CSR_MODULE}*.so"):
        shutil.copyfile(module, site / module.name)
    # Loaded into pytest (-p): stops the run if the package it imports is not the copy.
    (site / f"{GUARD}.py").write_text(
        "import legate_fuse\nimport pytest\n\n\n"
        "def pytest_configure(config):\n"
        f"    if not legate_fuse.__file__.startswith({str(copy) + os.sep!r}):\n"
        "        raise pytest.UsageError('mutation check: legate_fuse imported from '\n"
        "                                + legate_fuse.__file__)\n")
    return site


def install_modules(site: Path, modules: Sequence[Path]) -> None:
    """Puts compiled modules into the package copy, over the installed ones."""
    for module in modules:
        folder = site if module.name.startswith(CSR_MODULE) else site / PACKAGE
        target = folder / module.name
        if not target.exists():  # another name would sit beside the installed module
            raise CheckError(f"{module.name} is not the name of an installed module")
        shutil.copyfile(module, target)


def run_environment(run_dir: Path, site: Path) -> dict[str, str]:
    environ = {k: v for k, v in os.environ.items() if not k.startswith("LEGATE_FUSE")}
    environ["PYTHONPATH"] = os.pathsep.join(filter(None, [str(site),
                                                          os.environ.get("PYTHONPATH")]))
    environ["LEGATE_FUSE_CACHE_DIR"] = str(run_dir / "kernel-cache")
    # Test programs started without LEGATE_FUSE_* settings use the default kernel cache under
    # XDG_CACHE_HOME: a cache of this run, never the user's.
    environ["XDG_CACHE_HOME"] = str(run_dir / "xdg-cache")
    # No bytecode is written (pytest's rewritten tests would go into the working tree), and
    # the installed packages' own bytecode is read: a cache prefix would make every process
    # compile Legate, cuPyNumeric, NumPy and SciPy from source again, about two seconds each.
    environ.pop("PYTHONPYCACHEPREFIX", None)
    environ["PYTHONDONTWRITEBYTECODE"] = "1"
    return environ


def check_copy_is_imported(environ: dict[str, str], site: Path) -> None:
    """A process started like the tests' own must import the copy (PYTHONPATH comes before
    site-packages, also for the legate_fuse.pth start-up hook)."""
    result = subprocess.run(
        [str(PYTHON), "-c", "import legate_fuse, legate_fuse._core as c; "
                            "print(legate_fuse.__file__); print(c.__file__)"],
        cwd=ROOT, env=environ, capture_output=True, text=True, timeout=120)
    files = result.stdout.split()
    expected = site / PACKAGE
    if result.returncode != 0 or len(files) != 2 or not all(
            Path(f).parent == expected for f in files):
        raise CheckError(f"a child process does not import the package copy {expected}: "
                         f"{result.stdout.strip()} {result.stderr[-2000:]}")


def without_duplicates(tests: Iterable[str]) -> list[str]:
    """In order, without node ids of files that are selected whole (pytest would run twice)."""
    unique = list(dict.fromkeys(tests))
    files = {t for t in unique if "::" not in t}
    return [t for t in unique if "::" not in t or t.split("::")[0] not in files]


# pytest's short summary: "FAILED <node id> - <message>" (a node id may contain spaces).
FAILED_LINE = re.compile(r"^(?:FAILED|ERROR) (.+?)(?: - .*)?$", re.MULTILINE)


def run_pytest(site: Path, environ: dict[str, str], tests: Sequence[str], stop_at_first: bool,
               timeout: float, log_file: Path) -> tuple[int | None, str]:
    """Exit status (None: timed out) and pytest's output."""
    # -P: `python -m pytest` would put the working directory (the repository) first on
    # sys.path, where the checked-out legate_csr comes before its copy (the processes the tests
    # start are not affected).
    command = [str(PYTHON), "-P", "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", GUARD,
               *(["-x"] if stop_at_first else []), *tests]
    # A session of its own, so that a timeout (or Ctrl-C here) ends the test programs it
    # started too: they would not get the terminal's signal.
    status: int | None = None
    with open(log_file, "w") as output:
        process = subprocess.Popen(command, cwd=ROOT, env=environ, stdout=output,
                                   stderr=subprocess.STDOUT, start_new_session=True)
        try:
            status = process.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            pass
        finally:
            if status is None:  # still running: its group is still this run's
                os.killpg(process.pid, signal.SIGKILL)
                process.wait()
    return status, log_file.read_text(errors="replace")


def first_failure(output: str, status: int | None) -> str:
    if status is None:
        return "(timed out)"
    match = FAILED_LINE.search(output)
    if match:
        return match.group(1)
    return f"(exit status {status}, no failing test reported)"


# pytest's exit statuses: 1 tests failed, 2 interrupted (e.g. a collection error). A negative
# status is a signal (a crash). 3 internal error, 4 usage error, 5 no tests: the check is broken.
KILLING_STATUSES = (1, 2)


# -- the C++ build of mutated sources --------------------------------------------------------
class CppBuild:
    def __init__(self) -> None:
        self.source = MUTATION_BUILD / "src"
        self.build = MUTATION_BUILD / "build"
        self.venv_bin = PYTHON.parent

    def sync(self) -> None:
        """Copies the repository's build inputs, rewriting only files whose content differs,
        so that the build stays incremental."""
        wanted: set[Path] = set()
        for name in CMAKE_INPUTS:
            top = ROOT / name
            files = [top] if top.is_file() else [p for p in top.rglob("*") if p.is_file()]
            for path in files:
                relative = path.relative_to(ROOT)
                wanted.add(relative)
                target = self.source / relative
                if not target.exists() or not filecmp.cmp(path, target, shallow=False):
                    target.parent.mkdir(parents=True, exist_ok=True)
                    shutil.copyfile(path, target)
        for path in list(self.source.rglob("*")):
            if path.is_file() and path.relative_to(self.source) not in wanted:
                path.unlink()

    def configure(self) -> None:
        cache = self.build / "CMakeCache.txt"
        if ((self.build / "build.ninja").exists() and cache.exists()
                and NO_LTO in cache.read_text()):
            return  # ninja reruns CMake itself when CMakeLists.txt or cmake/ change
        pybind11_dir = subprocess.run([str(PYTHON), "-m", "pybind11", "--cmakedir"],
                                      capture_output=True, text=True, check=True).stdout.strip()
        self._run([str(self.venv_bin / "cmake"), "-S", str(self.source), "-B", str(self.build),
                   "-G", "Ninja", f"-DCMAKE_MAKE_PROGRAM={self.venv_bin / 'ninja'}",
                   "-DCMAKE_BUILD_TYPE=Release", f"-D{NO_LTO}", f"-DPython_EXECUTABLE={PYTHON}",
                   f"-Dpybind11_DIR={pybind11_dir}"], "configure")

    def compile(self, targets: Sequence[str], jobs: int = 1) -> list[Path]:
        """Builds the targets (one job by default: tests run beside the mutations' builds);
        returns their modules."""
        self._run([str(self.venv_bin / "ninja"), "-C", str(self.build), "-j", str(jobs),
                   *targets], "build " + " ".join(targets))
        modules = []
        for target in targets:
            (module,) = self.build.glob(f"{target}*.so")
            modules.append(module)
        return modules

    def _run(self, command: list[str], what: str) -> None:
        result = subprocess.run(command, capture_output=True, text=True)
        if result.returncode != 0:
            raise CheckError(f"C++ {what} failed:\n{result.stdout[-4000:]}{result.stderr[-4000:]}")


# -- the check ---------------------------------------------------------------------------------
class Checker:
    def __init__(self, scratch: Path, timeout: float) -> None:
        self.scratch = scratch
        self.timeout = timeout
        self.installed = installed_package()
        self.cpp: CppBuild | None = None
        self.runs = 0
        self.runs_lock = threading.Lock()
        # The mutated C++ sources and their build folder are shared by every run.
        self.build_lock = threading.Lock()

    def prepare(self, label: str) -> tuple[Path, Path, dict[str, str]]:
        with self.runs_lock:
            self.runs += 1
            run_dir = self.scratch / f"{self.runs:02d}-{label}"
        run_dir.mkdir()
        site = make_package_copy(run_dir, self.installed)
        environ = run_environment(run_dir, site)
        check_copy_is_imported(environ, site)
        return run_dir, site, environ

    def baseline(self, label: str, tests: Sequence[str], modules: Sequence[Path] = ()) -> float:
        """Runs the tests on an unmutated copy (with these compiled modules instead of the
        installed ones, if given); they must all pass."""
        start = time.monotonic()
        run_dir, site, environ = self.prepare(label)
        install_modules(site, modules)
        status, output = run_pytest(site, environ, tests, False, self.timeout,
                                    run_dir / "pytest.log")
        if status != 0:
            failed = FAILED_LINE.findall(output) or [first_failure(output, status)]
            raise CheckError(f"the tests fail without any mutation ({label}): " +
                             ", ".join(failed) + f"\n{output[-3000:]}")
        return time.monotonic() - start

    def cpp_baseline(self, tests: Sequence[str]) -> float:
        """Builds the unmutated C++ sources and runs the C++ mutations' tests with those
        modules: a C++ mutation is then the only difference from a passing run, even when the
        installed modules were built from other sources."""
        build = CppBuild()
        log(f"syncing and building the unmutated C++ sources in "
            f"{MUTATION_BUILD.relative_to(ROOT)} (incremental; the first build takes minutes)")
        build.sync()
        build.configure()
        # Nothing else runs yet: every core builds.
        modules = build.compile(("_core", "_tasks", CSR_MODULE), jobs=os.cpu_count() or 1)
        self.cpp = build
        return self.baseline("unmutated-built", tests, modules)

    def mutate(self, mutation: Mutation) -> Outcome:
        start = time.monotonic()
        run_dir, site, environ = self.prepare(mutation.name)
        if mutation.is_cpp:
            build = self.cpp
            assert build is not None, "cpp_baseline runs first"
            with self.build_lock:  # the next build overwrites the modules: copied under it
                build.sync()  # also restores a file a run that was killed left mutated
                source = build.source / mutation.path
                original = source.read_text()
                source.write_text(apply(mutation, original))
                try:
                    modules = build.compile(mutation.targets())
                finally:
                    source.write_text(original)
                install_modules(site, modules)
        else:
            target = site / mutation.path
            target.write_text(apply(mutation, target.read_text()))
        status, output = run_pytest(site, environ, without_duplicates(mutation.tests), True,
                                    self.timeout, run_dir / "pytest.log")
        seconds = time.monotonic() - start
        if status == 0:
            return Outcome("survived", seconds, "(every test passed)")
        # A test reported failing kills it whatever the status: a mutated kernel that writes
        # out of bounds can corrupt the loader's state, and ld.so then ends the process with
        # 127 at exit, after pytest reported the failure.
        if (status is None or status < 0 or status in KILLING_STATUSES
                or FAILED_LINE.search(output)):
            return Outcome("killed", seconds, first_failure(output, status))
        raise CheckError(f"{mutation.name}: pytest exit status {status}\n{output[-3000:]}")


def select(only: str | None) -> list[Mutation]:
    if not only:
        return list(MUTATIONS)
    names = [n.strip() for n in only.split(",") if n.strip()]
    known = {m.name: m for m in MUTATIONS}
    unknown = [n for n in names if n not in known]
    if unknown:
        raise CheckError(f"unknown mutations: {', '.join(unknown)} (see --list)")
    return [known[n] for n in names]


def validate(mutations: Sequence[Mutation]) -> None:
    """Every mutation applies to the checked-out sources, before anything runs."""
    for mutation in mutations:
        apply(mutation, (ROOT / mutation.path).read_text())


def print_list() -> None:
    for m in MUTATIONS:
        print(f"{m.name}  ({m.path})\n    rule: {m.rule}\n    tests: {', '.join(m.tests)}")


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--list", action="store_true", help="print the mutations and exit")
    parser.add_argument("--only", metavar="NAME[,NAME]", help="run these mutations only")
    parser.add_argument("--timeout", type=float, default=DEFAULT_TIMEOUT,
                        help="seconds for one pytest run (default: %(default)s)")
    parser.add_argument("--jobs", type=int, default=DEFAULT_JOBS,
                        help="mutations tested at once (default: %(default)s)")
    parser.add_argument("--after-pytest", action="store_true",
                        help="the whole suite just passed on these sources: the unmutated "
                             "Python baseline runs QUICK_BASELINE only")
    parser.add_argument("--keep", metavar="DIR", type=Path,
                        help="keep each run's package copy and pytest.log in DIR (a new folder)")
    args = parser.parse_args(argv)
    if args.list:
        print_list()
        return 0
    start = time.monotonic()
    try:
        mutations = select(args.only)
        validate(mutations)
        with contextlib.ExitStack() as stack:
            if args.keep:
                args.keep.mkdir(parents=True)  # a new folder: never mixes with older runs
                scratch = args.keep.resolve()
            else:
                scratch = Path(stack.enter_context(
                    tempfile.TemporaryDirectory(prefix="legate-fuse-mutation-")))
            checker = Checker(scratch, args.timeout)
            tests = without_duplicates(t for m in mutations for t in m.tests)
            baseline = list(QUICK_BASELINE) if args.after_pytest else tests
            log(f"{len(tests)} test selections; unmutated first: {len(baseline)}")
            seconds = checker.baseline("unmutated", baseline)
            log(f"unmutated: every test passed ({seconds:.0f} s)")
            cpp_tests = without_duplicates(t for m in mutations if m.is_cpp for t in m.tests)
            if cpp_tests:
                seconds = checker.cpp_baseline(list(QUICK_BASELINE) if args.after_pytest
                                               else cpp_tests)
                log(f"unmutated, built from the repository's C++ sources: every test passed "
                    f"({seconds:.0f} s)")
            outcomes: dict[str, Outcome] = {}
            with ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
                running = {pool.submit(checker.mutate, m): m for m in mutations}
                try:
                    for done in as_completed(running):
                        mutation = running[done]
                        outcome = done.result()  # a CheckError ends the check
                        outcomes[mutation.name] = outcome
                        print(f"{mutation.name:<36} {outcome.status:<8} "
                              f"{outcome.seconds:7.1f} s  {outcome.detail}\n"
                              f"    rule: {mutation.rule}", flush=True)
                except BaseException:
                    pool.shutdown(wait=True, cancel_futures=True)  # lets the running ones end
                    raise
    except CheckError as error:
        log(f"error: {error}")
        return 2
    survived = [name for name, outcome in outcomes.items() if outcome.status == "survived"]
    total = time.monotonic() - start
    print(f"{len(outcomes) - len(survived)} of {len(outcomes)} mutations killed "
          f"in {total:.0f} s" + (f"; survived: {', '.join(survived)}" if survived else ""),
          flush=True)
    return 1 if survived else 0


if __name__ == "__main__":
    sys.exit(main())
