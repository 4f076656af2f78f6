#include <legate.h>

#include "csr/csr_tasks.h"

namespace legate_csr {

void register_library()
{
  auto* runtime = legate::Runtime::get_runtime();
  bool created  = false;
  auto library  = runtime->find_or_create_library(LIBRARY_NAME, legate::ResourceConfig{}, nullptr,
                                                  {}, &created);
  if (!created) {
    return;
  }
  SpmvTask::register_variants(library);
  SpmvTransposeTask::register_variants(library);
  DiagonalTask::register_variants(library);
  ColumnBoundsTask::register_variants(library);
}

}  // namespace legate_csr
