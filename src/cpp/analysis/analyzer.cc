#include "analysis/analyzer.h"

#include "analysis/grouping.h"
#include "analysis/kernel_builder.h"
#include "analysis/storage_sharing.h"
#include "analysis/temporaries.h"

namespace legate_fuse::analysis {

std::vector<std::int64_t> signature(const ir::Window& window)
{
  std::vector<std::int64_t> key;
  key.reserve(window.stores.size() * 8 + window.tasks.size() * 12 + window.root_live.size() + 2);
  key.push_back(static_cast<std::int64_t>(window.stores.size()));
  for (const auto& store : window.stores) {
    // Every fact of a store the legality rules read (an empty store never fuses).
    key.push_back(store.known ? (store.value ? 2 : 1) : 0);
    key.push_back(store.empty ? 1 : 0);
    key.push_back(store.root);
    key.push_back(store.view);
    key.push_back(store.shape_class);
    key.push_back(store.dtype_class);
    key.push_back((store.whole ? 1 : 0) | (store.sliced ? 2 : 0));
    key.push_back(store.unpromoted);
  }
  key.push_back(static_cast<std::int64_t>(window.tasks.size()));
  for (const auto& task : window.tasks) {
    key.push_back(task.op);
    key.push_back((task.aligned ? 1 : 0) | (task.fused_alone ? 2 : 0) | (task.draws ? 4 : 0));
    key.push_back(static_cast<std::int64_t>(task.args.size()));
    for (const auto& arg : task.args) {
      key.push_back(arg.store);
      key.push_back(static_cast<std::int64_t>(arg.privilege));
      key.push_back(arg.redop);
    }
  }
  for (std::size_t root = 0; root < window.root_live.size(); ++root) {
    const bool foreign = root < window.root_foreign.size() && window.root_foreign[root];
    key.push_back((window.root_live[root] ? 1 : 0) | (foreign ? 2 : 0));
  }
  key.push_back(static_cast<std::int64_t>(window.spare_stores.size()));
  for (const auto spare : window.spare_stores) {
    key.push_back(spare);
  }
  // Whether a launch is of one point (grouping writes 0-d values read after a group then).
  key.push_back(window.one_point ? 1 : 0);
  // Which views of one memory class are apart (legality rules 3 and 4 read it).
  key.push_back(static_cast<std::int64_t>(window.apart_views.size()));
  for (const auto& [a, b] : window.apart_views) {
    key.push_back(a);
    key.push_back(b);
  }
  return key;
}

std::size_t VectorHash::operator()(const std::vector<std::int64_t>& key) const noexcept
{
  // FNV-1a over the 64-bit words.
  std::uint64_t hash = 1469598103934665603ULL;
  for (const auto word : key) {
    hash ^= static_cast<std::uint64_t>(word);
    hash *= 1099511628211ULL;
  }
  return static_cast<std::size_t>(hash);
}

Plan plan_window(const ir::Window& window)
{
  Plan plan = group_tasks(window);
  resolve_liveness(window, plan);
  share_storage(window, plan);
  return plan;
}

std::int32_t Analyzer::op_id(const std::string& name)
{
  const auto [it, inserted] =
      op_ids_.try_emplace(name, static_cast<std::int32_t>(op_names_.size()));
  if (inserted) {
    op_names_.push_back(name);
  }
  return it->second;
}

Analyzer::Result Analyzer::analyze(const ir::Window& window, bool use_cache)
{
  auto planned = [&] {
    Plan plan = plan_window(window);
    for (auto& group : plan.groups) {
      attach_kernel(window, op_names_, group);
    }
    return plan;
  };
  if (!use_cache) {
    auto plan = std::make_shared<const Plan>(planned());
    return Result{plan, group_bytes(window, *plan), false};
  }
  // The plan is cached with its kernels, which read, beyond what the signature holds, each
  // store's dtype and whether it is a Future.
  auto key = signature(window);
  for (const auto& store : window.stores) {
    const auto dtype =
        dtype_ids_.try_emplace(store.dtype, static_cast<std::int32_t>(dtype_ids_.size()));
    key.push_back(dtype.first->second);
    key.push_back(store.future ? 1 : 0);
  }
  // Byte counts depend on shapes, which the signature leaves out: counted for each window.
  if (auto hit = cache_.find(key); hit != cache_.end()) {
    return Result{hit->second, group_bytes(window, *hit->second), true};
  }
  Plan plan     = planned();
  plan.cache_id = next_cache_id_++;
  auto shared   = std::make_shared<const Plan>(std::move(plan));
  if (cache_.size() >= capacity_) {
    cache_.clear();  // programs rarely have that many distinct windows; start again
  }
  cache_.emplace(std::move(key), shared);
  return Result{shared, group_bytes(window, *shared), false};
}

}  // namespace legate_fuse::analysis
