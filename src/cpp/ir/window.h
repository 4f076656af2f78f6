#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <utility>
#include <vector>

#include "ir/store_desc.h"

namespace legate_fuse::ir {

// ReadWhole and WriteWhole are the arguments of a matrix product (cuPyNumeric's MATVECMUL or
// MATMUL), which a fused task computes before its kernel by one library call: its factors are
// read whole (not partitioned), and its result, the store of the product promoted along the
// dimension the product sums over, is written whole; the kernel then reads it element by
// element, as the view without that promotion (StoreRef::unpromoted).
//
// ReadCall and WriteCall are the arguments of a library's row call (tasks/row_calls.h): a
// routine each point task runs on its own block before the kernel (legate_csr's sparse
// product). Its result is partitioned with the group and read by the kernel as an input. What
// it reads, the kernel does not read through that argument: either partitioned with the group
// (a matrix's rows) or read through the image of another of its arguments (the elements of
// those rows, the entries of `x` their columns name), which the launch constrains.
enum class Privilege : std::int32_t {
  Read       = 0,
  Write      = 1,
  ReadWrite  = 2,
  Reduce     = 3,
  ReadWhole  = 4,
  WriteWhole = 5,
  ReadCall   = 6,
  WriteCall  = 7,
};

[[nodiscard]] inline bool reads(Privilege p)
{
  return p == Privilege::Read || p == Privilege::ReadWrite || p == Privilege::ReadWhole ||
         p == Privilege::ReadCall;
}
[[nodiscard]] inline bool writes(Privilege p)
{
  return p == Privilege::Write || p == Privilege::ReadWrite || p == Privilege::WriteWhole ||
         p == Privilege::WriteCall;
}
// Whether an argument changes its store: written or reduced into.
[[nodiscard]] inline bool produces(Privilege p) { return writes(p) || p == Privilege::Reduce; }

// A store as the analysis sees it: classes are numbered by first appearance in the window, so
// two windows that differ only in which arrays they touch get the same numbers.
struct StoreRef {
  bool known{};   // false: the description could not be read; its tasks stay opaque
  bool value{};   // a 0-d Future: one value, which a kernel reads once, before its loop
  bool future{};  // any Future (one element, however promoted or broadcast)
  // The store's memory class (see view_box.h): its root array, split into classes of views
  // that may share elements; views of different classes never do. The analysis calls it root.
  std::int32_t root{-1};
  std::int32_t view{-1};
  std::int32_t shape_class{-1};
  std::int32_t dtype_class{-1};
  std::string dtype;     // Legate's name of the element type
  std::int64_t bytes{};  // of the elements this view addresses
  bool empty{};          // partitioned (not 0-d) and addressing no element
  // A region-backed store over the whole of its array (no transform, no slice of its
  // storage), and one whose view another array's store can be given by slicing and projecting
  // it (its transforms all Shift or Project): an array whose memory another takes is re-viewed
  // through them (analysis/storage_sharing.h).
  bool whole{};
  bool sliced{};
  // The store of the window that is this one without its last transform, where that is a
  // promotion (a product's result as its library promoted it, and the array itself), or the
  // store itself where a random draw writes it whole; -1 when the window has none. A result
  // written whole (WriteWhole) is read through it.
  std::int32_t unpromoted{-1};
  std::string description;
};

struct Arg {
  std::int32_t store{};
  Privilege privilege{Privilege::Read};
  std::int32_t redop{-1};
};

struct Task {
  std::int32_t op{-1};  // lifted operation id; negative: opaque (not liftable)
  bool aligned{};       // every partitioned argument is aligned with every other
  // Worth running as a fused kernel on its own: its kernel is faster than the task as its
  // library built it (argmin and argmax along an axis).
  bool fused_alone{};
  // Draws random numbers (cuPyNumeric's BITGENERATOR, tasks/random_draws.h): it advances a
  // generator, which nothing in its arguments shows, so it is never dead; its result is
  // written whole (WriteWhole) before the kernel, which reads it.
  bool draws{};
  std::vector<Arg> args;

  [[nodiscard]] bool liftable() const { return op >= 0; }
  // A library's row call: an argument of it is its result (WriteCall).
  [[nodiscard]] bool row_call() const
  {
    for (const auto& arg : args) {
      if (arg.privilege == Privilege::WriteCall) {
        return true;
      }
    }
    return false;
  }
};

// The tasks of one window, in program order, with the stores they touch.
struct Window {
  std::vector<StoreRef> stores;
  std::vector<Task> tasks;
  // per root (memory class): observable from outside the window; every class of an array the
  // program reaches is
  std::vector<bool> root_live;
  // per root (memory class): memory Legate did not make for the program's arrays alone (a
  // buffer attached to a store, memory NumPy reads in place): never handed to another array
  std::vector<bool> root_foreign;
  // Stores no task of the window touches, whose memory is free for its arrays from its start:
  // arrays an earlier window let go, kept by the plugin for this one (storage_sharing.h).
  std::vector<std::int32_t> spare_stores;
  std::vector<std::int32_t> root_last_task;  // per root: the last task accessing it (-1: none)
  std::int32_t num_roots{};
  std::int32_t num_views{};
  // Pairs of views (lower number first, sorted) of one memory class that share no element for
  // sure: a boundary column and the column it is copied from, both overlapping the interior.
  std::vector<std::pair<std::int32_t, std::int32_t>> apart_views;
  // Whether each fused task runs as one point task (one CPU, one process): a group may then
  // write a 0-d value read after it, which each of several points would write.
  bool one_point{};

  // Whether two views share no element for sure (false for a view and itself).
  [[nodiscard]] bool views_apart(std::int32_t a, std::int32_t b) const;
};

// The tasks of a window from the compact encoding made by the Python side, per task
//   [op, flags, nargs, (store, privilege, redop) * nargs], flags: 1 aligned, 2 fused alone,
// 4 draws random numbers,
// stores numbered by first appearance among `num_stores`. A loop's windows share it: decoded
// once per stream of tasks, not once per window. Throws std::invalid_argument on a malformed
// encoding.
[[nodiscard]] std::vector<Task> decode_tasks(const std::vector<std::int64_t>& encoded,
                                             std::size_t num_stores);

// Builds a window:
//   descriptions: Legate's description of every distinct store, in first-appearance order;
//   live_stores: the numbers of the stores the program can still reach (arrays with a Python
//     reference, views of them); their roots are observable after the window;
//   tasks: decoded by decode_tasks for as many stores as there are descriptions;
//   is_live_root: whether the program can reach a root, by its key (StoreDesc::root_key):
//     asked once per root of the window, so that the roots of every array the program holds
//     need not be described in each window (none when empty);
//   is_foreign_root: whether a root's memory is not Legate's own for the program's arrays
//     (Window::root_foreign), by its key, asked as is_live_root; every root is foreign
//     without it (the safe side).
// Throws std::invalid_argument when a store number is out of range.
Window build_window(const std::vector<std::string>& descriptions,
                    const std::vector<std::int32_t>& live_stores, std::vector<Task> tasks,
                    const std::function<bool(const std::string&)>& is_live_root    = {},
                    const std::function<bool(const std::string&)>& is_foreign_root = {});

}  // namespace legate_fuse::ir
