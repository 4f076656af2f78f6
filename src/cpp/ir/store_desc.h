#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace legate_fuse::ir {

// What the analysis needs to know of a Legate LogicalStore, read from the description Legate
// itself prints for it (`LogicalStore::to_string()`, Python `str(store)`):
//   Store(3) {shape: [2], transform: Shift(dim: 0, offset: -2), type: float64,
//             storage: Storage(5) {kind: Region, level: 2, region: (7, (15, 1), 6), field: 10000}}
// The data of a region-backed store lives in field `field` of region tree `tree`, whatever
// sub-region (slice) the store's storage names; a Future-backed store's data is its storage.
struct StoreDesc {
  enum class Kind { Region, Future };

  std::int64_t store_id{};
  bool unbound{};
  std::vector<std::int64_t> shape;  // empty for 0-d stores
  std::string transform;            // canonical transform stack, "" when none
  std::string dtype;
  std::int64_t storage_id{};
  Kind kind{Kind::Region};
  std::int32_t level{};
  // Region-backed stores only:
  std::int64_t tree_id{-1};
  std::int64_t index_space{-1};
  std::int64_t index_space_tag{-1};
  std::int64_t field_space{-1};
  std::int64_t field_id{-1};

  // Identifies the memory: equal for every view of the same data, different for data that
  // cannot overlap.
  [[nodiscard]] std::string root_key() const;
  // Identifies the elements addressed: equal only when every point task of an aligned launch
  // sees the same elements through both stores.
  [[nodiscard]] std::string view_key() const;
  // The store's identity for the analysis and the kernel's arguments: its view key, except
  // that every view of a Future (one element: promoted or broadcast at most) addresses that
  // element, so all of them are one.
  [[nodiscard]] std::string identity_key() const;
  [[nodiscard]] std::int64_t volume() const;
};

// Equal keys without building them: whether root_key(), identity_key() are equal for two
// descriptions, and hashes that agree with it (a window compares its stores' keys several
// times per store, and building their strings cost more than parsing the descriptions).
[[nodiscard]] bool same_root(const StoreDesc& a, const StoreDesc& b);
[[nodiscard]] bool same_identity(const StoreDesc& a, const StoreDesc& b);
[[nodiscard]] std::size_t root_hash(const StoreDesc& desc);
[[nodiscard]] std::size_t identity_hash(const StoreDesc& desc);

// Returns nullopt when `text` is not in the expected format: the caller must then treat the
// store as unknown (never guess).
std::optional<StoreDesc> parse_store_desc(std::string_view text);

// Size in bytes of one element of a dtype as Legate names it ("float64", "int32", "bool"...);
// 0 when unknown.
std::size_t dtype_size(std::string_view dtype);

}  // namespace legate_fuse::ir
