#include "ir/window.h"

#include <algorithm>
#include <numeric>
#include <optional>
#include <stdexcept>
#include <string_view>
#include <unordered_map>

#include "ir/view_box.h"

namespace legate_fuse::ir {
namespace {

// Numbers the classes of an equivalence over a window's stores (those whose descriptions were
// read) by first appearance. Each store is compared with the first store of every class found
// so far: no key is built or kept for a window of a few dozen classes, the common case. Past
// LINEAR_CLASSES classes, a hash table of their first stores takes over.
class ClassNumbering {
 public:
  using Same = bool (*)(const StoreDesc&, const StoreDesc&);
  using Hash = std::size_t (*)(const StoreDesc&);

  ClassNumbering(const std::vector<std::optional<StoreDesc>>& descs, Same same, Hash hash)
      : descs_{descs}, same_{same}, hash_{hash}, table_{0, HashOf{this}, SameAs{this}}
  {
  }
  ClassNumbering(const ClassNumbering&)            = delete;  // (the table refers to it)
  ClassNumbering& operator=(const ClassNumbering&) = delete;

  std::int32_t operator()(std::size_t store)
  {
    if (table_.empty()) {
      for (std::size_t number = 0; number < firsts_.size(); ++number) {
        if (same_(*descs_[firsts_[number]], *descs_[store])) {
          return static_cast<std::int32_t>(number);
        }
      }
      firsts_.push_back(store);
      if (firsts_.size() > LINEAR_CLASSES) {
        for (std::size_t number = 0; number < firsts_.size(); ++number) {
          table_.emplace(firsts_[number], static_cast<std::int32_t>(number));
        }
      }
      return static_cast<std::int32_t>(firsts_.size() - 1);
    }
    const auto [it, inserted] =
        table_.try_emplace(store, static_cast<std::int32_t>(firsts_.size()));
    if (inserted) {
      firsts_.push_back(store);
    }
    return it->second;
  }

  // The first store of each class, by number.
  [[nodiscard]] const std::vector<std::size_t>& firsts() const { return firsts_; }
  [[nodiscard]] std::int32_t size() const { return static_cast<std::int32_t>(firsts_.size()); }

 private:
  static constexpr std::size_t LINEAR_CLASSES = 32;

  struct HashOf {
    const ClassNumbering* self;
    std::size_t operator()(std::size_t store) const { return self->hash_(*self->descs_[store]); }
  };
  struct SameAs {
    const ClassNumbering* self;
    bool operator()(std::size_t a, std::size_t b) const
    {
      return self->same_(*self->descs_[a], *self->descs_[b]);
    }
  };

  const std::vector<std::optional<StoreDesc>>& descs_;
  Same same_;
  Hash hash_;
  std::vector<std::size_t> firsts_;
  std::unordered_map<std::size_t, std::int32_t, HashOf, SameAs> table_;
};

bool same_shape(const StoreDesc& a, const StoreDesc& b) { return a.shape == b.shape; }

// Whether a transform stack (Legate's text, "A >> B") is made of Shifts and Projects only:
// the views slicing and indexing give, which a store's slice() and project() rebuild.
bool only_slices(std::string_view transform)
{
  while (!transform.empty()) {
    if (transform.rfind("Shift(", 0) != 0 && transform.rfind("Project(", 0) != 0) {
      return false;
    }
    const auto next = transform.find(" >> ");
    transform.remove_prefix(next == std::string_view::npos ? transform.size() : next + 4);
  }
  return true;
}

// `desc` without its last transform when that is a promotion ("Promote(extra_dim: d, ...)",
// printed first by Legate): the store it was promoted from.
std::optional<StoreDesc> without_promotion(const StoreDesc& desc)
{
  static constexpr std::string_view kPromote = "Promote(extra_dim: ";
  const std::string_view transform           = desc.transform;
  if (desc.kind != StoreDesc::Kind::Region || transform.rfind(kPromote, 0) != 0) {
    return std::nullopt;
  }
  const auto digits = transform.substr(kPromote.size());
  std::size_t dim   = 0;
  std::size_t used  = 0;
  while (used < digits.size() && digits[used] >= '0' && digits[used] <= '9') {
    dim = dim * 10 + static_cast<std::size_t>(digits[used++] - '0');
  }
  if (used == 0 || dim >= desc.shape.size()) {
    return std::nullopt;
  }
  StoreDesc base  = desc;
  const auto next = transform.find(" >> ");
  base.transform  = next == std::string_view::npos ? "" : std::string{transform.substr(next + 4)};
  base.shape.erase(base.shape.begin() + static_cast<std::ptrdiff_t>(dim));
  return base;
}

std::size_t shape_hash(const StoreDesc& desc)
{
  std::size_t hash = desc.shape.size();
  for (const auto extent : desc.shape) {
    hash = hash * 1000003 + static_cast<std::size_t>(extent);
  }
  return hash;
}

bool same_dtype(const StoreDesc& a, const StoreDesc& b) { return a.dtype == b.dtype; }

std::size_t dtype_hash(const StoreDesc& desc) { return std::hash<std::string>{}(desc.dtype); }

// Past this many views of one root in a window, its views are not compared pairwise (a loop
// over rows, say): they all stay one memory class.
constexpr std::size_t kMaxComparedViews = 256;

// The memory class of each store (-1: unknown), numbered by first appearance: the root of a
// store, split into classes of its views that may share elements. Two views of one root are in
// one class when their boxes of the root (view_box.h) intersect or either box is unknown,
// and classes are closed under that: views of different classes never share an element, so the
// analysis treats each class as memory of its own (C[t] written while C[t - 1] is read).
std::vector<std::int32_t> memory_classes(
    const std::vector<std::optional<StoreDesc>>& descs, const std::vector<StoreRef>& stores,
    std::int32_t num_roots, std::int32_t num_views,
    std::vector<std::pair<std::int32_t, std::int32_t>>& apart_views)
{
  std::vector<std::int32_t> parent(static_cast<std::size_t>(num_views));
  std::iota(parent.begin(), parent.end(), 0);
  const auto find = [&](std::int32_t view) {
    while (parent[static_cast<std::size_t>(view)] != view) {
      auto& up = parent[static_cast<std::size_t>(view)];
      up       = parent[static_cast<std::size_t>(up)];
      view     = up;
    }
    return view;
  };
  std::vector<std::vector<std::int32_t>> views_of(static_cast<std::size_t>(num_roots));
  std::vector<const StoreDesc*> first_desc(static_cast<std::size_t>(num_views), nullptr);
  for (std::size_t store = 0; store < stores.size(); ++store) {
    const auto& ref = stores[store];
    if (!ref.known || first_desc[static_cast<std::size_t>(ref.view)] != nullptr) {
      continue;
    }
    first_desc[static_cast<std::size_t>(ref.view)] = &*descs[store];
    views_of[static_cast<std::size_t>(ref.root)].push_back(ref.view);
  }
  std::vector<std::optional<RootBox>> boxes;
  for (const auto& views : views_of) {
    if (views.size() > kMaxComparedViews) {  // one class, without comparing
      for (const auto view : views) {
        parent[static_cast<std::size_t>(find(view))] = find(views.front());
      }
      continue;
    }
    // (A root seen through one view, the common case, reads no transform.)
    boxes.clear();
    for (std::size_t i = 0; i < views.size() && views.size() > 1; ++i) {
      boxes.push_back(root_box(*first_desc[static_cast<std::size_t>(views[i])]));
    }
    for (std::size_t i = 1; i < views.size(); ++i) {
      for (std::size_t j = 0; j < i; ++j) {
        const auto& a = *first_desc[static_cast<std::size_t>(views[i])];
        const auto& b = *first_desc[static_cast<std::size_t>(views[j])];
        if (!apart(a, boxes[i], b, boxes[j])) {
          parent[static_cast<std::size_t>(find(views[i]))] = find(views[j]);
        } else {
          apart_views.emplace_back(std::min(views[i], views[j]), std::max(views[i], views[j]));
        }
      }
    }
  }
  std::vector<std::int32_t> number(static_cast<std::size_t>(num_views), -1);
  std::vector<std::int32_t> classes(stores.size(), -1);
  std::int32_t next = 0;
  for (std::size_t store = 0; store < stores.size(); ++store) {
    if (!stores[store].known) {
      continue;
    }
    auto& found = number[static_cast<std::size_t>(find(stores[store].view))];
    if (found < 0) {
      found = next++;
    }
    classes[store] = found;
  }
  return classes;
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
    const auto flags = next();
    task.aligned     = (flags & 1) != 0;
    task.fused_alone = (flags & 2) != 0;
    task.draws       = (flags & 4) != 0;
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
      if (privilege < 0 || privilege > static_cast<std::int64_t>(Privilege::WriteCall)) {
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
                    const std::function<bool(const std::string&)>& is_live_root,
                    const std::function<bool(const std::string&)>& is_foreign_root)
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
  // Unread (unknown) and unbound stores get no class: their tasks stay opaque.
  std::vector<std::optional<StoreDesc>> descs;
  descs.reserve(descriptions.size());
  for (const auto& text : descriptions) {
    auto desc = parse_store_desc(text);
    if (desc && desc->unbound) {
      desc.reset();
    }
    descs.push_back(std::move(desc));
  }
  Window window;
  ClassNumbering roots{descs, same_root, root_hash};
  ClassNumbering views{descs, same_identity, identity_hash};
  ClassNumbering shapes{descs, same_shape, shape_hash};
  ClassNumbering dtypes{descs, same_dtype, dtype_hash};
  window.stores.reserve(descriptions.size());
  for (std::size_t store = 0; store < descriptions.size(); ++store) {
    StoreRef ref;
    ref.description = descriptions[store];
    if (const auto& desc = descs[store]) {
      ref.known = true;
      // A 0-d store in a region (NumPy memory attached with asarray) is data a kernel
      // addresses in its element loop, like any array; only a Future is read once, as a value.
      ref.value       = desc->shape.empty() && desc->kind == StoreDesc::Kind::Future;
      ref.future      = desc->kind == StoreDesc::Kind::Future;
      ref.dtype       = desc->dtype;
      ref.root        = roots(store);
      ref.view        = views(store);
      ref.shape_class = shapes(store);
      ref.dtype_class = dtypes(store);
      ref.bytes       = desc->volume() * static_cast<std::int64_t>(dtype_size(desc->dtype));
      ref.empty       = !ref.value && desc->volume() == 0;
      ref.whole =
          desc->kind == StoreDesc::Kind::Region && desc->transform.empty() && desc->level == 0;
      ref.sliced = desc->kind == StoreDesc::Kind::Region && only_slices(desc->transform);
    }
    window.stores.push_back(std::move(ref));
  }
  for (std::size_t store = 0; store < descs.size(); ++store) {
    if (!descs[store]) {
      continue;
    }
    if (const auto base = without_promotion(*descs[store])) {
      for (std::size_t other = 0; other < descs.size(); ++other) {
        if (descs[other] && same_identity(*base, *descs[other])) {
          window.stores[store].unpromoted = static_cast<std::int32_t>(other);
          break;
        }
      }
    }
  }
  // A draw's result is read as it is written (no promotion).
  for (const auto& task : tasks) {
    for (const auto& arg : task.args) {
      auto& store = window.stores[static_cast<std::size_t>(arg.store)];
      if (task.draws && arg.privilege == Privilege::WriteWhole && store.unpromoted < 0) {
        store.unpromoted = arg.store;
      }
    }
  }
  // Liveness is known per array (its root); every memory class of a live root is live.
  std::vector<bool> array_live(static_cast<std::size_t>(roots.size()), false);
  std::vector<bool> array_foreign(static_cast<std::size_t>(roots.size()), !is_foreign_root);
  if (is_live_root || is_foreign_root) {
    // One key per root, built only here: the program's arrays are known by it.
    const auto& firsts = roots.firsts();
    for (std::size_t root = 0; root < firsts.size(); ++root) {
      const auto key   = descs[firsts[root]]->root_key();
      array_live[root] = is_live_root && is_live_root(key);
      if (is_foreign_root) {
        array_foreign[root] = is_foreign_root(key);
      }
    }
  }
  for (const auto store : live_stores) {
    if (!in_range(store)) {
      throw std::invalid_argument("legate-fuse: live store index out of range");
    }
    const auto root = window.stores[static_cast<std::size_t>(store)].root;
    if (root >= 0) {  // (a store whose description could not be read has no root)
      array_live[static_cast<std::size_t>(root)] = true;
    }
  }
  // From here on a store's root is its memory class: the analysis needs no other.
  const auto classes =
      memory_classes(descs, window.stores, roots.size(), views.size(), window.apart_views);
  // Legality asks only about views of one class: pairs that ended in two classes are dropped,
  // which keeps them out of the plan cache's key (a loop over rows makes many).
  std::vector<std::int32_t> class_of_view(static_cast<std::size_t>(views.size()), -1);
  for (std::size_t store = 0; store < window.stores.size(); ++store) {
    if (window.stores[store].known) {
      class_of_view[static_cast<std::size_t>(window.stores[store].view)] = classes[store];
    }
  }
  auto& apart = window.apart_views;
  apart.erase(std::remove_if(apart.begin(), apart.end(),
                             [&](const std::pair<std::int32_t, std::int32_t>& pair) {
                               return class_of_view[static_cast<std::size_t>(pair.first)] !=
                                      class_of_view[static_cast<std::size_t>(pair.second)];
                             }),
              apart.end());
  std::sort(apart.begin(), apart.end());
  window.num_views = views.size();
  window.num_roots = 0;
  for (const auto memory : classes) {
    window.num_roots = std::max(window.num_roots, memory + 1);
  }
  window.root_live.assign(static_cast<std::size_t>(window.num_roots), false);
  window.root_foreign.assign(static_cast<std::size_t>(window.num_roots), false);
  for (std::size_t store = 0; store < window.stores.size(); ++store) {
    auto& ref = window.stores[store];
    if (ref.known) {
      if (array_live[static_cast<std::size_t>(ref.root)]) {
        window.root_live[static_cast<std::size_t>(classes[store])] = true;
      }
      if (array_foreign[static_cast<std::size_t>(ref.root)]) {
        window.root_foreign[static_cast<std::size_t>(classes[store])] = true;
      }
      ref.root = classes[store];
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

bool Window::views_apart(std::int32_t a, std::int32_t b) const
{
  if (a == b) {
    return false;
  }
  return std::binary_search(apart_views.begin(), apart_views.end(),
                            std::make_pair(std::min(a, b), std::max(a, b)));
}

}  // namespace legate_fuse::ir
