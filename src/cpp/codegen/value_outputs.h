#pragma once

#include <sstream>

#include "ir/kernel_spec.h"

namespace legate_fuse::codegen {

// A group that iterates over arrays and writes 0-d values read after it (its prologue's: where
// its fused task runs as one point, analysis/grouping.h) writes each once, after its loops,
// not once per element: what `write_stores` leaves out.
[[nodiscard]] bool writes_values_once(const KernelSpec& spec);

// Whether `arg` is such a 0-d output.
[[nodiscard]] bool is_value_output(const KernelSpec& spec, std::size_t arg);

// `{ <the nodes the 0-d outputs are computed by>; *arrays[k] = r<n>; ... }`, in the kernel's
// scope after its loops (value inputs in<k> and run-time scalars s<k> are in scope). Throws
// UnsupportedError when such a value depends on an array's elements or on the index.
void write_value_outputs(std::ostringstream& out, const KernelSpec& spec,
                         const std::string& indent);

}  // namespace legate_fuse::codegen
