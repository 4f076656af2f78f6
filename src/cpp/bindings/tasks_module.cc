// Python binding of the Legate task library. Binding only: the logic lives in tasks/.
#include <pybind11/pybind11.h>

#include <cstdint>

#include "runtime/cuda_driver.h"
#include "runtime/kernel_abi.h"
#include "runtime/kernel_registry.h"
#include "runtime/kernel_threads.h"
#include "tasks/draw_in_parts.h"
#include "tasks/library.h"
#include "tasks/products.h"
#include "tasks/random_draws.h"
#include "tasks/row_calls.h"
#include "tasks/task_ids.h"

PYBIND11_MODULE(_tasks, m)
{
  m.doc()                        = "The Legate library 'legate_fuse' and its FUSED task";
  m.attr("LIBRARY_NAME")         = legate_fuse::LIBRARY_NAME;
  m.attr("FUSED_TASK_ID")        = static_cast<int>(legate_fuse::TaskId::FUSED);
  m.attr("RANDOM_PROBE_TASK_ID") = static_cast<int>(legate_fuse::TaskId::RANDOM_PROBE);
  m.def("register_library", &legate_fuse::register_library,
        "Create the Legate library and register its tasks (idempotent; needs a started runtime)");
  m.def(
      "register_cpu_kernel",
      [](const std::string& id, const std::string& path, const std::string& symbol) {
        legate_fuse::KernelRegistry::instance().add_cpu(id, path, symbol);
      },
      pybind11::arg("kernel_id"), pybind11::arg("path"), pybind11::arg("symbol"),
      "Load a compiled kernel and register it under the id FUSED tasks name it by; raises "
      "RuntimeError if the shared object or the symbol cannot be loaded");
  m.def(
      "register_ptx_kernel",
      [](const std::string& id, const std::string& path, const std::string& symbol) {
        legate_fuse::KernelRegistry::instance().add_ptx(id, path, symbol);
      },
      pybind11::arg("kernel_id"), pybind11::arg("path"), pybind11::arg("symbol"),
      "Register a PTX kernel under the id FUSED tasks name it by (loaded by the GPU variant)");
  m.def("product_blas_available", &legate_fuse::product_blas_available,
        "Whether the BLAS library cuPyNumeric's matrix products call is loaded in this "
        "process: only then are those products computed inside fused tasks");
  m.def(
      "register_row_call",
      [](const std::string& name, std::uintptr_t address) {
        legate_fuse::register_row_call(name, address);
      },
      pybind11::arg("name"), pybind11::arg("address"),
      "Register a library's row call (the address of its routine in this process) under the "
      "name FUSED tasks' layouts give it");
  m.def("random_draws_available", &legate_fuse::random_draws_available,
        "Whether cuPyNumeric's library is loaded with the functions its random draws call: "
        "only then are draws made inside fused tasks (after a probe task checked them)");
  m.def(
      "set_kernel_threads",
      [](int threads) { legate_fuse::KernelThreads::instance().set_threads(threads); },
      pybind11::arg("threads"),
      "Threads each fused CPU kernel may run on, the point task's own included (1: none more)");
  m.def(
      "kernel_threads", []() { return legate_fuse::KernelThreads::instance().threads(); },
      "Threads each fused CPU kernel may run on");
  m.def(
      "set_kernel_part_elements",
      [](std::int64_t elements) {
        legate_fuse::KernelThreads::instance().set_min_part_elements(elements);
      },
      pybind11::arg("elements"),
      "For tests: split fused CPU kernels into parts of at least this many elements (default "
      "65,536), so that small arrays run in parts too");
  m.def(
      "kernel_part_elements",
      []() { return legate_fuse::KernelThreads::instance().min_part_elements(); },
      "The least number of elements in a part of a split fused CPU kernel");
  m.def(
      "split_kernel_runs", []() { return legate_fuse::KernelThreads::instance().split_runs(); },
      "Fused CPU kernels run in parts on several threads so far, in this process");
  m.def(
      "pipelined_row_calls",
      []() { return legate_fuse::KernelThreads::instance().pipelined_runs(); },
      "Fused CPU kernels run on each part of a row call's rows as soon as it was computed so "
      "far, in this process");
  m.def("draws_in_parts_match_one_call", &legate_fuse::draws_in_parts_match_one_call,
        "Whether random draws made in parts give exactly the numbers and the generator state of "
        "one call of cuPyNumeric's random library here (checked once; only then are they split)");
  m.def("split_draw_runs", &legate_fuse::split_draw_runs,
        "Random draws of fused tasks made in parts on several threads so far, in this process");
  m.def(
      "cuda_device_arch",
      []() {
        try {
          return legate_fuse::CudaDriver::instance().device_arch();
        } catch (const std::exception&) {
          return 0;
        }
      },
      "Compute capability (major * 10 + minor) of the current CUDA device; 0 without one");
}
