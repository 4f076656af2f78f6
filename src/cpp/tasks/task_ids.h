#pragma once

namespace legate_fuse {

inline constexpr const char* LIBRARY_NAME = "legate_fuse";

enum TaskId : int {
  FUSED        = 0,
  RANDOM_PROBE = 1,  // tasks/random_draws.h
};

}  // namespace legate_fuse
