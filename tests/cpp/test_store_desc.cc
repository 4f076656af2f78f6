// Store descriptions as Legate prints them: parsing, and the identities the analysis and the
// kernel builder key stores by.
#include <string>
#include <vector>

#include "check.h"
#include "ir/store_desc.h"
#include "ir/view_box.h"

using legate_fuse::ir::parse_store_desc;

namespace {

std::string region(int field, const std::string& transform = "", int space = 5)
{
  const std::string transform_part = transform.empty() ? "" : "transform: " + transform + ", ";
  return "Store(3) {shape: [100], " + transform_part +
         "type: float64, storage: Storage(5) {kind: Region, level: 2, region: (7, (" +
         std::to_string(space) + ", 1), 6), field: " + std::to_string(field) + "}}";
}

std::string future(const std::string& shape, const std::string& transform)
{
  const std::string transform_part = transform.empty() ? "" : "transform: " + transform + ", ";
  return "Store(9) {shape: [" + shape + "], " + transform_part +
         "type: bool, storage: Storage(549) {kind: Future, level: 0}}";
}

}  // namespace

LF_TEST(parses_a_region_store)
{
  const auto desc = parse_store_desc(region(10000));
  LF_CHECK(desc.has_value());
  LF_CHECK_EQ(desc->dtype, std::string{"float64"});
  LF_CHECK_EQ(desc->volume(), std::int64_t{100});
  LF_CHECK_EQ(desc->root_key(), std::string{"R7.10000"});
}

LF_TEST(views_of_one_root_share_the_root_not_the_view)
{
  const auto whole = parse_store_desc(region(10000));
  const auto slice = parse_store_desc(region(10000, "Shift(dim: 0, offset: -2)", 22));
  LF_CHECK_EQ(whole->root_key(), slice->root_key());
  LF_CHECK(whole->view_key() != slice->view_key());
  LF_CHECK(whole->identity_key() != slice->identity_key());
}

LF_TEST(every_view_of_a_future_is_one_store)
{
  const auto value    = parse_store_desc(future("", ""));
  const auto promoted = parse_store_desc(future("256", "Promote(extra_dim: 0, dim_size: 256)"));
  LF_CHECK(value.has_value() && promoted.has_value());
  LF_CHECK(value->view_key() != promoted->view_key());
  LF_CHECK_EQ(value->identity_key(), promoted->identity_key());
}

LF_TEST(keys_are_compared_as_their_strings_would_be)
{
  // same_root and same_identity stand for the equality of root_key() and identity_key(), and
  // their hashes agree with them: every pair of a set of roots, views and Futures.
  std::vector<legate_fuse::ir::StoreDesc> descs;
  for (const auto& text : {region(10000), region(10001), region(10000, "", 6),
                           region(10000, "Shift(dim: 0, offset: -2)", 22),
                           region(10000, "Shift(dim: 0, offset: -1)", 22),
                           region(10001, "Shift(dim: 0, offset: -2)", 22), future("", ""),
                           future("256", "Promote(extra_dim: 0, dim_size: 256)"),
                           future("4", "Promote(extra_dim: 0, dim_size: 4)")}) {
    descs.push_back(*parse_store_desc(text));
  }
  descs.push_back(*parse_store_desc(
      "Store(9) {shape: [], type: bool, storage: Storage(550) {kind: Future, level: 0}}"));
  for (const auto& a : descs) {
    for (const auto& b : descs) {
      const bool same_root     = legate_fuse::ir::same_root(a, b);
      const bool same_identity = legate_fuse::ir::same_identity(a, b);
      LF_CHECK_EQ(same_root, a.root_key() == b.root_key());
      LF_CHECK_EQ(same_identity, a.identity_key() == b.identity_key());
      LF_CHECK(!same_root || root_hash(a) == root_hash(b));
      LF_CHECK(!same_identity || identity_hash(a) == identity_hash(b));
    }
  }
}

LF_TEST(an_unknown_format_is_not_guessed)
{
  LF_CHECK(!parse_store_desc("Store(1) {something else}").has_value());
  LF_CHECK(!parse_store_desc("").has_value());
}

namespace {

// A view of C = zeros((5, 4, 3)) as Legate prints it: its shape and transform stack, over a
// slice of C's storage (index space `space`).
legate_fuse::ir::StoreDesc view_of_c(const std::string& shape, const std::string& transform,
                                     int space, const std::string& dtype = "float64")
{
  const std::string transform_part = transform.empty() ? "" : "transform: " + transform + ", ";
  return *parse_store_desc("Store(2) {shape: [" + shape + "], " + transform_part + "type: " +
                           dtype + ", storage: Storage(2) {kind: Region, level: 2, region: (7, (" +
                           std::to_string(space) + ", 1), 6), field: 10000}}");
}

bool apart(const legate_fuse::ir::StoreDesc& a, const legate_fuse::ir::StoreDesc& b)
{
  using legate_fuse::ir::root_box;
  return legate_fuse::ir::apart(a, root_box(a), b, root_box(b));
}

}  // namespace

LF_TEST(a_view_box_undoes_the_transform_stack_from_the_last_transform)
{
  // C[1, :, 2:]: Project(dim 0, coord 1), then Shift(dim 1, offset -2) on the 2-d view.
  const auto box = legate_fuse::ir::root_box(
      view_of_c("4, 1", "Shift(dim: 1, offset: -2) >> Project(dim: 0, coord: 1)", 22));
  LF_CHECK(box.has_value());
  LF_CHECK(box->lo == (std::vector<std::int64_t>{1, 0, 2}));
  LF_CHECK(box->hi == (std::vector<std::int64_t>{1, 3, 2}));
  // A promoted dimension addresses no dimension of the root.
  const auto promoted =
      legate_fuse::ir::root_box(view_of_c("7, 4", "Promote(extra_dim: 0, dim_size: 7)", 5));
  LF_CHECK(promoted.has_value());
  LF_CHECK(promoted->lo == (std::vector<std::int64_t>{0}));
  LF_CHECK(promoted->hi == (std::vector<std::int64_t>{3}));
}

LF_TEST(views_with_disjoint_boxes_are_apart_and_others_are_not)
{
  const auto c1   = view_of_c("4, 3", "Project(dim: 0, coord: 1)", 13);
  const auto c2   = view_of_c("4, 3", "Project(dim: 0, coord: 2)", 14);
  const auto left = view_of_c("4, 2", "Project(dim: 0, coord: 1)", 18);
  const auto right =
      view_of_c("4, 1", "Shift(dim: 1, offset: -2) >> Project(dim: 0, coord: 1)", 22);
  const auto rows    = view_of_c("2, 4, 3", "Shift(dim: 0, offset: -1)", 26);
  const auto whole   = view_of_c("5, 4, 3", "", 5);
  const auto flipped = view_of_c("3, 4, 5", "Transpose(axes: 2, 1, 0)", 5);
  LF_CHECK(apart(c1, c2));
  LF_CHECK(apart(left, right));
  LF_CHECK(apart(c2, left));
  LF_CHECK(!apart(c1, left));  // left is in row 1
  LF_CHECK(!apart(rows, c2));  // rows 1 and 2
  LF_CHECK(!apart(whole, c1));
  LF_CHECK(!apart(c1, c1));
  // Not understood: never apart, whatever the boxes would be.
  LF_CHECK(!apart(flipped, c1));
  LF_CHECK(!legate_fuse::ir::root_box(flipped).has_value());
  // Another element type over the same field, another root, a Future: never apart.
  LF_CHECK(!apart(c1, view_of_c("4, 3", "Project(dim: 0, coord: 2)", 14, "int64")));
  LF_CHECK(!apart(c1, *parse_store_desc(region(10001))));
  LF_CHECK(!legate_fuse::ir::root_box(*parse_store_desc(future("1", ""))).has_value());
}

LF_TEST_MAIN
