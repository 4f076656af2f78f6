#pragma once

#include <cstdint>

#include "runtime/kernel_abi.h"

namespace legate_fuse {

// A compiled CPU kernel as its shared object defines it (runtime/kernel_abi.h): the kernel,
// its LEGATE_FUSE_SPLIT_* flags, and with LEGATE_FUSE_SPLIT_PARTIALS its part form and the
// function that combines a part's values (with LEGATE_FUSE_SPLIT_ORDERED or
// LEGATE_FUSE_SPLIT_RESUMES, the accumulators').
struct CpuKernel {
  legate_fuse_kernel_fn whole{};
  std::uint32_t split{};
  legate_fuse_part_fn part{};
  legate_fuse_combine_fn combine{};
  std::int32_t partial_count{};
  // With LEGATE_FUSE_SPLIT_ORDERED: the stage form, the fold of a part's operands, and the
  // accumulators' identities.
  legate_fuse_stage_fn stage{};
  legate_fuse_fold_fn fold{};
  legate_fuse_start_fn start{};
  // With LEGATE_FUSE_SPLIT_RESUMES: the one pass over a part of the rows, from the
  // accumulators `start` began (and `combine` ends).
  legate_fuse_part_fn resume{};
};

}  // namespace legate_fuse
