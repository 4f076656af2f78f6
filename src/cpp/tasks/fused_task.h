#pragma once

#include <legate.h>

#include "tasks/task_ids.h"

namespace legate_fuse {

// One task per fused group: calls a kernel compiled at run time on the point task's local
// blocks. Scalars: 0 = the kernel's id (under which this process registered its build of the
// kernel), 1 = the packed run-time scalar values (binary), 2 (optional) = the kernel's layout:
// where each of its arrays comes from, the random numbers drawn (tasks/random_draws.h) and the
// matrix products computed before it runs (tasks/products.h), whose factors are read whole. An
// empty kernel id: the task only draws. Stores: inputs, outputs,
// reductions, all aligned but those of the products.
class FusedTask : public legate::LegateTask<FusedTask> {
 public:
  static inline const auto TASK_CONFIG = legate::TaskConfig{legate::LocalTaskID{TaskId::FUSED}};

  static void cpu_variant(legate::TaskContext context);
};

// The same task with a GPU variant; registered instead of FusedTask when Legate has GPUs.
class FusedTaskWithGpu : public legate::LegateTask<FusedTaskWithGpu> {
 public:
  static inline const auto TASK_CONFIG = legate::TaskConfig{legate::LocalTaskID{TaskId::FUSED}};

  static void cpu_variant(legate::TaskContext context) { FusedTask::cpu_variant(context); }
  static void gpu_variant(legate::TaskContext context);
};

}  // namespace legate_fuse
