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

}  // namespace

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
      current.tasks.resize(*position);
    }
    if (alone) {
      auto& prologue = current.prologue;
      prologue.erase(std::remove_if(prologue.begin(), prologue.end(),
                                    [&](std::int32_t t) { return t >= *alone; }),
                     prologue.end());
      reason = "task " + std::to_string(*alone) +
               ": writes a 0-d value read after the group, which each point would write";
    }
    if (!current.tasks.empty()) {
      current.kind       = current.tasks.size() > 1 ? Group::Kind::Fused : Group::Kind::Single;
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
