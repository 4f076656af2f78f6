// Which stores run in the memory of another (analysis/storage_sharing.h), on synthetic windows
// whose groups are given: an array written and dead inside the window takes the memory of one
// of its shape and type that died in an earlier group (made in the window, or read first and
// Legate's own), and nothing else does.
#include <string>
#include <utility>
#include <vector>

#include "analysis/storage_sharing.h"
#include "check.h"
#include "ir/window.h"

namespace an = legate_fuse::analysis;
namespace ir = legate_fuse::ir;

namespace {

constexpr std::int64_t READ = 0, WRITE = 1;

std::string array(int field, const std::string& shape = "100")
{
  return "Store(" + std::to_string(field) + ") {shape: [" + shape +
         "], type: float64, storage: Storage(1) {kind: Region, level: 0, region: (7, (5, 1), 6), "
         "field: " +
         std::to_string(10000 + field) + "}}";
}

std::string shifted_view(int field)
{
  return "Store(" + std::to_string(50 + field) +
         ") {shape: [99], transform: Shift(dim: 0, offset: -1), type: float64, storage: "
         "Storage(2) {kind: Region, level: 2, region: (7, (9, 1), 6), field: " +
         std::to_string(10000 + field) + "}}";
}

// An in-place update through two named temporaries, one per iteration:
//   t1 = f(a); a[:] = t1; t2 = f(a); a[:] = t2   (stores: a, t1, t2)
struct Updates {
  std::vector<std::string> stores{array(0), array(1), array(2)};
  std::vector<std::int64_t> tasks{0, 1, 2, /*t1*/ 1, WRITE, -1, /*a*/ 0,  READ, -1,  //
                                  0, 1, 2, /*a*/ 0,  WRITE, -1, /*t1*/ 1, READ, -1,
                                  0, 1, 2, /*t2*/ 2, WRITE, -1, /*a*/ 0,  READ, -1,
                                  0, 1, 2, /*a*/ 0,  WRITE, -1, /*t2*/ 2, READ, -1};
  std::vector<std::int32_t> live{0};

  [[nodiscard]] ir::Window window() const
  {
    return ir::build_window(stores, live, ir::decode_tasks(tasks, stores.size()));
  }
};

an::Group group(an::Group::Kind kind, std::vector<std::int32_t> tasks)
{
  an::Group made;
  made.kind  = kind;
  made.tasks = std::move(tasks);
  return made;
}

// Each task a group of its own, run as built.
an::Plan one_task_per_group(std::size_t tasks)
{
  an::Plan plan;
  for (std::size_t t = 0; t < tasks; ++t) {
    plan.groups.push_back(group(an::Group::Kind::Single, {static_cast<std::int32_t>(t)}));
  }
  return plan;
}

std::vector<std::pair<std::int32_t, std::int32_t>> shared(const ir::Window& window, an::Plan plan)
{
  an::share_storage(window, plan);
  std::vector<std::pair<std::int32_t, std::int32_t>> pairs;
  for (const auto& share : plan.shared_storage) {
    pairs.emplace_back(share.store, share.owner);
  }
  return pairs;
}

using Pairs = std::vector<std::pair<std::int32_t, std::int32_t>>;

}  // namespace

LF_TEST(a_temporary_dead_before_the_next_takes_its_memory)
{
  const Updates updates;
  LF_CHECK(shared(updates.window(), one_task_per_group(4)) == (Pairs{{2, 1}}));
}

LF_TEST(a_chain_of_temporaries_runs_in_one_memory)
{
  Updates updates;
  updates.stores.push_back(array(3));  // t3 = f(a); a[:] = t3
  updates.tasks.insert(updates.tasks.end(), {0, 1, 2, 3, WRITE, -1, 0, READ, -1,  //
                                             0, 1, 2, 0, WRITE, -1, 3, READ, -1});
  LF_CHECK(shared(updates.window(), one_task_per_group(6)) == (Pairs{{2, 1}, {3, 1}}));
}

LF_TEST(an_array_the_program_holds_keeps_its_memory)
{
  Updates updates;
  updates.live = {0, 2};
  LF_CHECK(shared(updates.window(), one_task_per_group(4)).empty());
  updates.live = {0, 1};  // the first is not free for the second
  LF_CHECK(shared(updates.window(), one_task_per_group(4)).empty());
}

LF_TEST(a_store_whose_first_access_reads_it_keeps_its_memory)
{
  Updates updates;
  updates.tasks[24] = 2;  // t2 = f(a) becomes t2 = f(t2): its old contents are read
  LF_CHECK(shared(updates.window(), one_task_per_group(4)).empty());
}

LF_TEST(a_store_an_opaque_task_touches_keeps_its_memory)
{
  const Updates updates;
  auto plan      = one_task_per_group(4);
  plan.groups[1] = group(an::Group::Kind::Opaque, {1});  // built at once, with t1 itself
  LF_CHECK(shared(updates.window(), plan).empty());
  plan           = one_task_per_group(4);
  plan.groups[3] = group(an::Group::Kind::Opaque, {3});  // with t2
  LF_CHECK(shared(updates.window(), plan).empty());
}

LF_TEST(a_store_a_dead_task_touches_keeps_its_memory)
{
  const Updates updates;
  auto plan = one_task_per_group(4);
  plan.groups[2].tasks.clear();
  plan.groups[2].dead_tasks = {2};
  LF_CHECK(shared(updates.window(), plan).empty());
}

LF_TEST(memory_is_free_only_after_the_group_of_the_last_access)
{
  const Updates updates;
  an::Plan plan;  // a[:] = t1 and t2 = f(a) in one group: t1 is read while t2 is written
  plan.groups = {group(an::Group::Kind::Single, {0}), group(an::Group::Kind::Fused, {1, 2}),
                 group(an::Group::Kind::Single, {3})};
  LF_CHECK(shared(updates.window(), plan).empty());
}

LF_TEST(only_memory_of_the_same_shape_and_type_is_shared)
{
  Updates updates;
  updates.stores[2] = array(2, "50");
  LF_CHECK(shared(updates.window(), one_task_per_group(4)).empty());
}

LF_TEST(an_array_seen_through_slices_shares_every_view)
{
  Updates updates;
  updates.stores.push_back(shifted_view(2));  // t2 also read through a slice
  updates.tasks.insert(updates.tasks.end(), {0, 1, 2, 0, WRITE, -1, 3, READ, -1});
  LF_CHECK(shared(updates.window(), one_task_per_group(5)) == (Pairs{{2, 1}, {3, 1}}));
}

LF_TEST(an_array_seen_through_another_view_keeps_its_memory)
{
  Updates updates;
  updates.stores.push_back(  // t2 also read transposed
      "Store(60) {shape: [100], transform: Transpose(axes: 0), type: float64, storage: "
      "Storage(2) {kind: Region, level: 0, region: (7, (5, 1), 6), field: 10002}}");
  updates.tasks.insert(updates.tasks.end(), {0, 1, 2, 0, WRITE, -1, 3, READ, -1});
  LF_CHECK(shared(updates.window(), one_task_per_group(5)).empty());
  updates.stores[2] = shifted_view(2);  // first written through a slice: not all of it
  updates.stores.pop_back();
  updates.tasks.resize(updates.tasks.size() - 9);
  LF_CHECK(shared(updates.window(), one_task_per_group(4)).empty());
}

// A loop's state of the iteration before, read and let go by the window, then arrays made by it:
//   x = f(old); y = f(x); z = f(y)   (stores: old, x, y, z; z held by the program)
struct ReadFirst {
  std::vector<std::string> stores{array(0), array(1), array(2), array(3)};
  std::vector<std::int64_t> tasks{0, 1, 2, /*x*/ 1, WRITE, -1, /*old*/ 0, READ, -1,  //
                                  0, 1, 2, /*y*/ 2, WRITE, -1, /*x*/ 1,   READ, -1,
                                  0, 1, 2, /*z*/ 3, WRITE, -1, /*y*/ 2,   READ, -1};
  std::vector<std::int32_t> live{3};
  std::string foreign_root;  // the key of a root over memory not Legate's own

  [[nodiscard]] ir::Window window() const
  {
    const auto foreign = foreign_root;
    return ir::build_window(stores, live, ir::decode_tasks(tasks, stores.size()), {},
                            [foreign](const std::string& key) { return key == foreign; });
  }
};

LF_TEST(an_array_read_first_gives_its_memory_once_let_go)
{
  const ReadFirst loop;
  LF_CHECK(shared(loop.window(), one_task_per_group(3)) == (Pairs{{2, 0}}));
}

LF_TEST(an_array_read_first_keeps_memory_not_legates_own)
{
  ReadFirst loop;
  loop.foreign_root = ir::parse_store_desc(loop.stores[0])->root_key();
  LF_CHECK(shared(loop.window(), one_task_per_group(3)).empty());
  // Without a lookup, every root's memory counts as such.
  const ir::Window unknown =
      ir::build_window(loop.stores, loop.live, ir::decode_tasks(loop.tasks, loop.stores.size()));
  LF_CHECK(shared(unknown, one_task_per_group(3)).empty());
}

LF_TEST(an_array_read_first_the_program_holds_keeps_its_memory)
{
  ReadFirst loop;
  loop.live = {0, 3};
  LF_CHECK(shared(loop.window(), one_task_per_group(3)).empty());
}

LF_TEST(an_array_read_first_only_through_a_view_keeps_its_memory)
{
  ReadFirst loop;
  loop.stores[0] = shifted_view(0);  // no whole store of it to rebuild the views over
  LF_CHECK(shared(loop.window(), one_task_per_group(3)).empty());
}

LF_TEST(an_array_read_first_gives_its_memory_only_after_its_last_access)
{
  ReadFirst loop;
  loop.tasks[24] = 0;  // z = f(old): old is read until the last task
  LF_CHECK(shared(loop.window(), one_task_per_group(3)).empty());
}

LF_TEST_MAIN
