#include "analysis/cut.h"

#include <algorithm>
#include <vector>

namespace legate_fuse::analysis {

namespace {

// Whether two tasks are the same step of a loop: the same operation on arguments of the same
// privileges, reductions, types and shapes (their stores are another iteration's).
bool same_step(const ir::Window& window, const ir::Task& a, const ir::Task& b)
{
  if (a.op != b.op || a.aligned != b.aligned || a.fused_alone != b.fused_alone ||
      a.draws != b.draws || a.args.size() != b.args.size()) {
    return false;
  }
  for (std::size_t i = 0; i < a.args.size(); ++i) {
    const auto& x  = a.args[i];
    const auto& y  = b.args[i];
    const auto& sx = window.stores[static_cast<std::size_t>(x.store)];
    const auto& sy = window.stores[static_cast<std::size_t>(y.store)];
    if (x.privilege != y.privilege || x.redop != y.redop || sx.dtype_class != sy.dtype_class ||
        sx.shape_class != sy.shape_class) {
      return false;
    }
  }
  return true;
}

}  // namespace

std::int32_t loop_period(const ir::Window& window)
{
  const auto n = static_cast<std::int32_t>(window.tasks.size());
  for (std::int32_t period = 1; 2 * period <= n; ++period) {
    bool repeats = true;
    for (std::int32_t t = 0; repeats && t + period < n; ++t) {
      repeats = same_step(window, window.tasks[static_cast<std::size_t>(t)],
                          window.tasks[static_cast<std::size_t>(t + period)]);
    }
    if (repeats) {
      return period;
    }
  }
  return 0;
}

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
  std::vector<std::int64_t> cost(static_cast<std::size_t>(n) + 1, 0);
  std::int64_t running = 0, least = -1;
  for (std::int32_t p = 0; p <= n; ++p) {
    running += delta[static_cast<std::size_t>(p)];
    cost[static_cast<std::size_t>(p)] = running;
    if (p >= earliest && (least < 0 || running < least)) {
      least = running;
    }
  }
  // A cut a whole number of loop iterations into the window, the cheapest such, if it costs
  // at most a sixteenth more than the cheapest cut: the next window then starts where this one
  // did in the loop, holds the same tasks on the next iterations' stores, and is planned from
  // this one's cached plan and kernels. Cutting at the latest cheapest task instead moves the
  // window's start along the loop by a few tasks each time: cuPyNumeric's LSTM example (19
  // tasks an iteration, its cuts' costs rising by one iteration's result each) was planned
  // anew for seven windows before its windows repeated. A window that starts inside an
  // iteration, where a cut would leave an iteration's temporaries crossing, is cut as before,
  // and the next starts where the cheap cuts are.
  if (const auto period = loop_period(window); period > 0 && least >= 0) {
    std::int32_t aligned = -1;
    for (std::int32_t p = n / period * period; p >= std::max(earliest, 1); p -= period) {
      if (aligned < 0 ||
          cost[static_cast<std::size_t>(p)] < cost[static_cast<std::size_t>(aligned)]) {
        aligned = p;
      }
    }
    if (aligned >= 0 && cost[static_cast<std::size_t>(aligned)] <= least + least / 16) {
      return aligned;
    }
  }
  for (std::int32_t p = n; p >= std::max(earliest, 0); --p) {
    if (cost[static_cast<std::size_t>(p)] == least) {
      return p;
    }
  }
  return n;
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
