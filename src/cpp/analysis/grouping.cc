#include "analysis/grouping.h"

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

}  // namespace

Plan group_tasks(const ir::Window& window)
{
  Plan plan;
  std::optional<GroupState> state;
  Group current;

  auto close = [&](std::string reason) {
    if (!current.tasks.empty()) {
      current.kind       = current.tasks.size() > 1 ? Group::Kind::Fused : Group::Kind::Single;
      current.end_reason = std::move(reason);
      plan.groups.push_back(std::move(current));
    }
    current = Group{};
    state.reset();
  };

  for (std::int32_t index = 0; index < static_cast<std::int32_t>(window.tasks.size()); ++index) {
    const auto& task = window.tasks[static_cast<std::size_t>(index)];
    std::optional<std::string> reason;
    if (state) {
      reason = state->why_not(index);
    }
    if (reason) {
      close("task " + std::to_string(index) + ": " + *reason);
    }
    if (!task.liftable() || GroupState{window}.why_not(index)) {
      // Not fusible even on its own (opaque, unknown store, unaligned...).
      Group opaque;
      opaque.kind       = Group::Kind::Opaque;
      opaque.tasks      = {index};
      opaque.end_reason = *GroupState{window}.why_not(index);
      plan.groups.push_back(std::move(opaque));
      continue;
    }
    if (!state) {
      state.emplace(window);
    }
    state->add(index);
    current.tasks.push_back(index);
    if (only_values(window, task)) {
      current.prologue.push_back(index);
    }
  }
  close("end of window");
  return plan;
}

}  // namespace legate_fuse::analysis
