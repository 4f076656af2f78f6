#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <unordered_map>
#include <unordered_set>

#include "ir/window.h"

namespace legate_fuse::analysis {

// What a group being built has done to each root so far: the facts the legality rules need.
class GroupState {
 public:
  explicit GroupState(const ir::Window& window) : window_{window} {}

  // Why `task` may not join the group (nullopt: it may). The rules of DESIGN.md:
  //  1. the task is liftable;
  //  2. its partitioned arguments are aligned, not empty, and iterate over the group's shape
  //     (a partitioned reduction target too: an axis reduction into a promoted view), or it
  //     only computes on 0-d values (and then reduces only in a group of 0-d values);
  //  3. a root written in the group is accessed only through views it was written through or
  //     views apart from every view it was written through;
  //  4. a root the task writes was read in the group only through the view it writes through
  //     or views apart from it;
  //  5. a reduction target is not otherwise accessed, and further reductions into it use the
  //     same view and operator;
  //  6. distinct roots never overlap (holds by construction of root identity);
  //  7. a matrix product's factors are read whole only where the group accesses their roots
  //     in no other way, and its result goes to a root the group has not accessed before (the
  //     product runs before the kernel);
  //  8. what a row call reads is written by no task of the group (another point task may
  //     read any of it), and its result goes to a root the group has not accessed before.
  [[nodiscard]] std::optional<std::string> why_not(const ir::Task& task) const;

  void add(const ir::Task& task);
  [[nodiscard]] bool empty() const { return tasks_ == 0; }

 private:
  [[nodiscard]] std::optional<std::string> check_shape(const ir::Task& task) const;
  // A row call's arguments are its result (WriteCall) and what it reads (ReadCall) only.
  [[nodiscard]] static std::optional<std::string> check_row_call(const ir::Task& task);
  [[nodiscard]] std::optional<std::string> check_arg(const ir::Arg& arg) const;
  // The store whose elements the argument accesses: a product's result as the kernel reads it.
  [[nodiscard]] const ir::StoreRef& elements_of(const ir::Arg& arg) const;

  const ir::Window& window_;
  std::int32_t tasks_{};
  std::int32_t shape_class_{-1};
  bool reduces_values_{};  // a task of the group reduces 0-d values only
  std::unordered_map<std::int32_t, std::unordered_set<std::int32_t>> written_views_;
  std::unordered_map<std::int32_t, std::unordered_set<std::int32_t>> read_views_;
  std::unordered_map<std::int32_t, std::pair<std::int32_t, std::int32_t>> reduced_;  // view, op
  std::unordered_set<std::int32_t> read_whole_;  // roots a product of the group reads whole
  std::unordered_set<std::int32_t> products_;    // roots a product or row call writes
  std::unordered_set<std::int32_t> call_reads_;  // roots a row call of the group reads
};

}  // namespace legate_fuse::analysis
