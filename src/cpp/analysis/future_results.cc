#include "analysis/future_results.h"

#include <algorithm>
#include <utility>

namespace legate_fuse::analysis {
namespace {

int future_results(const ir::Window& window, const Group& group)
{
  int count = 0;
  for (const auto& arg : group.args) {
    if (arg.privilege != ir::Privilege::Read &&
        window.stores[static_cast<std::size_t>(arg.store)].future) {
      ++count;
    }
  }
  return count;
}

}  // namespace

void split_multiple_future_results(const ir::Window& window, Plan& plan)
{
  std::vector<Group> groups;
  groups.reserve(plan.groups.size());
  for (auto& group : plan.groups) {
    if (group.kind != Group::Kind::Fused || future_results(window, group) <= 1) {
      groups.push_back(std::move(group));
      continue;
    }
    std::vector<std::int32_t> tasks = group.tasks;
    tasks.insert(tasks.end(), group.dead_tasks.begin(), group.dead_tasks.end());
    std::sort(tasks.begin(), tasks.end());
    for (const auto task : tasks) {
      Group single;
      single.kind       = Group::Kind::Single;
      single.tasks      = {task};
      single.end_reason = "the group would return more than one Future";
      groups.push_back(std::move(single));
    }
  }
  plan.groups = std::move(groups);
}

}  // namespace legate_fuse::analysis
