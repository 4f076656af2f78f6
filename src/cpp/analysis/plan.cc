#include "analysis/plan.h"

#include <sstream>

namespace legate_fuse::analysis {
namespace {

std::string list(const std::vector<std::int32_t>& values)
{
  std::string text = "[";
  for (std::size_t i = 0; i < values.size(); ++i) {
    text += (i ? ", " : "") + std::to_string(values[i]);
  }
  return text + "]";
}

}  // namespace

const char* kind_name(Group::Kind kind)
{
  switch (kind) {
    case Group::Kind::Fused:
      return "fused";
    case Group::Kind::Single:
      return "single";
    case Group::Kind::Opaque:
      return "opaque";
  }
  return "?";
}

std::vector<std::int64_t> group_bytes(const ir::Window& window, const Plan& plan)
{
  std::vector<std::int64_t> bytes;
  bytes.reserve(plan.groups.size());
  for (const auto& group : plan.groups) {
    std::int64_t sum = 0;
    for (const auto store : group.temporaries) {
      sum += window.stores[static_cast<std::size_t>(store)].bytes;
    }
    bytes.push_back(sum);
  }
  return bytes;
}

std::string describe(const Plan& plan, const std::vector<std::int64_t>& group_bytes)
{
  std::ostringstream out;
  for (std::size_t g = 0; g < plan.groups.size(); ++g) {
    const auto& group = plan.groups[g];
    out << "group " << g << " " << kind_name(group.kind) << " tasks " << list(group.tasks);
    if (!group.dead_tasks.empty()) {
      out << " dead " << list(group.dead_tasks);
    }
    if (!group.prologue.empty()) {
      out << " prologue " << list(group.prologue);
    }
    if (!group.temporaries.empty()) {
      out << " temporaries " << list(group.temporaries);
      if (g < group_bytes.size()) {
        out << " (" << group_bytes[g] << " bytes)";
      }
    }
    out << " -- ended: " << group.end_reason << "\n";
  }
  for (const auto& shared : plan.shared_storage) {
    out << "store " << shared.store << " runs in the memory of store " << shared.owner << "\n";
  }
  return out.str();
}

}  // namespace legate_fuse::analysis
