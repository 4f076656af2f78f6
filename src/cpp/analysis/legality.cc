#include "analysis/legality.h"

namespace legate_fuse::analysis {
namespace {

std::string arg_text(const ir::Arg& arg) { return "store " + std::to_string(arg.store); }

bool reduces(const ir::Task& task)
{
  for (const auto& arg : task.args) {
    if (arg.privilege == ir::Privilege::Reduce) {
      return true;
    }
  }
  return false;
}

}  // namespace

const ir::StoreRef& GroupState::elements_of(const ir::Arg& arg) const
{
  const auto& store = window_.stores[static_cast<std::size_t>(arg.store)];
  if (arg.privilege == ir::Privilege::WriteWhole && store.unpromoted >= 0) {
    return window_.stores[static_cast<std::size_t>(store.unpromoted)];
  }
  return store;
}

std::optional<std::string> GroupState::check_shape(const ir::Task& task) const
{
  std::int32_t shape = -1;
  for (const auto& arg : task.args) {
    if (arg.privilege == ir::Privilege::ReadWhole || arg.privilege == ir::Privilege::ReadCall) {
      continue;  // read whole, or through an image, whatever the group's iteration
    }
    const auto& store = elements_of(arg);
    if (store.value) {
      continue;
    }
    if (store.empty) {
      // Its point tasks run no element, and a fused kernel computes the group's 0-d values
      // in its element loop: they would never be computed.
      return "an empty " + arg_text(arg);
    }
    if (shape == -1) {
      shape = store.shape_class;
    } else if (shape != store.shape_class) {
      return "arguments of different shapes";
    }
  }
  if (shape == -1) {
    // Computes on 0-d values only: joins as a prologue, which an element loop repeats. That
    // is harmless for element-wise operations, not for a reduction (each repetition, and
    // each point task, would contribute once more).
    if (reduces(task) && shape_class_ != -1) {
      return "reduction of 0-d values in a group that iterates over an array";
    }
    return std::nullopt;
  }
  if (reduces_values_) {
    return "the group reduces 0-d values, which an element loop would repeat";
  }
  if (!task.aligned) {
    return "arguments not aligned";
  }
  if (shape_class_ != -1 && shape != shape_class_) {
    return "iteration shape differs from the group's";
  }
  return std::nullopt;
}

std::optional<std::string> GroupState::check_row_call(const ir::Task& task)
{
  std::size_t results = 0, reads = 0;
  for (const auto& arg : task.args) {
    results += arg.privilege == ir::Privilege::WriteCall ? 1 : 0;
    reads += arg.privilege == ir::Privilege::ReadCall ? 1 : 0;
  }
  if (results + reads == 0) {
    return std::nullopt;
  }
  if (results != 1 || results + reads != task.args.size()) {
    return "a row call without exactly one result, or with arguments of the kernel";
  }
  return std::nullopt;
}

std::optional<std::string> GroupState::check_arg(const ir::Arg& arg) const
{
  const auto& store = elements_of(arg);
  const auto root   = store.root;
  const auto view   = store.view;

  // A product runs before the kernel, on its inputs' memory, as one argument of the task.
  const bool accessed =
      written_views_.count(root) != 0 || read_views_.count(root) != 0 || reduced_.count(root) != 0;
  if (arg.privilege == ir::Privilege::ReadWhole) {
    if (accessed) {
      return "reads " + arg_text(arg) + " whole, which the group accesses";  // rule 7
    }
    return std::nullopt;
  }
  if (arg.privilege == ir::Privilege::ReadCall) {
    if (written_views_.count(root) != 0 || reduced_.count(root) != 0) {
      return "a row call reads " + arg_text(arg) + ", which the group writes";  // rule 8
    }
    return std::nullopt;
  }
  if (ir::produces(arg.privilege) && call_reads_.count(root) != 0) {
    return "writes " + arg_text(arg) + ", which a row call of the group reads";  // rule 8
  }
  if (arg.privilege == ir::Privilege::WriteCall && accessed) {
    return "a row call writes " + arg_text(arg) + ", which the group accesses";  // rule 8
  }
  if (read_whole_.count(root) != 0) {
    return "accesses " + arg_text(arg) + ", which the group reads whole";  // rule 7
  }
  if (ir::produces(arg.privilege) && products_.count(root) != 0) {
    return "writes " + arg_text(arg) + ", whose product the group computes";  // rule 7
  }
  if (arg.privilege == ir::Privilege::WriteWhole && (accessed || read_whole_.count(root) != 0)) {
    return "computes a product into " + arg_text(arg) + ", which the group accesses";  // rule 7
  }

  if (const auto reduced = reduced_.find(root); reduced != reduced_.end()) {
    const bool same_reduction = arg.privilege == ir::Privilege::Reduce &&
                                reduced->second.first == view &&
                                reduced->second.second == arg.redop;
    if (!same_reduction) {
      return "accesses the reduction target " + arg_text(arg) + " of the group";  // rule 5
    }
    return std::nullopt;
  }
  if (arg.privilege == ir::Privilege::Reduce &&
      (written_views_.count(root) != 0 || read_views_.count(root) != 0)) {
    return "reduces into " + arg_text(arg) + ", which the group accesses";  // rule 5
  }
  // Another view of the root may share elements with this one, unless the two are apart.
  const auto overlaps = [&](std::int32_t other) {
    return other != view && !window_.views_apart(other, view);
  };
  if (const auto written = written_views_.find(root); written != written_views_.end()) {
    for (const auto written_view : written->second) {
      if (overlaps(written_view)) {
        return "accesses " + arg_text(arg) + " through another view of a root the group writes";
      }
    }
  }
  if (ir::writes(arg.privilege)) {
    if (const auto read = read_views_.find(root); read != read_views_.end()) {
      for (const auto read_view : read->second) {
        if (overlaps(read_view)) {
          return "writes " + arg_text(arg) + " through another view of a root the group reads";
        }
      }
    }
  }
  return std::nullopt;
}

std::optional<std::string> GroupState::why_not(const ir::Task& task) const
{
  if (!task.liftable()) {
    return "opaque task";  // rule 1
  }
  for (const auto& arg : task.args) {
    const auto& store = window_.stores[static_cast<std::size_t>(arg.store)];
    if (!store.known) {
      return "unknown " + arg_text(arg);
    }
    if (arg.privilege == ir::Privilege::WriteWhole && store.unpromoted < 0) {
      return "its product is not read in the window";  // rule 7
    }
    // A row call's stores are partitioned as regions, by the group or through images.
    const bool row_call =
        arg.privilege == ir::Privilege::ReadCall || arg.privilege == ir::Privilege::WriteCall;
    if (row_call && (store.future || store.empty)) {
      return "a row call's " + arg_text(arg) + " is a Future or empty";  // rule 8
    }
  }
  if (auto reason = check_row_call(task)) {  // rule 8
    return reason;
  }
  if (auto reason = check_shape(task)) {  // rule 2
    return reason;
  }
  for (const auto& arg : task.args) {  // rules 3, 4, 5
    if (auto reason = check_arg(arg)) {
      return reason;
    }
  }
  return std::nullopt;
}

void GroupState::add(const ir::Task& task)
{
  ++tasks_;
  bool partitioned = false;
  for (const auto& arg : task.args) {
    partitioned = partitioned || !window_.stores[static_cast<std::size_t>(arg.store)].value;
  }
  reduces_values_ = reduces_values_ || (!partitioned && reduces(task));
  for (const auto& arg : task.args) {
    const auto& store = elements_of(arg);
    if (arg.privilege == ir::Privilege::ReadWhole) {
      read_whole_.insert(store.root);
      continue;
    }
    if (arg.privilege == ir::Privilege::ReadCall) {
      call_reads_.insert(store.root);
      continue;
    }
    if (arg.privilege == ir::Privilege::WriteWhole || arg.privilege == ir::Privilege::WriteCall) {
      products_.insert(store.root);
    }
    if (!store.value && shape_class_ == -1) {
      shape_class_ = store.shape_class;
    }
    if (arg.privilege == ir::Privilege::Reduce) {
      reduced_.emplace(store.root, std::make_pair(store.view, arg.redop));
      continue;
    }
    if (ir::reads(arg.privilege)) {
      read_views_[store.root].insert(store.view);
    }
    if (ir::writes(arg.privilege)) {
      written_views_[store.root].insert(store.view);
    }
  }
}

}  // namespace legate_fuse::analysis
