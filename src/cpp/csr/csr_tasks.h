// The Legate library "legate_csr": compressed sparse row matrices and the tasks that compute
// with them. A matrix is three stores: `pos` (one Rect<1> per row: the row's first and last
// element in the other two, empty for an empty row), `crd` (int32 or int64 column of each
// element) and `vals` (float32 or float64 value of each element); and, for products, `bounds`
// (one Rect<1> per row: its least and greatest column, empty for an empty row). Rows are
// partitioned; a task reads `crd` and `vals` through the image of its rows' `pos`, and a
// product reads `x` through the image of its rows' `bounds`.
#pragma once

#include <legate.h>

#include <cstddef>

#include "runtime/row_call_abi.h"

namespace legate_csr {

inline constexpr const char* LIBRARY_NAME = "legate_csr";

enum TaskId : int {
  SPMV           = 0,  // y[rows] = A[rows, :] @ x
  SPMV_TRANSPOSE = 1,  // y += A[rows, :].T @ x[rows], y reduced by sum
  DIAGONAL       = 2,  // d[rows] = A[r, r] (duplicates summed)
  COLUMN_BOUNDS  = 3,  // bounds[rows] = [least, greatest] column of each row
};

// Creates the library and registers its tasks; idempotent. Needs a started Legate runtime.
void register_library();

class SpmvTask : public legate::LegateTask<SpmvTask> {
 public:
  static inline const auto TASK_CONFIG = legate::TaskConfig{legate::LocalTaskID{TaskId::SPMV}};

  static void cpu_variant(legate::TaskContext context);
};

class SpmvTransposeTask : public legate::LegateTask<SpmvTransposeTask> {
 public:
  static inline const auto TASK_CONFIG =
      legate::TaskConfig{legate::LocalTaskID{TaskId::SPMV_TRANSPOSE}};

  static void cpu_variant(legate::TaskContext context);
};

class DiagonalTask : public legate::LegateTask<DiagonalTask> {
 public:
  static inline const auto TASK_CONFIG = legate::TaskConfig{legate::LocalTaskID{TaskId::DIAGONAL}};

  static void cpu_variant(legate::TaskContext context);
};

class ColumnBoundsTask : public legate::LegateTask<ColumnBoundsTask> {
 public:
  static inline const auto TASK_CONFIG =
      legate::TaskConfig{legate::LocalTaskID{TaskId::COLUMN_BOUNDS}};

  static void cpu_variant(legate::TaskContext context);
};

// The product as a routine another library's task may run on its point's block (a row call of
// legate-fuse's fused tasks, runtime/row_call_abi.h): `stores` are the SPMV task's, in its
// order (y, pos, crd, vals, x, bounds), partitioned as it partitions them; computes what the task
// computes on that block, its rows in parts through `parts` where given (else on this thread).
void multiply_rows(const legate::PhysicalStore* stores, std::size_t count,
                   const legate_fuse_row_parts* parts);

}  // namespace legate_csr

// multiply_rows with C linkage, whose address the Python module gives.
extern "C" void legate_csr_multiply_rows(const legate::PhysicalStore* stores, std::size_t count,
                                         const legate_fuse_row_parts* parts);
