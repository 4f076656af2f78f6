#include "analysis/cut.h"

#include <algorithm>
#include <vector>

namespace legate_fuse::analysis {

std::int32_t choose_cut(const ir::Window& window, std::int32_t earliest)
{
  const auto n     = static_cast<std::int32_t>(window.tasks.size());
  const auto roots = static_cast<std::size_t>(window.num_roots);
  std::vector<std::int32_t> first_write(roots, -1);
  std::vector<std::int64_t> weight(roots, 1);
  for (std::int32_t t = 0; t < n; ++t) {
    for (const auto& arg : window.tasks[static_cast<std::size_t>(t)].args) {
      const auto& store = window.stores[static_cast<std::size_t>(arg.store)];
      if (!ir::produces(arg.privilege) || store.root < 0) {
        continue;
      }
      const auto root = static_cast<std::size_t>(store.root);
      if (first_write[root] < 0) {
        first_write[root] = t;
        weight[root]      = std::max<std::int64_t>(1, store.bytes);
      }
    }
  }
  // cost[p]: bytes a cut after p tasks must allocate (a difference array over p).
  std::vector<std::int64_t> delta(static_cast<std::size_t>(n) + 2, 0);
  for (std::size_t root = 0; root < roots; ++root) {
    if (first_write[root] < 0) {
      continue;
    }
    const auto start = first_write[root] + 1;  // a cut after this write...
    const auto end   = window.root_live[root] ? n : window.root_last_task[root];  // ...to here
    if (start <= end) {
      delta[static_cast<std::size_t>(start)] += weight[root];
      delta[static_cast<std::size_t>(end) + 1] -= weight[root];
    }
  }
  std::int32_t best      = n;
  std::int64_t best_cost = -1, cost = 0;
  for (std::int32_t p = 0; p <= n; ++p) {
    cost += delta[static_cast<std::size_t>(p)];
    if (p >= earliest && (best_cost < 0 || cost <= best_cost)) {
      best      = p;
      best_cost = cost;
    }
  }
  return best;
}

ir::Window window_prefix(const ir::Window& window, std::int32_t count)
{
  count = std::clamp<std::int32_t>(count, 0, static_cast<std::int32_t>(window.tasks.size()));
  ir::Window prefix = window;
  prefix.tasks.resize(static_cast<std::size_t>(count));
  std::fill(prefix.root_last_task.begin(), prefix.root_last_task.end(), -1);
  for (std::int32_t t = 0; t < count; ++t) {
    for (const auto& arg : prefix.tasks[static_cast<std::size_t>(t)].args) {
      const auto root = prefix.stores[static_cast<std::size_t>(arg.store)].root;
      if (root >= 0) {
        prefix.root_last_task[static_cast<std::size_t>(root)] = t;
      }
    }
  }
  for (std::size_t root = 0; root < prefix.root_live.size(); ++root) {
    if (window.root_last_task[root] >= count) {
      prefix.root_live[root] = true;
    }
  }
  return prefix;
}

}  // namespace legate_fuse::analysis
