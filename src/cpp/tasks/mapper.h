#pragma once

#include <legate.h>

#include <optional>
#include <vector>

namespace legate_fuse {

// The mapper of the `legate_fuse` library. A FUSED task without products gets Legate's default
// mapping of every store (what an empty list asks for). A task with products maps each
// product's factors and result as cuPyNumeric's mapper maps MATVECMUL's and MATMUL's stores:
// exact instances, the result row by row. Under Legate's default policy a fused product of a
// matrix of NumPy data attached read-only was slower than of a matrix Legate allocated
// (docs/STATUS.md, *Measurements*). A draw's result is mapped exact and row by row: a draw fills
// its block in memory order (tasks/random_draws.h).
class FusedMapper : public legate::mapping::Mapper {
 public:
  [[nodiscard]] std::vector<legate::mapping::StoreMapping> store_mappings(
      const legate::mapping::Task& task,
      const std::vector<legate::mapping::StoreTarget>& options) override;
  [[nodiscard]] std::optional<std::size_t> allocation_pool_size(
      const legate::mapping::Task& task, legate::mapping::StoreTarget memory_kind) override;
  [[nodiscard]] legate::Scalar tunable_value(legate::TunableID tunable_id) override;
};

}  // namespace legate_fuse
