#include "tasks/fused_task.h"

#include <array>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "runtime/kernel_abi.h"
#include "runtime/kernel_registry.h"

static_assert(LEGATE_MAX_DIM <= LEGATE_FUSE_MAX_DIM, "kernel ABI supports fewer dimensions");

namespace legate_fuse {
namespace {

legate_fuse_array describe_block(const legate::PhysicalStore& store)
{
  legate_fuse_array array{};
  const legate::InlineAllocation allocation = store.get_inline_allocation();
  array.data                                = static_cast<char*>(allocation.ptr);
  // A 0-d store (a Future) has no strides: every point reads the same value.
  for (std::size_t d = 0; d < allocation.strides.size(); ++d) {
    array.strides[d] = static_cast<std::int64_t>(allocation.strides[d]);
  }
  return array;
}

// The iteration block is the domain of the first non-0-d store: all are aligned.
legate::Domain iteration_domain(const std::vector<legate::PhysicalStore>& stores)
{
  for (const auto& store : stores) {
    if (store.dim() > 0) {
      return store.domain();
    }
  }
  return stores.empty() ? legate::Domain{} : stores.front().domain();
}

}  // namespace

void FusedTask::cpu_variant(legate::TaskContext context)
{
  const auto path     = context.scalar(0).value<std::string>();
  const auto symbol   = context.scalar(1).value<std::string>();
  const void* scalars = context.num_scalars() > 2 ? context.scalar(2).ptr() : nullptr;

  std::vector<legate::PhysicalStore> stores;
  for (std::uint32_t i = 0; i < context.num_inputs(); ++i) {
    stores.push_back(context.input(i).data());
  }
  for (std::uint32_t i = 0; i < context.num_outputs(); ++i) {
    stores.push_back(context.output(i).data());
  }
  for (std::uint32_t i = 0; i < context.num_reductions(); ++i) {
    stores.push_back(context.reduction(i).data());
  }

  const legate::Domain domain = iteration_domain(stores);
  if (domain.empty()) {
    return;
  }
  const std::int32_t ndim = domain.get_dim();
  std::array<std::int64_t, LEGATE_FUSE_MAX_DIM> extents{};
  for (std::int32_t d = 0; d < ndim; ++d) {
    extents[d] = domain.hi()[d] - domain.lo()[d] + 1;
  }

  std::vector<legate_fuse_array> arrays;
  arrays.reserve(stores.size());
  for (const auto& store : stores) {
    arrays.push_back(describe_block(store));
  }

  const legate_fuse_kernel kernel = KernelRegistry::instance().lookup(path, symbol);
  kernel(ndim, extents.data(), arrays.data(), scalars);
}

}  // namespace legate_fuse
