#include "ir/view_box.h"

#include <charconv>
#include <string_view>

namespace legate_fuse::ir {
namespace {

// Reads "<name>(<first>: <a>, <second>: <b>)" at the start of `text` and moves past it.
bool two_fields(std::string_view& text, std::string_view name, std::string_view first,
                std::string_view second, std::int64_t& a, std::int64_t& b)
{
  const auto expect = [&](std::string_view literal) {
    if (text.substr(0, literal.size()) != literal) {
      return false;
    }
    text.remove_prefix(literal.size());
    return true;
  };
  const auto integer = [&](std::int64_t& value) {
    const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
    if (error != std::errc{}) {
      return false;
    }
    text.remove_prefix(static_cast<std::size_t>(end - text.data()));
    return true;
  };
  return expect(name) && expect("(") && expect(first) && expect(": ") && integer(a) &&
         expect(", ") && expect(second) && expect(": ") && integer(b) && expect(")");
}

// Maps the box one transform produced back onto the points of the store it was applied to (its
// parent in the stack): the inverse of Legate's Shift, Project and Promote on points.
bool invert_one(std::string_view& text, RootBox& box)
{
  std::int64_t dim{}, amount{};
  const auto dims = static_cast<std::int64_t>(box.lo.size());
  if (two_fields(text, "Shift", "dim", "offset", dim, amount)) {
    if (dim < 0 || dim >= dims) {
      return false;
    }
    box.lo[static_cast<std::size_t>(dim)] -= amount;
    box.hi[static_cast<std::size_t>(dim)] -= amount;
    return true;
  }
  if (two_fields(text, "Project", "dim", "coord", dim, amount)) {
    if (dim < 0 || dim > dims) {
      return false;
    }
    box.lo.insert(box.lo.begin() + dim, amount);
    box.hi.insert(box.hi.begin() + dim, amount);
    return true;
  }
  if (two_fields(text, "Promote", "extra_dim", "dim_size", dim, amount)) {
    if (dim < 0 || dim >= dims) {
      return false;
    }
    box.lo.erase(box.lo.begin() + dim);
    box.hi.erase(box.hi.begin() + dim);
    return true;
  }
  return false;
}

}  // namespace

std::optional<RootBox> root_box(const StoreDesc& desc)
{
  if (desc.kind != StoreDesc::Kind::Region || desc.unbound || desc.volume() == 0) {
    return std::nullopt;
  }
  RootBox box;
  for (const auto extent : desc.shape) {
    box.lo.push_back(0);
    box.hi.push_back(extent - 1);
  }
  // Legate prints the stack from the last transform applied to the first, joined by " >> ":
  // undoing them in that order walks from the store's points to its storage's.
  std::string_view text = desc.transform;
  while (!text.empty()) {
    if (!invert_one(text, box)) {
      return std::nullopt;
    }
    if (!text.empty()) {
      constexpr std::string_view separator = " >> ";
      if (text.substr(0, separator.size()) != separator) {
        return std::nullopt;
      }
      text.remove_prefix(separator.size());
    }
  }
  return box;
}

bool disjoint(const RootBox& a, const RootBox& b)
{
  if (a.lo.size() != b.lo.size()) {
    return false;
  }
  for (std::size_t dim = 0; dim < a.lo.size(); ++dim) {
    if (a.hi[dim] < b.lo[dim] || b.hi[dim] < a.lo[dim]) {
      return true;
    }
  }
  return false;
}

bool apart(const StoreDesc& a, const std::optional<RootBox>& a_box, const StoreDesc& b,
           const std::optional<RootBox>& b_box)
{
  return same_root(a, b) && a.dtype == b.dtype && a_box && b_box && disjoint(*a_box, *b_box);
}

}  // namespace legate_fuse::ir
