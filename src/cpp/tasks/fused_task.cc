#include "tasks/fused_task.h"

#include <algorithm>
#include <array>
#include <cstdint>
#include <cstring>
#include <functional>
#include <string>
#include <vector>

#include "runtime/cuda_driver.h"
#include "runtime/kernel_abi.h"
#include "runtime/kernel_registry.h"
#include "runtime/kernel_threads.h"
#include "runtime/launch_parameter.h"
#include "tasks/layout.h"
#include "tasks/products.h"
#include "tasks/random_draws.h"
#include "tasks/row_calls.h"

static_assert(LEGATE_MAX_DIM <= LEGATE_FUSE_MAX_DIM, "kernel ABI supports fewer dimensions");

namespace legate_fuse {
namespace {

// The point task's stores in kernel order (inputs, outputs, reductions) and its iteration
// block.
struct Block {
  std::vector<legate_fuse_array> arrays;
  std::int32_t ndim{};
  std::array<std::int64_t, LEGATE_FUSE_MAX_DIM> lo{};
  std::array<std::int64_t, LEGATE_FUSE_MAX_DIM> extents{};
  std::int64_t volume{};
  std::int32_t launch_ndim{};  // before dimensions were merged
};

Layout task_layout(const legate::TaskContext& context)
{
  if (context.num_scalars() > 2) {
    const auto& scalar = context.scalar(2);
    return parse_layout(scalar.ptr(), scalar.size());
  }
  return default_layout(context.num_inputs(), context.num_outputs(), context.num_reductions());
}

legate::PhysicalStore slot_store(legate::TaskContext& context, const Slot& slot)
{
  switch (slot.source) {
    case Source::Input:
      return context.input(slot.index).data();
    case Source::Reduction:
      return context.reduction(slot.index).data();
    case Source::Output:
    case Source::Product:
      break;
  }
  return context.output(slot.index).data();
}

// The block of this point task: the intersection of its partitioned stores' domains. All are
// aligned, but a promoted (broadcast) store's domain spans the whole extent of each dimension
// it was promoted along, whatever the launch's tile: only the intersection is this point's. (A
// product's or a draw's result is written whole, by a task of one point: its domain is the
// group's whole space, as is every other store's; it may be the only one.)
Block iteration_block(const std::vector<legate::PhysicalStore>& stores,
                      const std::vector<legate::Domain>& domains)
{
  Block block;
  bool partitioned = false;
  for (std::size_t i = 0; i < stores.size(); ++i) {
    if (stores[i].dim() == 0) {
      continue;
    }
    const legate::Domain& domain = domains[i];
    if (!partitioned) {
      partitioned = true;
      block.ndim  = domain.get_dim();
      for (std::int32_t d = 0; d < block.ndim; ++d) {
        block.lo[d]      = domain.lo()[d];
        block.extents[d] = domain.hi()[d] - domain.lo()[d] + 1;
      }
      continue;
    }
    for (std::int32_t d = 0; d < block.ndim; ++d) {
      const std::int64_t lo = std::max<std::int64_t>(block.lo[d], domain.lo()[d]);
      const std::int64_t hi =
          std::min<std::int64_t>(block.lo[d] + block.extents[d] - 1, domain.hi()[d]);
      block.lo[d]      = lo;
      block.extents[d] = std::max<std::int64_t>(hi - lo + 1, 0);
    }
  }
  if (!partitioned) {
    // Only 0-d values (a scalar computation): one element.
    block.volume = stores.empty() ? 0 : 1;
    return block;
  }
  block.volume = 1;
  for (std::int32_t d = 0; d < block.ndim; ++d) {
    block.volume *= block.extents[d];
  }
  return block;
}

// `store`'s local memory as the kernel sees it: the address of the block's first element.
legate_fuse_array describe_block(const legate::PhysicalStore& store, const legate::Domain& domain,
                                 const Block& block)
{
  legate_fuse_array array{};
  const legate::InlineAllocation allocation = store.get_inline_allocation();
  array.data                                = static_cast<char*>(allocation.ptr);
  // A 0-d store (a Future) has no strides: every point reads the same value.
  if (store.dim() == 0) {
    return array;
  }
  // The allocation's pointer addresses the store's domain's first element.
  for (std::size_t d = 0; d < allocation.strides.size(); ++d) {
    array.strides[d] = static_cast<std::int64_t>(allocation.strides[d]);
    array.data += (block.lo[d] - domain.lo()[d]) * array.strides[d];
  }
  return array;
}

// The block with adjacent dimensions merged wherever every array steps through both as one
// (a dimension's stride is the next one's times its extent; broadcast ones, both zero), and
// dimensions of extent 1 dropped: kernels iterate rows of the innermost dimension, so a
// dense block becomes one long row. The order of the elements, hence of every reduction,
// is unchanged.
void coalesce(Block& block)
{
  std::int32_t kept = -1;  // the innermost dimension kept so far
  for (std::int32_t d = 0; d < block.ndim; ++d) {
    if (block.extents[d] == 1 && (kept >= 0 || d + 1 < block.ndim)) {
      continue;
    }
    const bool merges =
        kept >= 0 && std::all_of(block.arrays.begin(), block.arrays.end(), [&](const auto& array) {
          return array.strides[kept] == array.strides[d] * block.extents[d];
        });
    if (merges) {
      block.extents[kept] *= block.extents[d];
    } else {
      ++kept;
      block.extents[kept] = block.extents[d];
    }
    for (auto& array : block.arrays) {
      array.strides[kept] = array.strides[d];
    }
  }
  block.ndim = kept + 1;
}

Block local_block(legate::TaskContext& context, const Layout& layout)
{
  std::vector<legate::PhysicalStore> stores;
  stores.reserve(layout.slots.size());
  for (const auto& slot : layout.slots) {
    stores.push_back(slot_store(context, slot));
  }
  std::vector<legate::Domain> domains;
  domains.reserve(stores.size());
  for (const auto& store : stores) {
    domains.push_back(store.dim() == 0 ? legate::Domain{} : store.domain());
  }
  Block block = iteration_block(stores, domains);
  if (block.volume == 0) {
    return block;
  }
  block.arrays.reserve(stores.size());
  for (std::size_t i = 0; i < stores.size(); ++i) {
    block.arrays.push_back(describe_block(stores[i], domains[i], block));
  }
  block.launch_ndim = block.ndim;
  coalesce(block);
  return block;
}

// Task arguments: the kernel id (the content hash its process registered the kernel under; the
// same in every process) and the kernel's run-time scalars. Nothing path- or machine-specific.
std::string kernel_id(const legate::TaskContext& context)
{
  return context.scalar(0).value<std::string>();
}

// The kernel's `scalars` argument: the run-time scalars the task carries, then the block's
// lower corner in the launch's coordinates (runtime/kernel_abi.h).
std::vector<char> kernel_scalars(const legate::TaskContext& context, const Block& block)
{
  const std::size_t size = context.num_scalars() > 1 ? context.scalar(1).size() : 0;
  std::vector<char> bytes(size + sizeof(block.lo));
  if (size > 0) {
    std::memcpy(bytes.data(), context.scalar(1).ptr(), size);
  }
  std::memcpy(bytes.data() + size, block.lo.data(), sizeof(block.lo));
  return bytes;
}

// The parts a row call hands to the fused task's threads (runtime/row_call_abi.h), and the
// kernel to resume on each part's rows as they are computed, if any.
struct RowCallParts {
  legate_fuse_row_parts abi{};  // its context: this
  const KernelCall* kernel{};
  bool kernel_ran{};
};

void run_each_part(void* context, std::int64_t count, void (*part)(void*, std::int64_t), void* data)
{
  (void)context;
  KernelThreads::instance().run_each(count,
                                     [part, data](std::int64_t index) { part(data, index); });
}

void run_row_parts(void* context, std::int64_t count, std::int64_t rows_per_part,
                   void (*part)(void*, std::int64_t), void* data)
{
  auto& parts                                  = *static_cast<RowCallParts*>(context);
  const std::function<void(std::int64_t)> each = [part, data](std::int64_t index) {
    part(data, index);
  };
  if (parts.kernel != nullptr &&
      KernelThreads::instance().run_rows_and_resume(*parts.kernel, count, rows_per_part, each)) {
    parts.kernel_ran = true;
    return;
  }
  KernelThreads::instance().run_each(count, each);
}

// Runs a row call on this point's stores (its result's block is the point's block), and
// `kernel` on the rows of each of its parts as they are computed, where the routine computes
// them in parts of rows; returns whether the kernel ran.
bool make_row_call(legate::TaskContext& context, const RowCallSite& call, const KernelCall* kernel)
{
  std::vector<legate::PhysicalStore> stores;
  stores.reserve(call.stores.size());
  for (const auto& slot : call.stores) {
    stores.push_back(slot_store(context, slot));
  }
  RowCallParts parts;
  parts.abi.context  = &parts;
  parts.abi.run_each = &run_each_part;
  parts.abi.run_rows = &run_row_parts;
  parts.kernel       = kernel;
  row_call(call.name)(stores.data(), stores.size(), &parts.abi);
  return parts.kernel_ran;
}

// Runs the layout's row calls, and `kernel` (if not null) on the rows of their parts as they are
// computed, where a routine computes them in parts of rows; returns whether the kernel ran.
bool make_row_calls(legate::TaskContext& context, const Layout& layout, const KernelCall* kernel)
{
  bool kernel_ran = false;
  for (const auto& call : layout.calls) {
    kernel_ran = make_row_call(context, call, kernel) || kernel_ran;
  }
  return kernel_ran;
}

// Whether the kernel may run on the rows of the group's one row call's parts as they are
// computed (KernelThreads::run_rows_and_resume): it resumes on parts of its rows in order, its
// block is one-dimensional, in the launch's own dimension, and the call's result is read at
// the block's rows alone: its domain is the block's (the group reads it element by element,
// through the view the call writes: the analysis' rule 8).
bool resumes_on_call_rows(legate::TaskContext& context, const Layout& layout, const Block& block,
                          const KernelCall& call)
{
  if (layout.calls.size() != 1 || (call.kernel.split & LEGATE_FUSE_SPLIT_RESUMES) == 0 ||
      block.ndim != 1 || block.launch_ndim != 1) {
    return false;
  }
  const auto& slots = layout.calls.front().stores;
  const auto result = std::find_if(slots.begin(), slots.end(),
                                   [](const Slot& slot) { return slot.source == Source::Output; });
  if (result == slots.end()) {
    return false;
  }
  const legate::PhysicalStore store = slot_store(context, *result);
  if (store.dim() != 1) {
    return false;
  }
  const legate::Domain domain = store.domain();
  return domain.lo()[0] == block.lo[0] && domain.hi()[0] - domain.lo()[0] + 1 == block.extents[0];
}

}  // namespace

void FusedTask::cpu_variant(legate::TaskContext context)
{
  const Layout layout = task_layout(context);
  // Draws first: a product's factors are never a draw of its group (the analysis' rule 7).
  for (const auto& draw : layout.draws) {
    draw_random(draw, context.output(draw.out).data());
  }
  for (const auto& product : layout.products) {
    compute_product(context.input(product.first).data(), context.input(product.second).data(),
                    context.output(product.out).data());
  }
  const std::string id = kernel_id(context);
  if (id.empty()) {
    make_row_calls(context, layout, nullptr);
    return;  // a task that only draws random numbers
  }
  const Block block = local_block(context, layout);
  if (block.volume == 0) {
    make_row_calls(context, layout, nullptr);
    return;
  }
  const std::vector<char> scalars = kernel_scalars(context, block);
  KernelCall call;
  call.kernel     = KernelRegistry::instance().cpu(id);
  call.ndim       = block.ndim;
  call.extents    = block.extents.data();
  call.arrays     = block.arrays.data();
  call.num_arrays = block.arrays.size();
  call.scalars    = &scalars;
  // The corner follows the run-time scalars; a kernel reads it only in a one-dimensional
  // launch, whose merged outermost dimension is the launch's: any other runs whole.
  call.corner_offset = scalars.size() - sizeof(block.lo);
  if ((call.kernel.split & LEGATE_FUSE_SPLIT_MOVES_CORNER) != 0 && block.launch_ndim != 1) {
    call.kernel.split = 0;
  }
  const KernelCall* resumed = resumes_on_call_rows(context, layout, block, call) ? &call : nullptr;
  if (!make_row_calls(context, layout, resumed)) {
    KernelThreads::instance().run(call);
  }
}

void FusedTaskWithGpu::gpu_variant(legate::TaskContext context)
{
  // (Groups with products or random draws are never fused where Legate has GPUs: they are
  // cuPyNumeric's CPU task's library calls.)
  const auto [ptx_path, symbol] = KernelRegistry::instance().ptx(kernel_id(context));
  const Block block             = local_block(context, task_layout(context));
  if (block.volume == 0) {
    return;
  }
  std::vector<char> params  = cuda_launch_parameter(block.volume, block.ndim, block.extents.data(),
                                                    block.arrays, kernel_scalars(context, block));
  auto& driver              = CudaDriver::instance();
  const auto function       = driver.function(ptx_path, symbol);
  const std::int64_t blocks = cuda_blocks(block.volume);
  driver.launch(function, blocks, LEGATE_FUSE_CUDA_BLOCK_SIZE,
                reinterpret_cast<CudaDriver::CUstream>(context.get_task_stream()), params.data(),
                params.size());
}

}  // namespace legate_fuse
