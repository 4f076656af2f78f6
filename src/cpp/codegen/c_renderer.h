#pragma once

#include <stdexcept>
#include <string>

#include "ir/kernel_spec.h"

namespace legate_fuse::codegen {

// The symbol every generated kernel exports (one kernel per shared object).
inline constexpr const char* KERNEL_SYMBOL = "legate_fuse_kernel";

// Bumped whenever generated code changes meaning: part of the kernel cache key.
inline constexpr int C_RENDERER_VERSION = 11;

class UnsupportedError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Renders a kernel as C source following runtime/kernel_abi.h. Throws UnsupportedError when
// an operation or dtype has no C rendering.
[[nodiscard]] std::string render_c(const KernelSpec& spec);

}  // namespace legate_fuse::codegen
