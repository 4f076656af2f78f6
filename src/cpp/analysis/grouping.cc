#include "analysis/grouping.h"

#include <algorithm>
#include <optional>

#include "analysis/legality.h"

namespace legate_fuse::analysis {
namespace {

bool only_values(const ir::Window& window, const ir::Task& task)
{
  for (const auto& arg : task.args) {
    if (!window.stores[static_cast<std::size_t>(arg.store)].value) {
      return false;
    }
  }
  return true;
}

// The position of the first task of `group` that computes on 0-d values only and writes a
// value read after the group, when the group iterates over an array. Such a group launches
// over several points, each writing its own Future of the value: a later task on another
// point reads its own point's Future, not the group's one value (two CPUs: putmask read False).
std::optional<std::size_t> escaping_value(const ir::Window& window, const Group& group)
{
  if (window.one_point) {
    return std::nullopt;  // the one point writes it
  }
  bool iterates = false;
  for (const auto t : group.tasks) {
    iterates = iterates || !only_values(window, window.tasks[static_cast<std::size_t>(t)]);
  }
  if (!iterates) {
    return std::nullopt;
  }
  const auto end = group.tasks.back();
  for (std::size_t i = 0; i < group.tasks.size(); ++i) {
    const auto& task = window.tasks[static_cast<std::size_t>(group.tasks[i])];
    if (!only_values(window, task)) {
      continue;
    }
    for (const auto& arg : task.args) {
      const auto root =
          static_cast<std::size_t>(window.stores[static_cast<std::size_t>(arg.store)].root);
      if (ir::writes(arg.privilege) &&
          (window.root_live[root] || window.root_last_task[root] > end)) {
        return i;
      }
    }
  }
  return std::nullopt;
}

// Bytes of the arrays the tasks group[from, to) write that are accessed at or after task
// `after` and that the program does not reach: what those tasks, closing a group there, would
// write out for later tasks to read back (arrays the program reaches are written either way).
std::int64_t bytes_crossing(const ir::Window& window, const std::vector<std::int32_t>& group,
                            std::size_t from, std::size_t to, std::int32_t after)
{
  std::vector<bool> counted(static_cast<std::size_t>(window.num_roots), false);
  std::int64_t bytes = 0;
  for (auto i = from; i < to; ++i) {
    for (const auto& arg : window.tasks[static_cast<std::size_t>(group[i])].args) {
      const auto& store = window.stores[static_cast<std::size_t>(arg.store)];
      if (store.root < 0) {
        continue;  // unknown: such a task is never grouped
      }
      const auto root = static_cast<std::size_t>(store.root);
      if (ir::writes(arg.privilege) && !counted[root] && !window.root_live[root] &&
          window.root_last_task[root] >= after) {
        counted[root] = true;
        bytes += store.bytes;
      }
    }
  }
  return bytes;
}

// How many trailing tasks of `group` to move to the next group, where `blocked`, the task that
// closes the group, joins them (0: none). Greedy grouping keeps a task in the group that could
// take it even when it only feeds the next group (CG: the update of p, then 2 * p[1:-1] of
// the stencil, which the shifted views of p close): its result is then written out and read
// back instead of never allocated. Of the moves after which `blocked` may join the moved
// tasks, the one writing out the fewest bytes is taken, if fewer than keeping the group whole
// (the moved tasks are counted as if their group ended with `blocked`). At most
// kMaxMovedTasks are considered: the search rebuilds a group state per candidate.
constexpr std::size_t kMaxMovedTasks = 8;

std::size_t tasks_to_move(const ir::Window& window, const std::vector<std::int32_t>& group,
                          std::int32_t blocked)
{
  const auto& blocked_task = window.tasks[static_cast<std::size_t>(blocked)];
  const auto n             = group.size();
  auto best_bytes          = bytes_crossing(window, group, 0, n, blocked);
  std::size_t best         = 0;
  for (std::size_t count = 1; count < n && count <= kMaxMovedTasks && best_bytes > 0; ++count) {
    const auto first = n - count;
    const auto bytes = bytes_crossing(window, group, 0, first, group[first]) +
                       bytes_crossing(window, group, first, n, blocked + 1);
    if (bytes >= best_bytes) {
      continue;
    }
    GroupState moved{window};
    for (auto i = first; i < n; ++i) {
      moved.add(window.tasks[static_cast<std::size_t>(group[i])]);
    }
    if (!moved.why_not(blocked_task)) {
      best_bytes = bytes;
      best       = count;
    }
  }
  return best;
}

// Ends `group` before its task at `position`: that task and the ones after it leave the group
// (and its prologue).
void truncate(Group& group, std::size_t position)
{
  const auto first = group.tasks[position];
  group.tasks.resize(position);
  auto& prologue = group.prologue;
  prologue.erase(
      std::remove_if(prologue.begin(), prologue.end(), [&](std::int32_t t) { return t >= first; }),
      prologue.end());
}

}  // namespace

bool runs_fused(const ir::Window& window, const std::vector<std::int32_t>& tasks)
{
  return tasks.size() > 1 ||
         (tasks.size() == 1 && window.tasks[static_cast<std::size_t>(tasks[0])].fused_alone);
}

Plan group_tasks(const ir::Window& window)
{
  Plan plan;
  std::optional<GroupState> state;
  Group current;
  std::int32_t resume = -1;  // set by close: the task the scan goes on from

  auto close = [&](std::string reason) {
    // A task writing a value read after the group runs alone: the group ends before it, and
    // the scan goes on after it (tasks it had admitted are grouped again).
    std::optional<std::int32_t> alone;
    while (!current.tasks.empty()) {
      const auto position = escaping_value(window, current);
      if (!position) {
        break;
      }
      alone = current.tasks[*position];
      truncate(current, *position);
    }
    if (alone) {
      reason = "task " + std::to_string(*alone) +
               ": writes a 0-d value read after the group, which each point would write";
    }
    if (!current.tasks.empty()) {
      current.kind = runs_fused(window, current.tasks) ? Group::Kind::Fused : Group::Kind::Single;
      current.end_reason = std::move(reason);
      plan.groups.push_back(std::move(current));
    }
    if (alone) {
      Group single;
      single.kind       = Group::Kind::Single;
      single.tasks      = {*alone};
      single.prologue   = {*alone};
      single.end_reason = "runs alone: writes a 0-d value read after it";
      plan.groups.push_back(std::move(single));
      resume = *alone + 1;
    }
    current = Group{};
    state.reset();
  };

  const auto count = static_cast<std::int32_t>(window.tasks.size());
  for (std::int32_t index = 0; index < count; ++index) {
    const auto& task = window.tasks[static_cast<std::size_t>(index)];
    std::optional<std::string> reason;
    if (state) {
      reason = state->why_not(task);
    }
    if (reason) {
      const auto moved = tasks_to_move(window, current.tasks, index);
      if (moved > 0) {
        // The group ends before the moved tasks; the scan goes on from the first of them.
        const auto first = current.tasks[current.tasks.size() - moved];
        truncate(current, current.tasks.size() - moved);
        close("task " + std::to_string(index) + ": " + *reason + "; tasks from " +
              std::to_string(first) + " join it in the next group");
        index  = (resume >= 0 ? std::min(resume, first) : first) - 1;
        resume = -1;
        continue;
      }
      close("task " + std::to_string(index) + ": " + *reason);
      if (resume >= 0) {
        index  = resume - 1;
        resume = -1;
        continue;
      }
    }
    if (!task.liftable() || GroupState{window}.why_not(task)) {
      // Not fusible even on its own (opaque, unknown store, unaligned...).
      Group opaque;
      opaque.kind       = Group::Kind::Opaque;
      opaque.tasks      = {index};
      opaque.end_reason = *GroupState{window}.why_not(task);
      plan.groups.push_back(std::move(opaque));
      continue;
    }
    if (!state) {
      state.emplace(window);
    }
    state->add(task);
    current.tasks.push_back(index);
    if (only_values(window, task)) {
      current.prologue.push_back(index);
    }
    if (index + 1 == count) {
      close("end of window");
      if (resume >= 0) {
        index  = resume - 1;
        resume = -1;
      }
    }
  }
  close("end of window");
  return plan;
}

}  // namespace legate_fuse::analysis
