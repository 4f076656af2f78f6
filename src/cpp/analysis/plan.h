#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "ir/window.h"

namespace legate_fuse::analysis {

// An argument of a fused task: one view of a root, read from or written to memory.
struct FusedArg {
  std::int32_t store{};  // representative store (first in the window with this view)
  ir::Privilege privilege{ir::Privilege::Read};
  std::int32_t redop{-1};
};

struct Group {
  enum class Kind {
    Fused,   // two or more tasks become one task
    Single,  // one liftable task: runs as built
    Opaque,  // not liftable: runs as built
  };
  Kind kind{Kind::Opaque};
  std::vector<std::int32_t> tasks;        // live tasks, in program order
  std::vector<std::int32_t> dead_tasks;   // tasks whose results nothing observes
  std::vector<std::int32_t> prologue;     // tasks of `tasks` computing on 0-d values only
  std::vector<std::int32_t> temporaries;  // representative store per eliminated root
  std::int64_t bytes_not_allocated{};
  std::vector<FusedArg> args;  // arguments of the fused task (Fused only)
  std::string end_reason;
};

struct Plan {
  std::vector<Group> groups;
};

[[nodiscard]] const char* kind_name(Group::Kind kind);

// Human-readable plan, one line per group.
[[nodiscard]] std::string describe(const Plan& plan);

}  // namespace legate_fuse::analysis
