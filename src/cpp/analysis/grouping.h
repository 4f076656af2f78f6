#pragma once

#include "analysis/plan.h"
#include "ir/window.h"

namespace legate_fuse::analysis {

// Greedy longest fusible prefix, repeated over the window (as Diffuse does): each task joins
// the group being built if the legality rules allow, otherwise it closes the group. Opaque
// tasks form groups of their own. When a group that iterates over an array closes, a task of
// it that computes on 0-d values only and writes a value read after the group runs alone (each
// point of the group's launch would write its own Future of it). Groups come out in program
// order, without liveness information (see temporaries.h).
[[nodiscard]] Plan group_tasks(const ir::Window& window);

// Whether these tasks of a group run as one fused task: two or more, or one whose fused kernel
// is faster than the task as built (ir::Task::fused_alone).
[[nodiscard]] bool runs_fused(const ir::Window& window, const std::vector<std::int32_t>& tasks);

}  // namespace legate_fuse::analysis
