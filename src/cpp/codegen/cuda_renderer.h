#pragma once

#include <string>

#include "ir/kernel_spec.h"
#include "runtime/kernel_abi.h"

namespace legate_fuse::codegen {

// Bumped whenever generated CUDA changes meaning: part of the kernel cache key.
inline constexpr int CUDA_RENDERER_VERSION = 2;
// Threads per block the kernels are written for (block-level reductions use it).
inline constexpr int CUDA_BLOCK_SIZE = LEGATE_FUSE_CUDA_BLOCK_SIZE;

// Renders a kernel as CUDA C++ for NVRTC (no header files needed): a grid-stride loop with one
// thread per element, the same operation DAG and semantics as the C kernel, reductions folded
// per block and then atomically into the reduction instance. The kernel `legate_fuse_kernel`
// takes one by-value parameter: runtime/kernel_abi.h's legate_fuse_launch_header followed by
// the argument arrays. Throws UnsupportedError like render_c.
[[nodiscard]] std::string render_cuda(const KernelSpec& spec);

}  // namespace legate_fuse::codegen
