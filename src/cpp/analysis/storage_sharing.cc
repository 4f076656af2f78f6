#include "analysis/storage_sharing.h"

#include <algorithm>
#include <map>
#include <set>
#include <utility>
#include <vector>

namespace legate_fuse::analysis {
namespace {

struct RootUse {
  std::int32_t first_group{-1};
  std::int32_t last_group{-1};
  bool shareable{true};  // its memory may be another's, or given to another
  bool first_access_writes{};
  // Its contents are read: it keeps its own memory, given to another after its last access.
  bool gives_only{};
  std::int32_t store{-1};  // the first store of the root in the window
  std::int32_t whole{-1};  // a store of all of it, if the window has one
};

// Whether a root's memory is not Legate's own (Window::root_foreign; so when not told).
bool foreign_memory(const ir::Window& window, std::size_t root)
{
  return root >= window.root_foreign.size() || static_cast<bool>(window.root_foreign[root]);
}

// Marks the root of a store as not shareable.
void pin_store(const ir::Window& window, std::int32_t store, std::vector<RootUse>& uses)
{
  const auto root = window.stores[static_cast<std::size_t>(store)].root;
  if (root >= 0) {
    uses[static_cast<std::size_t>(root)].shareable = false;
  }
}

// Marks every root a list of tasks touches as not shareable.
void pin_roots(const ir::Window& window, const std::vector<std::int32_t>& tasks,
               std::vector<RootUse>& uses)
{
  for (const auto task : tasks) {
    for (const auto& arg : window.tasks[static_cast<std::size_t>(task)].args) {
      pin_store(window, arg.store, uses);
    }
  }
}

// The whole store of an array written whole through a promotion of it (a product's result,
// as cuPyNumeric promotes it along the dimension the product sums over), else -1.
std::int32_t whole_under_promotion(const ir::Window& window, const ir::Arg& arg)
{
  const auto& ref = window.stores[static_cast<std::size_t>(arg.store)];
  if (arg.privilege != ir::Privilege::WriteWhole || ref.whole || ref.unpromoted < 0) {
    return -1;
  }
  return window.stores[static_cast<std::size_t>(ref.unpromoted)].whole ? ref.unpromoted : -1;
}

// First and last group of each root, whether its first access writes it whole without reading
// it, and whether anything rules it out.
std::vector<RootUse> root_uses(const ir::Window& window, const Plan& plan)
{
  std::vector<RootUse> uses(static_cast<std::size_t>(window.num_roots));
  for (std::int32_t g = 0; g < static_cast<std::int32_t>(plan.groups.size()); ++g) {
    const auto& group = plan.groups[static_cast<std::size_t>(g)];
    pin_roots(window, group.dead_tasks, uses);
    if (group.kind == Group::Kind::Opaque) {
      pin_roots(window, group.tasks, uses);
      continue;
    }
    for (const auto store : group.temporaries) {
      pin_store(window, store, uses);
    }
    for (const auto task : group.tasks) {
      const auto& args = window.tasks[static_cast<std::size_t>(task)].args;
      for (const auto& arg : args) {
        const auto& ref = window.stores[static_cast<std::size_t>(arg.store)];
        if (!ref.known) {
          continue;
        }
        auto& use           = uses[static_cast<std::size_t>(ref.root)];
        const auto promoted = whole_under_promotion(window, arg);
        if (!(ref.whole || ref.sliced || promoted >= 0) || ref.future || ref.empty) {
          use.shareable = false;
        }
        if (use.first_group < 0) {  // this task is the first to touch the root
          use.first_group = g;
          // (whole when its first access writes it; a product's result, the array itself)
          use.store   = promoted >= 0 ? promoted : arg.store;
          bool writes = false, other = false;
          for (const auto& same : args) {
            const auto& same_ref = window.stores[static_cast<std::size_t>(same.store)];
            if (same_ref.root == ref.root) {
              // (A random draw writes its result whole too: WriteWhole of a whole store; a
              // product, WriteWhole of its result promoted.)
              const bool writes_whole =
                  (same.privilege == ir::Privilege::Write ||
                   same.privilege == ir::Privilege::WriteWhole) &&
                  (same_ref.whole || whole_under_promotion(window, same) >= 0);
              (writes_whole ? writes : other) = true;
            }
          }
          use.first_access_writes = writes && !other;
        }
        use.last_group = g;
        if (ref.whole && use.whole < 0) {
          use.whole = arg.store;  // (a root read first is given away through it)
        }
      }
    }
  }
  for (std::size_t root = 0; root < uses.size(); ++root) {
    auto& use             = uses[root];
    const bool foreign    = foreign_memory(window, root);
    const bool dead_after = use.first_group >= 0 && !window.root_live[root];
    const bool whole      = use.whole >= 0;
    if (whole && !use.first_access_writes) {
      use.store = use.whole;  // read first: given away as all of it, its takers' views over it
    }
    use.gives_only = use.shareable && dead_after && !use.first_access_writes && !foreign && whole;
    use.shareable  = use.shareable && dead_after && use.first_access_writes;
  }
  return uses;
}

}  // namespace

void share_storage(const ir::Window& window, Plan& plan)
{
  auto uses          = root_uses(window, plan);
  const auto foreign = [&](std::int32_t root) {
    return foreign_memory(window, static_cast<std::size_t>(root));
  };
  // Per root, the store whose memory it runs in; memory free for reuse, by shape and type.
  std::vector<std::int32_t> owner(uses.size(), -1);
  std::map<std::pair<std::int32_t, std::int32_t>, std::vector<std::int32_t>> free_memory;
  std::vector<std::vector<std::int32_t>> starting(plan.groups.size()), ending(plan.groups.size());
  for (std::int32_t root = 0; root < static_cast<std::int32_t>(uses.size()); ++root) {
    const auto& use = uses[static_cast<std::size_t>(root)];
    if (use.shareable) {
      starting[static_cast<std::size_t>(use.first_group)].push_back(root);
      ending[static_cast<std::size_t>(use.last_group)].push_back(root);
    } else if (use.gives_only) {  // its own memory, free once its last group has run
      owner[static_cast<std::size_t>(root)] = use.store;
      ending[static_cast<std::size_t>(use.last_group)].push_back(root);
    }
  }
  const auto kind_of = [&](std::int32_t root) {
    const auto& ref = window.stores[static_cast<std::size_t>(uses[root].store)];
    return std::make_pair(ref.shape_class, ref.dtype_class);
  };
  // Memory free from the start: spare stores no task touches, whole, Legate's own. Those no
  // array of this window takes are let go after it, not handed on again: carried from window
  // to window, the spares nothing took piled up (a shallow-water loop cut between its steps
  // kept three arrays more at every window, until the program's next read).
  std::set<std::int32_t> untaken_spares;
  for (const auto spare : window.spare_stores) {
    const auto& ref = window.stores[static_cast<std::size_t>(spare)];
    if (!ref.known || !ref.whole || ref.future || ref.empty || foreign(ref.root) ||
        window.root_live[static_cast<std::size_t>(ref.root)] ||
        uses[static_cast<std::size_t>(ref.root)].first_group >= 0) {
      continue;
    }
    uses[static_cast<std::size_t>(ref.root)].store = spare;
    owner[static_cast<std::size_t>(ref.root)]      = spare;
    free_memory[kind_of(ref.root)].push_back(spare);
    untaken_spares.insert(spare);
  }
  for (std::size_t g = 0; g < plan.groups.size(); ++g) {
    for (const auto root : starting[g]) {
      auto& free = free_memory[kind_of(root)];
      if (free.empty()) {
        owner[static_cast<std::size_t>(root)] = uses[static_cast<std::size_t>(root)].store;
      } else {  // the memory freed last: the likeliest still in cache
        owner[static_cast<std::size_t>(root)] = free.back();
        untaken_spares.erase(free.back());
        free.pop_back();
      }
    }
    // Free only after this group's new roots are placed: a root ending here is still in use
    // by the group's own task.
    for (const auto root : ending[g]) {
      free_memory[kind_of(root)].push_back(owner[static_cast<std::size_t>(root)]);
    }
  }
  for (const auto& [kind, owners] : free_memory) {
    for (const auto store : owners) {
      if (!foreign(window.stores[static_cast<std::size_t>(store)].root) &&
          untaken_spares.count(store) == 0) {
        plan.free_at_end.push_back(store);
      }
    }
  }
  std::sort(plan.free_at_end.begin(), plan.free_at_end.end());
  for (std::int32_t store = 0; store < static_cast<std::int32_t>(window.stores.size()); ++store) {
    const auto& ref = window.stores[static_cast<std::size_t>(store)];
    if (!ref.known) {
      continue;
    }
    const auto mine = owner[static_cast<std::size_t>(ref.root)];
    if (mine >= 0 && mine != uses[static_cast<std::size_t>(ref.root)].store) {
      plan.shared_storage.push_back(SharedStorage{store, mine});
    }
  }
}

}  // namespace legate_fuse::analysis
