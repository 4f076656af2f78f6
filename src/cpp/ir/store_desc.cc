#include "ir/store_desc.h"

#include <charconv>
#include <unordered_map>

namespace legate_fuse::ir {
namespace {

// A cursor over the description; every step returns false on a mismatch.
class Cursor {
 public:
  explicit Cursor(std::string_view text) : text_{text} {}

  bool literal(std::string_view expected)
  {
    if (text_.substr(pos_, expected.size()) != expected) {
      return false;
    }
    pos_ += expected.size();
    return true;
  }

  bool integer(std::int64_t& value)
  {
    const char* begin = text_.data() + pos_;
    const char* end   = text_.data() + text_.size();
    auto [ptr, error] = std::from_chars(begin, end, value);
    if (error != std::errc{}) {
      return false;
    }
    pos_ += static_cast<std::size_t>(ptr - begin);
    return true;
  }

  // Text up to the first occurrence of `delimiter` (consumed, not returned).
  bool until(std::string_view delimiter, std::string& out)
  {
    const auto found = text_.find(delimiter, pos_);
    if (found == std::string_view::npos) {
      return false;
    }
    out.assign(text_.substr(pos_, found - pos_));
    pos_ = found + delimiter.size();
    return true;
  }

  // Like `until`, but up to the last occurrence of `delimiter`.
  bool until_last(std::string_view delimiter, std::string& out)
  {
    const auto found = text_.rfind(delimiter);
    if (found == std::string_view::npos || found < pos_) {
      return false;
    }
    out.assign(text_.substr(pos_, found - pos_));
    pos_ = found + delimiter.size();
    return true;
  }

  [[nodiscard]] bool at_end() const { return pos_ == text_.size(); }

 private:
  std::string_view text_;
  std::size_t pos_{};
};

bool parse_shape(Cursor& cursor, StoreDesc& desc)
{
  if (cursor.literal("(unbound)")) {
    desc.unbound = true;
    return true;
  }
  if (!cursor.literal("[")) {
    return false;
  }
  if (cursor.literal("]")) {
    return true;
  }
  while (true) {
    std::int64_t extent{};
    if (!cursor.integer(extent) || extent < 0) {
      return false;
    }
    desc.shape.push_back(extent);
    if (cursor.literal("]")) {
      return true;
    }
    if (!cursor.literal(", ")) {
      return false;
    }
  }
}

bool parse_storage(Cursor& cursor, StoreDesc& desc)
{
  if (!cursor.integer(desc.storage_id) || !cursor.literal(") {kind: ")) {
    return false;
  }
  if (cursor.literal("Region")) {
    desc.kind = StoreDesc::Kind::Region;
  } else if (cursor.literal("Future")) {
    desc.kind = StoreDesc::Kind::Future;
  } else {
    return false;
  }
  std::int64_t level{};
  if (!cursor.literal(", level: ") || !cursor.integer(level)) {
    return false;
  }
  desc.level = static_cast<std::int32_t>(level);
  if (desc.kind == StoreDesc::Kind::Future) {
    return cursor.literal("}}") && cursor.at_end();
  }
  if (!cursor.literal(", region: ")) {
    return false;
  }
  if (cursor.literal("unbound}}")) {
    desc.unbound = true;
    return cursor.at_end();
  }
  return cursor.literal("(") && cursor.integer(desc.tree_id) && cursor.literal(", (") &&
         cursor.integer(desc.index_space) && cursor.literal(", ") &&
         cursor.integer(desc.index_space_tag) && cursor.literal("), ") &&
         cursor.integer(desc.field_space) && cursor.literal("), field: ") &&
         cursor.integer(desc.field_id) && cursor.literal("}}") && cursor.at_end();
}

}  // namespace

std::optional<StoreDesc> parse_store_desc(std::string_view text)
{
  StoreDesc desc;
  Cursor cursor{text};
  if (!cursor.literal("Store(") || !cursor.integer(desc.store_id) ||
      !cursor.literal(") {shape: ") || !parse_shape(cursor, desc)) {
    return std::nullopt;
  }
  if (cursor.literal(", transform: ")) {
    if (!cursor.until(", type: ", desc.transform)) {
      return std::nullopt;
    }
  } else if (!cursor.literal(", type: ")) {
    return std::nullopt;
  }
  // A type name may itself contain punctuation; the storage part is always last.
  if (!cursor.until_last(", storage: Storage(", desc.dtype) || desc.dtype.empty()) {
    return std::nullopt;
  }
  if (!parse_storage(cursor, desc)) {
    return std::nullopt;
  }
  return desc;
}

std::string StoreDesc::root_key() const
{
  if (kind == Kind::Future) {
    return "F" + std::to_string(storage_id);
  }
  return "R" + std::to_string(tree_id) + "." + std::to_string(field_id);
}

std::string StoreDesc::view_key() const
{
  std::string key = root_key();
  key += "@" + std::to_string(index_space) + "|" + transform + "|" + dtype + "|";
  for (const auto extent : shape) {
    key += std::to_string(extent) + ",";
  }
  return key;
}

std::string StoreDesc::identity_key() const
{
  return kind == Kind::Future ? root_key() + "|value" : view_key();
}

namespace {

std::size_t mix(std::size_t seed, std::size_t value)
{
  return seed ^ (value + 0x9e3779b97f4a7c15ULL + (seed << 6) + (seed >> 2));
}

}  // namespace

bool same_root(const StoreDesc& a, const StoreDesc& b)
{
  if (a.kind != b.kind) {
    return false;
  }
  if (a.kind == StoreDesc::Kind::Future) {
    return a.storage_id == b.storage_id;
  }
  return a.tree_id == b.tree_id && a.field_id == b.field_id;
}

bool same_identity(const StoreDesc& a, const StoreDesc& b)
{
  if (!same_root(a, b)) {
    return false;
  }
  // Every view of a Future is the Future; a region's view is its index space, transform,
  // type and shape (view_key).
  return a.kind == StoreDesc::Kind::Future ||
         (a.index_space == b.index_space && a.transform == b.transform && a.dtype == b.dtype &&
          a.shape == b.shape);
}

std::size_t root_hash(const StoreDesc& desc)
{
  if (desc.kind == StoreDesc::Kind::Future) {
    return mix(1, static_cast<std::size_t>(desc.storage_id));
  }
  return mix(mix(2, static_cast<std::size_t>(desc.tree_id)),
             static_cast<std::size_t>(desc.field_id));
}

std::size_t identity_hash(const StoreDesc& desc)
{
  auto hash = root_hash(desc);
  if (desc.kind == StoreDesc::Kind::Future) {
    return hash;
  }
  hash = mix(hash, static_cast<std::size_t>(desc.index_space));
  hash = mix(hash, std::hash<std::string>{}(desc.transform));
  hash = mix(hash, std::hash<std::string>{}(desc.dtype));
  for (const auto extent : desc.shape) {
    hash = mix(hash, static_cast<std::size_t>(extent));
  }
  return hash;
}

std::int64_t StoreDesc::volume() const
{
  std::int64_t result = 1;
  for (const auto extent : shape) {
    result *= extent;
  }
  return result;
}

std::size_t dtype_size(std::string_view dtype)
{
  static const std::unordered_map<std::string_view, std::size_t> sizes{
      {"bool", 1},    {"int8", 1},    {"uint8", 1},     {"int16", 2},      {"uint16", 2},
      {"float16", 2}, {"int32", 4},   {"uint32", 4},    {"float32", 4},    {"int64", 8},
      {"uint64", 8},  {"float64", 8}, {"complex64", 8}, {"complex128", 16}};
  const auto found = sizes.find(dtype);
  return found == sizes.end() ? 0 : found->second;
}

}  // namespace legate_fuse::ir
