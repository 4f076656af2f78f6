#pragma once

#include <string>
#include <vector>

#include "analysis/plan.h"
#include "ir/window.h"

namespace legate_fuse::analysis {

// Completes a fused group with its kernel specification (ir/kernel_spec.h): the group's tasks
// in program order, where a root's latest value lives in a register, reads of a root not yet
// written in the group load the kernel argument of their store, written roots live after the
// group are stored at the end of each element and reductions fold into accumulators. A task
// computing what an earlier one of the group computed (the same operation, result type and
// operands; never a run-time scalar's slot) reads the earlier one's register: a value is
// computed once. Kernel argument i is group.args[i]. `op_names[op]` names the lifted operation
// of op id `op`.
//
// Run for every window, after the plan (cached or not): the spec names dtypes, which the plan
// cache's signature numbers by class only. When the group has an operation a kernel cannot
// express, group.kernel stays empty and group.kernel_error says why (the group then runs
// unfused).
void attach_kernel(const ir::Window& window, const std::vector<std::string>& op_names,
                   Group& group);

}  // namespace legate_fuse::analysis
