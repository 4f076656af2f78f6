#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "ir/store_desc.h"

namespace legate_fuse::ir {

// The elements of its root that a region-backed view addresses, as a box of the root's
// coordinates (bounds inclusive). A Legate store's storage is a region of the root's region
// tree, and Legion never renumbers a sub-region's points: a slice's storage keeps the root's
// coordinates, and the store's transform stack maps the store's points onto them. Two views of
// one root whose boxes are disjoint share no element, so tasks may read one while writing the
// other (C[t] and C[t - 1]).
struct RootBox {
  std::vector<std::int64_t> lo;
  std::vector<std::int64_t> hi;
};

// The box of `desc`, or nullopt when it cannot be known for sure: a Future, a view addressing
// no element, or a transform other than Shift, Project and Promote (Transpose, Delinearize...),
// which the caller must then take to overlap every other view of its root.
[[nodiscard]] std::optional<RootBox> root_box(const StoreDesc& desc);

// Whether two boxes of one root share no point (false for boxes of different dimensions).
[[nodiscard]] bool disjoint(const RootBox& a, const RootBox& b);

// Whether two views of one root, with their boxes (root_box), share no element for sure: of
// the same element type, with known boxes that are disjoint.
[[nodiscard]] bool apart(const StoreDesc& a, const std::optional<RootBox>& a_box,
                         const StoreDesc& b, const std::optional<RootBox>& b_box);

}  // namespace legate_fuse::ir
