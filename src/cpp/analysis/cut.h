#pragma once

#include <cstdint>

#include "ir/window.h"

namespace legate_fuse::analysis {

// Where a full window is cut: the number of leading tasks to run now, in [earliest, n]; the
// rest stay held for the next window.
//
// Running the whole window when it fills up would cut the program at an arbitrary task, often
// in the middle of an expression whose intermediate arrays are still reachable from the
// program (locals of the function being evaluated) or read by the tasks that follow. Every one
// of those must then be allocated. Cutting instead where the fewest bytes cross (typically
// between two iterations of a loop, where only the loop's state does) lets the next window
// decide about the rest, by which time most of them are dead.
//
// A root written before the cut must be allocated when a task after the cut touches it or the
// program can still reach it: the liveness the plan's temporaries use (window.root_live,
// window.root_last_task). Its cost is the bytes of the view that first writes it (at least 1).
// The cheapest cut wins, the latest on ties; but the cheapest of the cuts a whole number of
// loop iterations into the window (loop_period) wins over it if it costs at most a sixteenth
// more.
[[nodiscard]] std::int32_t choose_cut(const ir::Window& window, std::int32_t earliest);

// The smallest number of tasks after which the window's tasks repeat, one for one (the same
// operations on arguments of the same privileges, types and shapes): the length of an iteration
// of the loop that issued them. 0 when the window is not such a loop's, at least twice over.
[[nodiscard]] std::int32_t loop_period(const ir::Window& window);

// The window of its first `count` tasks, with every root a later task touches live after it.
// It keeps every store of the window (and their numbers), used by its tasks or not.
[[nodiscard]] ir::Window window_prefix(const ir::Window& window, std::int32_t count);

}  // namespace legate_fuse::analysis
