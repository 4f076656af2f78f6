#pragma once

namespace legate_fuse {

inline constexpr const char* LIBRARY_NAME = "legate_fuse";

enum TaskId : int {
  FUSED = 0,
};

}  // namespace legate_fuse
