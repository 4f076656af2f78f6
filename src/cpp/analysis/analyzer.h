#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <unordered_map>
#include <vector>

#include "analysis/plan.h"
#include "ir/window.h"

namespace legate_fuse::analysis {

// The alpha-renamed signature of a window: task ops, argument privileges, and for every store
// its root, view, shape and dtype classes numbered by first appearance and whether it is 0-d
// or empty, plus which roots are live outside the window. Not shapes, not scalar values, not
// store identities: a loop that repeats the same statements on new arrays has the same
// signature every iteration.
[[nodiscard]] std::vector<std::int64_t> signature(const ir::Window& window);

struct VectorHash {
  std::size_t operator()(const std::vector<std::int64_t>& key) const noexcept;
};

// Plans windows, remembering the plan of every signature seen (a plan depends on nothing else).
class Analyzer {
 public:
  explicit Analyzer(std::size_t capacity = 4096) : capacity_{capacity} {}

  struct Result {
    Plan plan;
    bool cache_hit{};
  };

  [[nodiscard]] Result analyze(const ir::Window& window, bool use_cache = true);

  [[nodiscard]] std::size_t cached_plans() const { return cache_.size(); }
  void clear() { cache_.clear(); }

 private:
  std::size_t capacity_;
  std::unordered_map<std::vector<std::int64_t>, Plan, VectorHash> cache_;
};

// The plan of a window, computed afresh: grouping, then liveness.
[[nodiscard]] Plan plan_window(const ir::Window& window);

}  // namespace legate_fuse::analysis
