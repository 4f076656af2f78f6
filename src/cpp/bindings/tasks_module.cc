// Python binding of the Legate task library. Binding only: the logic lives in tasks/.
#include <pybind11/pybind11.h>

#include "runtime/cuda_driver.h"
#include "runtime/kernel_abi.h"
#include "runtime/kernel_registry.h"
#include "tasks/library.h"
#include "tasks/task_ids.h"

PYBIND11_MODULE(_tasks, m)
{
  m.doc()                 = "The Legate library 'legate_fuse' and its FUSED task";
  m.attr("LIBRARY_NAME")  = legate_fuse::LIBRARY_NAME;
  m.attr("FUSED_TASK_ID") = static_cast<int>(legate_fuse::TaskId::FUSED);
  m.def("register_library", &legate_fuse::register_library,
        "Create the Legate library and register its tasks (idempotent; needs a started runtime)");
  m.def(
      "load_kernel",
      [](const std::string& path, const std::string& symbol) {
        (void)legate_fuse::KernelRegistry::instance().lookup(path, symbol);
      },
      pybind11::arg("path"), pybind11::arg("symbol"),
      "Load a compiled kernel into the registry the FUSED task uses; raises RuntimeError if the "
      "shared object or the symbol cannot be loaded");
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
