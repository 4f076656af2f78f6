#include "analysis/temporaries.h"

#include <algorithm>
#include <array>
#include <unordered_map>
#include <unordered_set>

#include "analysis/grouping.h"

namespace legate_fuse::analysis {
namespace {

using RootSet = std::unordered_set<std::int32_t>;

const ir::StoreRef& store_of(const ir::Window& window, const ir::Arg& arg)
{
  return window.stores[static_cast<std::size_t>(arg.store)];
}

// Removes dead tasks (backwards: a task lives if something live needs one of its results).
void remove_dead_tasks(const ir::Window& window, const RootSet& live_after, Group& group)
{
  RootSet needed = live_after;
  std::vector<std::int32_t> live;
  for (auto it = group.tasks.rbegin(); it != group.tasks.rend(); ++it) {
    const auto& task     = window.tasks[static_cast<std::size_t>(*it)];
    bool produces_needed = task.draws;  // a draw advances its generator: never dead
    for (const auto& arg : task.args) {
      if (ir::produces(arg.privilege) && needed.count(store_of(window, arg).root)) {
        produces_needed = true;
      }
    }
    if (!produces_needed) {
      group.dead_tasks.push_back(*it);
      continue;
    }
    live.push_back(*it);
    for (const auto& arg : task.args) {
      if (ir::reads(arg.privilege)) {
        needed.insert(store_of(window, arg).root);
      }
    }
  }
  std::reverse(live.begin(), live.end());
  std::reverse(group.dead_tasks.begin(), group.dead_tasks.end());
  group.tasks    = std::move(live);
  auto& prologue = group.prologue;
  prologue.erase(std::remove_if(prologue.begin(), prologue.end(),
                                [&](std::int32_t t) {
                                  return std::find(group.dead_tasks.begin(), group.dead_tasks.end(),
                                                   t) != group.dead_tasks.end();
                                }),
                 prologue.end());
}

// Adds `arg` to the fused task's arguments unless one of its view and direction is there (a
// row call's reads apart from the kernel's: partitioned otherwise); returns the store that
// argument stands for.
std::int32_t add_arg(std::vector<FusedArg>& args,
                     std::unordered_map<std::int64_t, std::size_t>& index, const ir::Window& window,
                     const ir::Arg& arg, ir::Privilege privilege)
{
  const auto view      = store_of(window, arg).view;
  const auto direction = privilege == ir::Privilege::ReadCall ? 2 : ir::reads(privilege) ? 0 : 1;
  const auto key       = (static_cast<std::int64_t>(view) << 2) | direction;
  if (const auto found = index.find(key); found != index.end()) {
    return args[found->second].store;
  }
  index.emplace(key, args.size());
  args.push_back(FusedArg{arg.store, privilege, arg.redop});
  return arg.store;
}

// Groups are consecutive runs of tasks, so a root is accessed after a group exactly when its
// last access comes later.
// Resolves `group`; `kept_root` (>= 0): a root written in the group kept as if live after it.
void resolve_group(const ir::Window& window, Group& group, std::int32_t kept_root)
{
  std::int32_t group_end = -1;
  for (const auto task : group.tasks) {
    group_end = std::max(group_end, task);
  }
  // Roots written in the group, with the first store writing each (its representative).
  std::unordered_map<std::int32_t, std::int32_t> written;
  for (const auto task : group.tasks) {
    for (const auto& arg : window.tasks[static_cast<std::size_t>(task)].args) {
      if (ir::produces(arg.privilege)) {
        written.emplace(store_of(window, arg).root, arg.store);
      }
    }
  }
  RootSet live_after;
  if (kept_root >= 0) {
    live_after.insert(kept_root);
  }
  for (const auto& [root, store] : written) {
    if (window.root_live[static_cast<std::size_t>(root)] ||
        window.root_last_task[static_cast<std::size_t>(root)] > group_end) {
      live_after.insert(root);
    }
  }
  remove_dead_tasks(window, live_after, group);
  const bool fused = runs_fused(window, group.tasks);

  // Walk the live tasks in order: reads of a view before the group writes it come from memory
  // (a view apart from those the group writes always does: legality allows no other).
  RootSet written_live, read_from_memory, products;
  std::unordered_set<std::int32_t> written_views;
  std::unordered_map<std::int64_t, std::size_t> arg_index;
  for (const auto task : group.tasks) {
    const auto& args = window.tasks[static_cast<std::size_t>(task)].args;
    for (const auto& arg : args) {
      const auto& store = store_of(window, arg);
      const auto root   = store.root;
      if (ir::reads(arg.privilege) && written_views.count(store.view) == 0) {
        read_from_memory.insert(root);
        const bool by_routine =
            arg.privilege == ir::Privilege::ReadWhole || arg.privilege == ir::Privilege::ReadCall;
        add_arg(group.args, arg_index, window, arg,
                by_routine ? arg.privilege : ir::Privilege::Read);
      }
    }
    for (const auto& arg : args) {
      if (!ir::produces(arg.privilege)) {
        continue;
      }
      const auto& store = store_of(window, arg);
      const auto root   = store.root;
      written_live.insert(root);
      if (arg.privilege == ir::Privilege::WriteCall) {
        // Computed before the kernel on the point's block, which the kernel reads (legality:
        // the root's first access in the group).
        products.insert(root);
        written_views.insert(store.view);
        RowCall call{task, {}};
        for (const auto& call_arg : args) {
          call.stores.push_back(add_arg(group.args, arg_index, window, call_arg,
                                        call_arg.privilege == ir::Privilege::WriteCall
                                            ? call_arg.privilege
                                            : ir::Privilege::ReadCall));
        }
        group.calls.push_back(std::move(call));
        continue;
      }
      if (arg.privilege == ir::Privilege::WriteWhole) {
        // Computed before the kernel, into the memory of the view without the promotion, which
        // is the argument the kernel reads (legality: the store's only view the group has
        // seen).
        products.insert(root);
        ir::Arg result = arg;
        result.store   = store.unpromoted;
        written_views.insert(store_of(window, result).view);
        std::array<std::int32_t, 3> product{
            add_arg(group.args, arg_index, window, result, arg.privilege), -1, -1};
        std::size_t next = 1;
        for (const auto& read : args) {
          if (read.privilege == ir::Privilege::ReadWhole && next < product.size()) {
            product[next++] = add_arg(group.args, arg_index, window, read, read.privilege);
          }
        }
        if (window.tasks[static_cast<std::size_t>(task)].draws) {
          group.draws.push_back({product[0], task});
        } else {
          group.products.push_back(product);
        }
        continue;
      }
      written_views.insert(store.view);
      if (live_after.count(root) != 0) {
        const auto privilege =
            arg.privilege == ir::Privilege::Reduce ? ir::Privilege::Reduce : ir::Privilege::Write;
        add_arg(group.args, arg_index, window, arg, privilege);
      }
    }
  }
  // Never allocated: results nothing observes, unless a task that runs as built writes them.
  for (const auto& [root, store] : written) {
    const bool run_as_built = !fused && written_live.count(root) != 0;
    if (live_after.count(root) == 0 && read_from_memory.count(root) == 0 && !run_as_built &&
        products.count(root) == 0) {
      group.temporaries.push_back(store);
    }
  }
  std::sort(group.temporaries.begin(), group.temporaries.end());
  group.kind = fused ? Group::Kind::Fused : Group::Kind::Single;
  if (!fused) {
    group.args.clear();
    group.products.clear();
    group.draws.clear();
    group.calls.clear();
  }
  // The kernel's arrays in the order it takes them: inputs (products' and row calls' results
  // among them, last), then outputs, then reductions, each in order of first use; then what
  // only products and row calls read.
  const auto rank = [](ir::Privilege privilege) {
    switch (privilege) {
      case ir::Privilege::Read:
        return 0;
      case ir::Privilege::WriteWhole:
      case ir::Privilege::WriteCall:
        return 1;
      case ir::Privilege::Write:
      case ir::Privilege::ReadWrite:
        return 2;
      case ir::Privilege::Reduce:
        return 3;
      case ir::Privilege::ReadWhole:
      case ir::Privilege::ReadCall:
        break;
    }
    return 4;
  };
  std::stable_sort(group.args.begin(), group.args.end(), [&](const FusedArg& a, const FusedArg& b) {
    return rank(a.privilege) < rank(b.privilege);
  });
}

// A fused task iterates over the domain of its partitioned stores: a group that iterates over
// an array (a task of it outside the prologue) needs one among its arguments. Where every array
// it touches is a temporary (`sum(arange(n))`: the range is never allocated, the sum is a 0-d
// value), the first array it writes stays allocated: its shape is the group's.
std::int32_t root_for_iteration_space(const ir::Window& window, const Group& group)
{
  if (group.kind != Group::Kind::Fused) {
    return -1;
  }
  for (const auto& arg : group.args) {
    if (!store_of(window, ir::Arg{arg.store}).value) {
      return -1;
    }
  }
  for (const auto task : group.tasks) {
    if (std::find(group.prologue.begin(), group.prologue.end(), task) != group.prologue.end()) {
      continue;
    }
    for (const auto& arg : window.tasks[static_cast<std::size_t>(task)].args) {
      const auto& store = store_of(window, arg);
      if (ir::writes(arg.privilege) && !store.value) {
        return store.root;
      }
    }
  }
  return -1;
}

}  // namespace

void resolve_liveness(const ir::Window& window, Plan& plan)
{
  for (auto& group : plan.groups) {
    if (group.kind == Group::Kind::Opaque) {
      continue;
    }
    const Group unresolved = group;
    resolve_group(window, group, -1);
    if (const auto root = root_for_iteration_space(window, group); root >= 0) {
      group = unresolved;
      resolve_group(window, group, root);
    }
  }
}

}  // namespace legate_fuse::analysis
