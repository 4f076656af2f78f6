// The analysis on synthetic windows (the encoding of ir/window.h): which tasks fuse, what is a
// temporary, and that a plan comes back from the cache for the same signature.
#include <string>
#include <vector>

#include "analysis/analyzer.h"
#include "analysis/cut.h"
#include "check.h"
#include "ir/store_desc.h"
#include "ir/window.h"

namespace an = legate_fuse::analysis;

namespace {

constexpr std::int64_t READ = 0, WRITE = 1;

std::string region(int root)
{
  return "Store(" + std::to_string(root) +
         ") {shape: [100], type: float64, storage: Storage(1) {kind: Region, level: 0, region: "
         "(7, (5, 1), 6), field: " +
         std::to_string(10000 + root) + "}}";
}

// t = a * 2; d = t + b: the product is a temporary when only `a`, `b` and `d` are live.
struct Chain {
  std::vector<std::string> stores{region(0), region(1), region(2), region(3)};  // a, b, t, d
  std::vector<std::int64_t> tasks{0,       1,    2, /*t*/ 2, WRITE, -1, /*a*/ 0, READ, -1,
                                  1,       1,    3, /*d*/ 3, WRITE, -1, /*t*/ 2, READ, -1,
                                  /*b*/ 1, READ, -1};

  // The window with the stores numbered in `live` reachable by the program.
  [[nodiscard]] legate_fuse::ir::Window window(const std::vector<std::int32_t>& live) const
  {
    return legate_fuse::ir::build_window(stores, live,
                                         legate_fuse::ir::decode_tasks(tasks, stores.size()));
  }
};

const std::vector<std::int32_t> EVERY_STORE{0, 1, 2, 3};

}  // namespace

LF_TEST(a_chain_fuses_and_its_intermediate_is_a_temporary)
{
  const Chain chain;
  const auto window = chain.window({0, 1, 3});
  const auto plan   = an::plan_window(window);
  LF_CHECK_EQ(plan.groups.size(), std::size_t{1});
  LF_CHECK_EQ(std::string{an::kind_name(plan.groups[0].kind)}, std::string{"fused"});
  LF_CHECK_EQ(plan.groups[0].tasks.size(), std::size_t{2});
  LF_CHECK_EQ(plan.groups[0].temporaries.size(), std::size_t{1});
  const auto bytes = an::group_bytes(window, plan);
  LF_CHECK_EQ(bytes.at(0), std::int64_t{800});
}

LF_TEST(an_intermediate_the_program_holds_is_no_temporary)
{
  const Chain chain;
  const auto window = chain.window(EVERY_STORE);
  const auto plan   = an::plan_window(window);
  LF_CHECK_EQ(plan.groups.size(), std::size_t{1});
  LF_CHECK(plan.groups[0].temporaries.empty());
}

LF_TEST(the_same_signature_comes_from_the_cache)
{
  const Chain chain;
  an::Analyzer analyzer;
  const auto window = chain.window({});
  LF_CHECK(!analyzer.analyze(window).cache_hit);
  LF_CHECK(analyzer.analyze(window).cache_hit);
  LF_CHECK_EQ(analyzer.cached_plans(), std::size_t{1});
}

LF_TEST(a_fused_group_carries_its_kernel_specification)
{
  const Chain chain;
  an::Analyzer analyzer;
  LF_CHECK_EQ(analyzer.op_id("BINARY_OP.MULTIPLY"), 0);  // the chain's op ids: 0, then 1
  LF_CHECK_EQ(analyzer.op_id("BINARY_OP.ADD"), 1);
  const auto result = analyzer.analyze(chain.window({0, 1, 3}));
  const auto& group = result.plan->groups.at(0);
  LF_CHECK(group.kernel.has_value());
  LF_CHECK_EQ(legate_fuse::ir::describe(*group.kernel),
              std::string{"arg 0: input float64\n"
                          "arg 1: input float64\n"
                          "arg 2: output float64\n"
                          "r0 = BINARY_OP.MULTIPLY -> float64 (arg 0)\n"
                          "r1 = BINARY_OP.ADD -> float64 (r0, arg 1)\n"
                          "arg 2 <- r1\n"});
}

LF_TEST(a_prefix_keeps_live_what_the_rest_touches)
{
  const Chain chain;
  const auto window = chain.window({});
  const auto prefix = an::window_prefix(window, 1);  // t = a * 2 alone; d = t + b runs later
  LF_CHECK_EQ(prefix.tasks.size(), std::size_t{1});
  LF_CHECK_EQ(prefix.stores.size(), std::size_t{4});  // roots: a 0, b 1, t 2, d 3
  LF_CHECK(!prefix.root_live.at(0));                  // a: nothing reads it later
  LF_CHECK(prefix.root_live.at(1));                   // b: the later task reads it
  LF_CHECK(prefix.root_live.at(2));                   // t: the later task reads it
  LF_CHECK_EQ(prefix.root_last_task.at(2), 0);
  LF_CHECK_EQ(prefix.root_last_task.at(3), -1);
}

LF_TEST(the_cut_leaves_the_fewest_bytes_to_allocate)
{
  const Chain chain;
  // Nothing reachable: cutting after t = a * 2 would allocate t; running both, nothing.
  LF_CHECK_EQ(an::choose_cut(chain.window({}), 1), 2);
  // Every written value reachable: the cut after one task allocates t only, the end t and d.
  LF_CHECK_EQ(an::choose_cut(chain.window(EVERY_STORE), 1), 1);
}

LF_TEST(a_truncated_encoding_is_rejected)
{
  const Chain chain;
  std::vector<std::int64_t> truncated(chain.tasks.begin(), chain.tasks.end() - 1);
  bool threw = false;
  try {
    (void)legate_fuse::ir::decode_tasks(truncated, chain.stores.size());
  } catch (const std::invalid_argument&) {
    threw = true;
  }
  LF_CHECK(threw);
}

LF_TEST(stores_share_a_class_exactly_when_their_keys_are_equal)
{
  // 90 stores over 40 roots, with views and Futures: more classes than are compared one by
  // one, so the hash table's numbering is checked too.
  std::vector<std::string> stores;
  for (int i = 0; i < 90; ++i) {
    if (i % 9 == 8) {
      stores.push_back("Store(" + std::to_string(i) + ") {shape: [" + (i % 2 ? "4" : "") +
                       "], type: float64, storage: Storage(" + std::to_string(700 + i % 5) +
                       ") {kind: Future, level: 0}}");
    } else if (i % 3 == 0) {
      stores.push_back(
          "Store(" + std::to_string(i) + ") {shape: [98], transform: Shift(dim: 0, offset: -" +
          std::to_string(i % 2) + "), type: float64, storage: Storage(1) {kind: " +
          "Region, level: 2, region: (7, (22, 1), 6), field: " + std::to_string(10000 + i % 40) +
          "}}");
    } else {
      stores.push_back(region(i % 40));
    }
  }
  const auto window = legate_fuse::ir::build_window(stores, {}, {});
  for (std::size_t a = 0; a < stores.size(); ++a) {
    const auto desc_a = legate_fuse::ir::parse_store_desc(stores[a]);
    for (std::size_t b = 0; b < stores.size(); ++b) {
      const auto desc_b = legate_fuse::ir::parse_store_desc(stores[b]);
      LF_CHECK_EQ(window.stores[a].root == window.stores[b].root,
                  desc_a->root_key() == desc_b->root_key());
      LF_CHECK_EQ(window.stores[a].view == window.stores[b].view,
                  desc_a->identity_key() == desc_b->identity_key());
      LF_CHECK_EQ(window.stores[a].shape_class == window.stores[b].shape_class,
                  desc_a->shape == desc_b->shape);
    }
  }
  LF_CHECK(window.num_roots > 32 && window.num_views > 32);
}

LF_TEST(a_store_number_out_of_range_is_rejected)
{
  const Chain chain;
  bool threw = false;
  try {
    (void)chain.window({4});  // the chain has stores 0 to 3
  } catch (const std::invalid_argument&) {
    threw = true;
  }
  LF_CHECK(threw);
}

LF_TEST_MAIN
