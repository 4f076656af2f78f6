#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "ir/kernel_spec.h"
#include "ir/window.h"

namespace legate_fuse::analysis {

// An argument of a fused task: one view of a root, read from or written to memory.
struct FusedArg {
  std::int32_t store{};  // representative store (first in the window with this view)
  ir::Privilege privilege{ir::Privilege::Read};
  std::int32_t redop{-1};
};

// A library routine a fused task runs on each point's block before its kernel (a task of the
// window lifted with ReadCall and WriteCall arguments, ir/window.h).
struct RowCall {
  std::int32_t task{};  // the task of the window it stands for
  // Its arguments in the task's order, each a store of the group's `args`.
  std::vector<std::int32_t> stores;
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
  // Arguments of the fused task (Fused only): inputs, then outputs, then reductions, the order
  // in which Legate lists a task's stores; the kernel's arguments, in the same order.
  std::vector<FusedArg> args;
  // The matrix products the fused task computes before its kernel, in program order: (result
  // without its promotion, first factor, second factor), each a store of `args` (WriteWhole,
  // ReadWhole, ReadWhole).
  std::vector<std::array<std::int32_t, 3>> products;
  // The random draws the fused task makes before its kernel (and its products), in program
  // order: (result, a store of `args` (WriteWhole); the task of the window that draws it).
  std::vector<std::array<std::int32_t, 2>> draws;
  // The row calls the fused task makes on its block before its kernel, in program order.
  std::vector<RowCall> calls;
  std::string end_reason;
  std::optional<ir::KernelSpec> kernel;  // Fused only (see kernel_builder.h)
  std::string kernel_text;               // ir::describe(*kernel): the kernel's canonical text
  // The kernel text's number in this process (equal texts, equal numbers; -1: no kernel): a
  // launch finds its kernel by it without reading the text.
  std::int64_t kernel_number{-1};
  std::string kernel_error;  // why there is no kernel
  // Where each of the kernel's run-time scalar slots comes from: (task of the window, index
  // of the task's run-time scalar). The values are the launch's, read from its tasks.
  std::vector<std::pair<std::int32_t, std::int32_t>> scalar_sources;
};

// A store that runs in the memory of another (its owner): see storage_sharing.h.
struct SharedStorage {
  std::int32_t store{};
  std::int32_t owner{};
};

struct Plan {
  std::vector<Group> groups;
  // Stores written and read only inside the window that take the memory of a store dead
  // before them, in the order of their first access.
  std::vector<SharedStorage> shared_storage;
  // Whole stores whose memory is free once the window has run (arrays it let go, Legate's own
  // memory): what the next window may be given as spare memory (ir::Window::spare_stores).
  std::vector<std::int32_t> free_at_end;
  // The number the analyzer's plan cache gave this plan (-1: not cached): equal numbers, the
  // same groups, kernels and arguments, so what a launch derives from a plan can be kept by it.
  // Never reused in a process, even after the cache is cleared.
  std::int64_t cache_id{-1};
};

[[nodiscard]] const char* kind_name(Group::Kind kind);

// Per group of `plan`, the bytes of the temporaries it does not allocate in `window`: of the
// window's shapes, which a plan leaves out (windows of other shapes share it).
[[nodiscard]] std::vector<std::int64_t> group_bytes(const ir::Window& window, const Plan& plan);

// Human-readable plan, one line per group; with each group's bytes not allocated when given.
[[nodiscard]] std::string describe(const Plan& plan,
                                   const std::vector<std::int64_t>& group_bytes = {});

}  // namespace legate_fuse::analysis
