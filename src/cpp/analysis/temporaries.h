#pragma once

#include "analysis/plan.h"
#include "ir/window.h"

namespace legate_fuse::analysis {

// Completes each fused or single group of `plan` with what liveness decides:
//  - a root written in the group is live after it if the program can still reach it
//    (window.root_live) or a later task of the window accesses it;
//  - a task none of whose results is live after the group or used later in the group is dead
//    and removed (computations whose results nothing observes);
//  - a root written in the group, not live after it and not read from memory before its first
//    write is a temporary: it is not an argument of the fused task and is never allocated;
//  - the fused task's arguments are the views read from memory before being written in the
//    group, and the written views that are live after it.
void resolve_liveness(const ir::Window& window, Plan& plan);

}  // namespace legate_fuse::analysis
