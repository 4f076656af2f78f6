// Python binding of the fusion core (IR, analysis, code generation). Must not depend on Legate:
// unit tests import it without starting a runtime.
#include <pybind11/pybind11.h>

#include "runtime/kernel_abi.h"

PYBIND11_MODULE(_core, m)
{
  m.doc() = "legate-fuse core: IR, analysis and code generation (no Legate dependency)";
  m.attr("KERNEL_ABI_VERSION") = LEGATE_FUSE_KERNEL_ABI_VERSION;
  m.attr("MAX_DIM")            = LEGATE_FUSE_MAX_DIM;
}
