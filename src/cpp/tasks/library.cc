#include "tasks/library.h"

#include <legate.h>

#include <memory>

#include "tasks/fused_task.h"
#include "tasks/mapper.h"
#include "tasks/random_draws.h"
#include "tasks/task_ids.h"

namespace legate_fuse {

void register_library()
{
  auto* runtime = legate::Runtime::get_runtime();
  bool created  = false;
  auto library  = runtime->find_or_create_library(LIBRARY_NAME, legate::ResourceConfig{},
                                                  std::make_unique<FusedMapper>(), {}, &created);
  if (!created) {
    return;
  }
  if (legate::get_machine().count(legate::mapping::TaskTarget::GPU) > 0) {
    FusedTaskWithGpu::register_variants(library);
  } else {
    FusedTask::register_variants(library);
  }
  RandomProbeTask::register_variants(library);
}

}  // namespace legate_fuse
