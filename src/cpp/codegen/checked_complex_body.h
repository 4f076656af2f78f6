#pragma once

#include <sstream>
#include <string>

#include "codegen/element_body.h"
#include "ir/kernel_spec.h"

namespace legate_fuse::codegen {

// Whether the contiguous loop of this kernel is better checked for NaNs: it computes complex
// sums, differences or products (each a function call of its own in the element body, which
// compilers do not vectorise), divides no complex numbers, calls no library function and
// reduces nothing.
[[nodiscard]] bool wants_nan_check(const KernelSpec& spec);

// Renders the loop `for i in [0, count)` over contiguous elements tile by tile. A tile is first
// computed with the inline forms of the complex operations (complex_float.h), which compilers
// vectorise, into tile buffers, while noting whether any complex value an operation reads or
// produces has a NaN part. A tile without one stores its buffers: every operation computed the
// bits its function computes. A tile with one is computed again by the element body, element
// by element, whose functions choose between NaN operands as cuPyNumeric's do; nothing of the
// tile was stored yet, so it reads the inputs as the kernel found them.
void write_nan_checked_body(std::ostringstream& out, const KernelSpec& spec,
                            const std::string& indent, const std::string& count,
                            const ElementAccess& element);

}  // namespace legate_fuse::codegen
