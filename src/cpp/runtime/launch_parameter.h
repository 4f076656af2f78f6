// The one by-value parameter of a generated CUDA kernel (runtime/kernel_abi.h): the launch
// header, the argument arrays, then the run-time scalars' slots and the block's lower corner.
// Packed here once, for the FUSED task's GPU variant and for the tests that run the CUDA
// kernels on the host.
#pragma once

#include <cstdint>
#include <vector>

#include "runtime/kernel_abi.h"

namespace legate_fuse {

// `extents` holds LEGATE_FUSE_MAX_DIM values (those past `ndim` are ignored); `scalars` is the
// kernel's `scalars` bytes (run-time scalars, then the block's lower corner).
std::vector<char> cuda_launch_parameter(std::int64_t volume, std::int32_t ndim,
                                        const std::int64_t* extents,
                                        const std::vector<legate_fuse_array>& arrays,
                                        const std::vector<char>& scalars);

// Threads per block and blocks of a kernel's launch over `volume` elements: a thread per
// element, the grid capped (each thread then strides over several).
inline constexpr std::int64_t CUDA_MAX_BLOCKS = std::int64_t{1} << 20;
std::int64_t cuda_blocks(std::int64_t volume);

}  // namespace legate_fuse
