#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "analysis/plan.h"
#include "ir/window.h"

namespace legate_fuse::analysis {

// The alpha-renamed signature of a window: task ops, argument privileges, and for every store
// its root, view, shape and dtype classes numbered by first appearance and whether it is 0-d
// or empty, plus which roots are live outside the window and whether its launches are of one
// point. Not shapes, not scalar values, not store identities: a loop that repeats the same
// statements on new arrays has the same signature every iteration.
[[nodiscard]] std::vector<std::int64_t> signature(const ir::Window& window);

struct VectorHash {
  std::size_t operator()(const std::vector<std::int64_t>& key) const noexcept;
};

// Plans windows, remembering the plan of every signature seen (a plan depends on nothing else),
// and completes each fused group of a window's plan with its kernel specification.
class Analyzer {
 public:
  explicit Analyzer(std::size_t capacity = 4096) : capacity_{capacity} {}

  // The id a window's encoding gives the lifted operation `name` (e.g. "BINARY_OP.ADD"),
  // numbered by first request; the kernel builder reads the names back.
  [[nodiscard]] std::int32_t op_id(const std::string& name);
  [[nodiscard]] const std::vector<std::string>& op_names() const { return op_names_; }

  // A window's plan: shared, read-only, by every window of its signature (a cache hit copies
  // nothing of its groups and kernels), and what depends on this window's shapes.
  struct Result {
    std::shared_ptr<const Plan> plan;
    std::vector<std::int64_t> group_bytes;  // see analysis::group_bytes
    bool cache_hit{};
  };

  [[nodiscard]] Result analyze(const ir::Window& window, bool use_cache = true);

  [[nodiscard]] std::size_t cached_plans() const { return cache_.size(); }
  void clear() { cache_.clear(); }

 private:
  std::size_t capacity_;
  std::int64_t next_cache_id_{};
  std::vector<std::string> op_names_;
  std::unordered_map<std::string, std::int32_t> op_ids_;
  // Every dtype seen, numbered: the plans are cached with their kernels, which name them.
  std::unordered_map<std::string, std::int32_t> dtype_ids_;
  std::unordered_map<std::vector<std::int64_t>, std::shared_ptr<const Plan>, VectorHash> cache_;
};

// The plan of a window, computed afresh: grouping, then liveness.
[[nodiscard]] Plan plan_window(const ir::Window& window);

}  // namespace legate_fuse::analysis
