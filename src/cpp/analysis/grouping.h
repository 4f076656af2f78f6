#pragma once

#include "analysis/plan.h"
#include "ir/window.h"

namespace legate_fuse::analysis {

// Greedy longest fusible prefix, repeated over the window (as Diffuse does): each task joins
// the group being built if the legality rules allow, otherwise it closes the group. Opaque
// tasks form groups of their own. Groups come out in program order, without liveness
// information (see temporaries.h).
[[nodiscard]] Plan group_tasks(const ir::Window& window);

}  // namespace legate_fuse::analysis
