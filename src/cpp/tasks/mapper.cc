#include "tasks/mapper.h"

#include <cstdint>
#include <set>
#include <stdexcept>

#include "tasks/layout.h"

namespace legate_fuse {

std::vector<legate::mapping::StoreMapping> FusedMapper::store_mappings(
    const legate::mapping::Task& task, const std::vector<legate::mapping::StoreTarget>& options)
{
  std::vector<legate::mapping::StoreMapping> mappings;
  if (task.num_scalars() <= 2 || options.empty()) {
    return mappings;
  }
  const auto scalar = task.scalar(2);
  const auto layout = parse_layout(scalar.ptr(), scalar.size());
  const auto target = options.front();
  for (const auto& product : layout.products) {
    for (const auto input : {product.first, product.second}) {
      mappings.push_back(legate::mapping::StoreMapping::default_mapping(task.input(input).data(),
                                                                        target, /*exact=*/true));
    }
    // Row by row, as BLAS writes it (cuPyNumeric's mapper asks the same of MATMUL's result).
    mappings.push_back(legate::mapping::StoreMapping::default_mapping(
        task.output(product.out).data(), target, /*exact=*/true,
        legate::mapping::DimOrdering::c_order()));
  }
  for (const auto& draw : layout.draws) {
    // Dense, row by row: a draw fills its block in memory order, as cuPyNumeric's task does in
    // the instance Legate's default mapping gives it (row-major).
    mappings.push_back(legate::mapping::StoreMapping::default_mapping(
        task.output(draw.out).data(), target, /*exact=*/true,
        legate::mapping::DimOrdering::c_order()));
  }
  return mappings;
}

std::optional<std::size_t> FusedMapper::allocation_pool_size(
    const legate::mapping::Task& /*task*/, legate::mapping::StoreTarget /*memory_kind*/)
{
  return 0;  // the FUSED task allocates no Legate buffer
}

legate::Scalar FusedMapper::tunable_value(legate::TunableID /*tunable_id*/)
{
  throw std::invalid_argument("legate-fuse: the FUSED task has no tunable values");
}

}  // namespace legate_fuse
