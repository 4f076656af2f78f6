// Python binding of the Legate library "legate_csr". Binding only: the tasks live in csr/.
#include <pybind11/pybind11.h>

#include <cstdint>

#include "csr/csr_tasks.h"

PYBIND11_MODULE(_legate_csr, m)
{
  m.doc()                          = "The Legate library 'legate_csr' and its tasks";
  m.attr("LIBRARY_NAME")           = legate_csr::LIBRARY_NAME;
  m.attr("SPMV_TASK_ID")           = static_cast<int>(legate_csr::TaskId::SPMV);
  m.attr("SPMV_TRANSPOSE_TASK_ID") = static_cast<int>(legate_csr::TaskId::SPMV_TRANSPOSE);
  m.attr("DIAGONAL_TASK_ID")       = static_cast<int>(legate_csr::TaskId::DIAGONAL);
  m.attr("COLUMN_BOUNDS_TASK_ID")  = static_cast<int>(legate_csr::TaskId::COLUMN_BOUNDS);
  m.def(
      "multiply_rows_address",
      []() { return reinterpret_cast<std::uintptr_t>(&legate_csr_multiply_rows); },
      "The address in this process of the product as a routine on one point's block, "
      "stores as SPMV's (a row call of legate-fuse's fused tasks: its row_call_abi.h)");
  m.def("register_library", &legate_csr::register_library,
        "Create the Legate library and register its tasks (idempotent; needs a started runtime)");
}
