#include "ir/window.h"

#include <stdexcept>
#include <unordered_map>

namespace legate_fuse::ir {
namespace {

// Numbers keys by first appearance.
class Interner {
 public:
  std::int32_t operator()(const std::string& key)
  {
    const auto [it, inserted] = ids_.try_emplace(key, static_cast<std::int32_t>(ids_.size()));
    return it->second;
  }
  [[nodiscard]] std::int32_t size() const { return static_cast<std::int32_t>(ids_.size()); }
  [[nodiscard]] const std::unordered_map<std::string, std::int32_t>& ids() const { return ids_; }

 private:
  std::unordered_map<std::string, std::int32_t> ids_;
};

std::string shape_key(const StoreDesc& desc)
{
  std::string key;
  for (const auto extent : desc.shape) {
    key += std::to_string(extent) + ",";
  }
  return key;
}

}  // namespace

std::vector<Task> decode_tasks(const std::vector<std::int64_t>& encoded, std::size_t num_stores)
{
  std::vector<Task> tasks;
  std::size_t pos = 0;
  auto next       = [&]() -> std::int64_t {
    if (pos >= encoded.size()) {
      throw std::invalid_argument("legate-fuse: truncated task encoding");
    }
    return encoded[pos++];
  };
  while (pos < encoded.size()) {
    Task task;
    task.op          = static_cast<std::int32_t>(next());
    task.aligned     = next() != 0;
    const auto nargs = next();
    if (nargs < 0) {
      throw std::invalid_argument("legate-fuse: negative argument count");
    }
    for (std::int64_t i = 0; i < nargs; ++i) {
      Arg arg;
      const auto store     = next();
      const auto privilege = next();
      arg.redop            = static_cast<std::int32_t>(next());
      if (store < 0 || static_cast<std::size_t>(store) >= num_stores) {
        throw std::invalid_argument("legate-fuse: store index out of range");
      }
      if (privilege < 0 || privilege > static_cast<std::int64_t>(Privilege::Reduce)) {
        throw std::invalid_argument("legate-fuse: unknown privilege");
      }
      arg.store     = static_cast<std::int32_t>(store);
      arg.privilege = static_cast<Privilege>(privilege);
      task.args.push_back(arg);
    }
    tasks.push_back(std::move(task));
  }
  return tasks;
}

Window build_window(const std::vector<std::string>& descriptions,
                    const std::vector<std::int32_t>& live_stores, std::vector<Task> tasks,
                    const std::function<bool(const std::string&)>& is_live_root)
{
  const auto in_range = [&](std::int64_t store) {
    return store >= 0 && static_cast<std::size_t>(store) < descriptions.size();
  };
  for (const auto& task : tasks) {
    for (const auto& arg : task.args) {
      if (!in_range(arg.store)) {
        throw std::invalid_argument("legate-fuse: store index out of range");
      }
    }
  }
  Window window;
  Interner roots, views, shapes, dtypes;
  window.stores.reserve(descriptions.size());
  for (const auto& text : descriptions) {
    StoreRef ref;
    ref.description = text;
    const auto desc = parse_store_desc(text);
    if (desc && !desc->unbound) {
      ref.known = true;
      // A 0-d store in a region (NumPy memory attached with asarray) is data a kernel
      // addresses in its element loop, like any array; only a Future is read once, as a value.
      ref.value       = desc->shape.empty() && desc->kind == StoreDesc::Kind::Future;
      ref.future      = desc->kind == StoreDesc::Kind::Future;
      ref.dtype       = desc->dtype;
      ref.root        = roots(desc->root_key());
      ref.view        = views(desc->identity_key());
      ref.shape_class = shapes(shape_key(*desc));
      ref.dtype_class = dtypes(desc->dtype);
      ref.bytes       = desc->volume() * static_cast<std::int64_t>(dtype_size(desc->dtype));
      ref.empty       = !ref.value && desc->volume() == 0;
    }
    window.stores.push_back(std::move(ref));
  }
  window.num_roots = roots.size();
  window.num_views = views.size();
  window.root_live.assign(static_cast<std::size_t>(window.num_roots), false);
  if (is_live_root) {
    for (const auto& [key, root] : roots.ids()) {
      if (is_live_root(key)) {
        window.root_live[static_cast<std::size_t>(root)] = true;
      }
    }
  }
  for (const auto store : live_stores) {
    if (!in_range(store)) {
      throw std::invalid_argument("legate-fuse: live store index out of range");
    }
    const auto root = window.stores[static_cast<std::size_t>(store)].root;
    if (root >= 0) {  // (a store whose description could not be read has no root)
      window.root_live[static_cast<std::size_t>(root)] = true;
    }
  }
  window.tasks = std::move(tasks);
  window.root_last_task.assign(static_cast<std::size_t>(window.num_roots), -1);
  for (std::int32_t t = 0; t < static_cast<std::int32_t>(window.tasks.size()); ++t) {
    for (const auto& arg : window.tasks[static_cast<std::size_t>(t)].args) {
      const auto root = window.stores[static_cast<std::size_t>(arg.store)].root;
      if (root >= 0) {
        window.root_last_task[static_cast<std::size_t>(root)] = t;
      }
    }
  }
  return window;
}

}  // namespace legate_fuse::ir
