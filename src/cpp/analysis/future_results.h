#pragma once

#include "analysis/plan.h"
#include "ir/window.h"

namespace legate_fuse::analysis {

// Runs as built, one task at a time, every fused group that would return more than one
// Future (a store with Future storage written or reduced, live after the group).
//
// Legate packs the Future results of one task into a single Future; a fill whose value is
// any but the first of them (cuPyNumeric's copy between one-element arrays, the conversion of
// a Future to a region) reads the first one instead. cuPyNumeric's own tasks never return two
// Futures, so fused tasks do not either.
void split_multiple_future_results(const ir::Window& window, Plan& plan);

}  // namespace legate_fuse::analysis
