#pragma once

#include <atomic>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <vector>

#include "runtime/cpu_kernel.h"

namespace legate_fuse {

// One call of a CPU kernel on a point task's block (runtime/kernel_abi.h), after its
// dimensions were merged.
struct KernelCall {
  CpuKernel kernel;
  std::int32_t ndim{};
  const std::int64_t* extents{};
  const legate_fuse_array* arrays{};
  std::size_t num_arrays{};
  const std::vector<char>* scalars{};
  // Where the block's lower corner begins in `scalars` (moved for each part of a kernel that
  // reads it).
  std::size_t corner_offset{};
};

// How a block of `rows` rows of `row_volume` elements is split: parts of `rows_per_part` rows
// (the last one shorter), at least `min_elements` elements each where the rows allow, each
// a multiple of `multiple` rows. It depends on the block alone, never on the threads.
struct RowParts {
  std::int64_t rows_per_part{};
  std::int64_t parts{};
};
RowParts row_parts(std::int64_t rows, std::int64_t row_volume, std::int64_t min_elements,
                   std::int64_t multiple);

// The part of `call`'s block that starts `first_row` rows in and has `rows` rows, as a call
// of its own: its arrays, extents and scalars are written into the given buffers.
void part_call(const KernelCall& call, std::int64_t first_row, std::int64_t rows,
               std::vector<legate_fuse_array>& arrays, std::vector<std::int64_t>& extents,
               std::vector<char>& scalars);

// The threads a fused CPU task's kernel runs on: the point task's own, and `threads() - 1`
// helpers, which take parts of a block whose kernel says it may be split (runtime/kernel_abi.h:
// element-wise work, reductions into single values through partials, and reductions whose
// order shows through stages whose operands the caller folds in element order). Where Legate runs
// one CPU worker per core this stays 1 (the workers already use every core); where it leaves
// cores to Python and its own runtime threads (one CPU worker on 2 cores), a large kernel uses
// them too while they are idle. Results are the same whatever the number: each element is
// computed by the same code from the same inputs, and a kernel with partials runs in the same
// parts, its partials combined in the same order, with 1 thread as with 8.
class KernelThreads {
 public:
  static KernelThreads& instance();

  // Threads per kernel call, the caller's included; 1 runs every part on the caller.
  void set_threads(int threads);
  [[nodiscard]] int threads() const { return threads_.load(); }

  void run(const KernelCall& call);

  // Runs `each(part)` for every part in [0, parts), on this thread and the helpers while they
  // are free, else on this thread alone; returns once every part has run. Parts may run in any
  // order and on any thread: each must depend on its index alone (a random draw's parts, each
  // from the generator's state at its start), and must not throw (a helper cannot pass an
  // exception on).
  void run_each(std::int64_t parts, const std::function<void(std::int64_t)>& each);

  // Runs a row call's `parts` parts (`row_part(i)` computes the rows [i * rows_per_part,
  // (i + 1) * rows_per_part) of `call`'s block, and writes nothing the kernel reads at other
  // rows) and `call`'s kernel, one with LEGATE_FUSE_SPLIT_RESUMES on a one-dimensional block:
  // the kernel is resumed on each part's rows, in order, as soon as they are computed. On the
  // helpers while they are free, which compute the parts ahead while this thread resumes the
  // kernel (or computes parts itself): the kernel's chain of dependent folds then waits only
  // for the part it folds, not for the whole product, and reads rows still in cache. Returns
  // false, having run nothing, where the parts are not whole multiples of kElementAlignment
  // rows covering the block. The same bits as the parts, then the kernel's one pass.
  bool run_rows_and_resume(const KernelCall& call, std::int64_t parts, std::int64_t rows_per_part,
                           const std::function<void(std::int64_t)>& row_part);

  // Kernel calls whose parts ran on more than one thread so far (statistics and tests).
  [[nodiscard]] std::uint64_t split_runs() const { return split_runs_.load(); }
  // Kernel calls resumed on a row call's parts as they were computed (statistics and tests).
  [[nodiscard]] std::uint64_t pipelined_runs() const { return pipelined_runs_.load(); }

  // Parts of at least `elements` elements (kMinPartElements unless a test asks for small
  // parts, to split the small arrays it generates).
  void set_min_part_elements(std::int64_t elements);
  [[nodiscard]] std::int64_t min_part_elements() const { return min_part_elements_.load(); }

  // Parts of at least this many elements: smaller ones cost more in waking a helper and in
  // claiming them than they save. Fixed, so that a reduction's parts do not depend on the
  // threads.
  static constexpr std::int64_t kMinPartElements = std::int64_t{1} << 16;
  // A one-dimensional block is split at multiples of this many elements: every element keeps
  // its place within vector lanes and alignment, so a compiled loop takes the same path for
  // it (its vector body or its scalar remainder) whatever the split.
  static constexpr std::int64_t kElementAlignment = 64;
  // Stages whose operands wait for the fold, per thread; and the most memory they may take.
  static constexpr std::int64_t kStagesPerThread = 2;
  static constexpr std::size_t kMaxStageBytes    = std::size_t{256} << 20;

  KernelThreads(const KernelThreads&)            = delete;
  KernelThreads& operator=(const KernelThreads&) = delete;

 private:
  KernelThreads() = default;

  struct Job {
    const KernelCall* call{};
    const std::function<void(std::int64_t)>* each{};  // run_each's parts, instead of a call
    RowParts parts{};
    std::int64_t rows{};
    char* partials{};  // partial_count slots per part, or null
    int threads{1};    // the caller and the helpers that may take parts
    // Whether each part was taken. Thread t (the caller is 0) takes the parts from
    // t * parts / threads on, then goes on past the end of its share into the next one's: each
    // thread runs its own share of the block, the same rows every time the kernel runs on it
    // (so its data stays in that core's cache), and one that finishes early takes the parts a
    // late one has not reached.
    std::unique_ptr<std::atomic<bool>[]> taken;

    // A kernel with LEGATE_FUSE_SPLIT_ORDERED: parts are claimed in order (`next`), staged into
    // one of `stages` operand buffers of `stage_bytes` each (part p into buffer p % stages),
    // and folded by the caller in order (`folded` of them so far); a part is claimed only
    // once its buffer's last part was folded. A row holds `row_volume` elements.
    bool ordered{};
    // run_rows_and_resume's: each part is a row call's part (`each`) instead of a stage, and
    // the caller resumes the kernel on its rows instead of folding its operands.
    bool resumes{};
    std::int64_t row_volume{};
    std::atomic<std::int64_t> next{0};
    std::atomic<std::int64_t> folded{0};
    std::unique_ptr<std::atomic<bool>[]> staged;
    char* operands{};
    std::size_t stage_bytes{};
    std::int64_t stages{};
    std::mutex progress;  // with `progressed`: a part staged or folded
    std::condition_variable progressed;
  };

  // `job` with its call, rows and parts set: on the helpers if they are free and the stages'
  // memory is within kMaxStageBytes, otherwise the kernel's own pass on this thread.
  void run_ordered(Job& job);
  void run_on_helpers(Job& job);
  void help(int index);
  static void work(Job& job, int index);
  static void run_parts(Job& job, int index);
  static void stage_part(Job& job, std::int64_t part, std::vector<legate_fuse_array>& arrays,
                         std::vector<std::int64_t>& extents, std::vector<char>& scalars);
  static void stage_parts(Job& job);  // a helper's: stage parts in order of claim
  static void fold_parts(Job& job);   // the caller's: stage parts, and fold them in order
  // The kernel resumed on `part`'s rows, from `partial`'s accumulators.
  static void resume_part(const Job& job, std::int64_t part, char* partial,
                          std::vector<legate_fuse_array>& arrays,
                          std::vector<std::int64_t>& extents, std::vector<char>& scalars);

  std::atomic<int> threads_{1};
  std::atomic<std::uint64_t> split_runs_{0};
  std::atomic<std::uint64_t> pipelined_runs_{0};
  std::atomic<std::int64_t> min_part_elements_{kMinPartElements};
  std::mutex busy_;             // held by the call whose parts the helpers run
  std::vector<char> operands_;  // the stages' operand buffers, under busy_

  std::mutex mutex_;  // guards the fields below
  std::condition_variable wake_;
  std::condition_variable done_;
  Job* job_{};
  std::uint64_t generation_{};
  int working_{};  // helpers inside the current job
  int helpers_{};
};

}  // namespace legate_fuse
