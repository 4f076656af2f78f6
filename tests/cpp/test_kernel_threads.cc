// A fused CPU kernel's block run in parts on several threads (runtime/kernel_threads.*), with
// kernels written here in the generated kernels' calling convention: every element computed
// once, a part's corner moved with it, reductions through partials giving the same bits
// whatever the number of threads, and ordered folds through stages giving the bits of one pass.
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <thread>
#include <vector>

#include "check.h"
#include "runtime/kernel_threads.h"

using legate_fuse::CpuKernel;
using legate_fuse::KernelCall;
using legate_fuse::KernelThreads;
using legate_fuse::row_parts;

namespace {

// out = 2 * in + 1, and a count of the times each element was written; rows of a 2-D block
// (extents[0] rows of extents[1]) or a 1-D one. Arrays: in, out, count.
extern "C" void twice_plus_one(std::int32_t ndim, const std::int64_t* extents,
                               const legate_fuse_array* arrays, const void*)
{
  const std::int64_t rows = extents[0];
  const std::int64_t cols = ndim > 1 ? extents[1] : 1;
  for (std::int64_t r = 0; r < rows; ++r) {
    for (std::int64_t c = 0; c < cols; ++c) {
      const std::int64_t in_at    = r * arrays[0].strides[0] + c * arrays[0].strides[1];
      const std::int64_t out_at   = r * arrays[1].strides[0] + c * arrays[1].strides[1];
      const std::int64_t count_at = r * arrays[2].strides[0] + c * arrays[2].strides[1];
      const double value          = *reinterpret_cast<const double*>(arrays[0].data + in_at);
      *reinterpret_cast<double*>(arrays[1].data + out_at) = 2 * value + 1;
      *reinterpret_cast<std::int32_t*>(arrays[2].data + count_at) += 1;
    }
  }
}

// out[k] = the launch index of element k (the block's corner plus k), 1-D.
extern "C" void launch_index(std::int32_t, const std::int64_t* extents,
                             const legate_fuse_array* arrays, const void* scalars)
{
  std::int64_t corner = 0;
  std::memcpy(&corner, scalars, sizeof(corner));
  for (std::int64_t k = 0; k < extents[0]; ++k) {
    reinterpret_cast<std::int64_t*>(arrays[0].data)[k] = corner + k;
  }
}

// A sum of in (1-D) into the single value of arrays[1]: sequentially, or a part's sum into
// its slot, folded in by the combine.
double part_sum(const std::int64_t* extents, const legate_fuse_array* arrays)
{
  double sum = 0;
  for (std::int64_t k = 0; k < extents[0]; ++k) {
    sum += *reinterpret_cast<const double*>(arrays[0].data + k * arrays[0].strides[0]);
  }
  return sum;
}

extern "C" void sum_whole(std::int32_t, const std::int64_t* extents,
                          const legate_fuse_array* arrays, const void*)
{
  *reinterpret_cast<double*>(arrays[1].data) += part_sum(extents, arrays);
}

extern "C" void sum_part(std::int32_t, const std::int64_t* extents, const legate_fuse_array* arrays,
                         const void*, void* partial)
{
  const double sum = part_sum(extents, arrays);
  std::memcpy(partial, &sum, sizeof(sum));
}

extern "C" void sum_combine(const legate_fuse_array* arrays, const void* partial)
{
  double sum = 0;
  std::memcpy(&sum, partial, sizeof(sum));
  *reinterpret_cast<double*>(arrays[1].data) += sum;
}

// An ordered sum (LEGATE_FUSE_SPLIT_ORDERED) of sin(in) into arrays[1]'s value: the stage
// writes each element's operand; the stage of the first part is slow, so that the helpers
// stage the parts after it first and wait for their buffers to be folded.
extern "C" void ordered_stage(std::int32_t, const std::int64_t* extents,
                              const legate_fuse_array* arrays, const void* scalars, void* operands)
{
  std::int64_t corner = 0;
  std::memcpy(&corner, scalars, sizeof(corner));
  if (corner == 0) {
    std::this_thread::sleep_for(std::chrono::milliseconds(30));
  }
  for (std::int64_t k = 0; k < extents[0]; ++k) {
    static_cast<double*>(operands)[k] =
        std::sin(*reinterpret_cast<const double*>(arrays[0].data + k * arrays[0].strides[0]));
  }
}

extern "C" void ordered_whole(std::int32_t, const std::int64_t* extents,
                              const legate_fuse_array* arrays, const void*)
{
  double sum = 0;
  for (std::int64_t k = 0; k < extents[0]; ++k) {
    sum =
        sum + std::sin(*reinterpret_cast<const double*>(arrays[0].data + k * arrays[0].strides[0]));
  }
  *reinterpret_cast<double*>(arrays[1].data) += sum;
}

extern "C" void ordered_start(void* partial)
{
  const double zero = 0;
  std::memcpy(partial, &zero, sizeof(zero));
}

extern "C" void ordered_fold(const void* operands, std::int64_t count, void* partial)
{
  double sum = 0;
  std::memcpy(&sum, partial, sizeof(sum));
  for (std::int64_t k = 0; k < count; ++k) {
    sum = sum + static_cast<const double*>(operands)[k];
  }
  std::memcpy(partial, &sum, sizeof(sum));
}

legate_fuse_array array_of(void* data, std::int64_t stride0, std::int64_t stride1 = 0)
{
  legate_fuse_array array{};
  array.data       = static_cast<char*>(data);
  array.strides[0] = stride0;
  array.strides[1] = stride1;
  return array;
}

KernelCall call_of(const CpuKernel& kernel, std::int32_t ndim, const std::int64_t* extents,
                   const std::vector<legate_fuse_array>& arrays, const std::vector<char>& scalars)
{
  KernelCall call;
  call.kernel     = kernel;
  call.ndim       = ndim;
  call.extents    = extents;
  call.arrays     = arrays.data();
  call.num_arrays = arrays.size();
  call.scalars    = &scalars;
  return call;
}

// Element-wise over a 2-D block of `rows` x `cols` doubles, on `threads` threads.
bool element_wise_is_right(std::int64_t rows, std::int64_t cols, int threads)
{
  std::vector<double> in(static_cast<std::size_t>(rows * cols));
  for (std::size_t i = 0; i < in.size(); ++i) {
    in[i] = static_cast<double>(i % 1000) * 0.25;
  }
  std::vector<double> out(in.size(), -1);
  std::vector<std::int32_t> count(in.size(), 0);
  const std::vector<legate_fuse_array> arrays{array_of(in.data(), cols * 8, 8),
                                              array_of(out.data(), cols * 8, 8),
                                              array_of(count.data(), cols * 4, 4)};
  const std::int64_t extents[2] = {rows, cols};
  const std::vector<char> scalars(8 * LEGATE_FUSE_MAX_DIM, 0);
  CpuKernel kernel;
  kernel.whole = twice_plus_one;
  kernel.split = LEGATE_FUSE_SPLIT_ROWS;
  KernelThreads::instance().set_threads(threads);
  KernelThreads::instance().run(call_of(kernel, 2, extents, arrays, scalars));
  for (std::size_t i = 0; i < in.size(); ++i) {
    if (count[i] != 1 || out[i] != 2 * in[i] + 1) {
      return false;
    }
  }
  return true;
}

// `kernel`, a reduction of `in` into a value starting at `target`, on `threads` threads.
double reduced_on(const CpuKernel& kernel, int threads, const std::vector<double>& in,
                  double target)
{
  const std::vector<legate_fuse_array> arrays{array_of(const_cast<double*>(in.data()), 8),
                                              array_of(&target, 0)};
  const std::int64_t extents[1] = {static_cast<std::int64_t>(in.size())};
  const std::vector<char> scalars(8 * LEGATE_FUSE_MAX_DIM, 0);
  KernelThreads::instance().set_threads(threads);
  KernelThreads::instance().run(call_of(kernel, 1, extents, arrays, scalars));
  return target;
}

// The sum of n values over `threads` threads, through partials.
double sum_on(int threads, std::int64_t n)
{
  std::vector<double> in(static_cast<std::size_t>(n));
  for (std::int64_t i = 0; i < n; ++i) {
    in[static_cast<std::size_t>(i)] = std::sin(static_cast<double>(i)) * 1e3 + 1e-3;
  }
  CpuKernel kernel;
  kernel.whole         = sum_whole;
  kernel.part          = sum_part;
  kernel.combine       = sum_combine;
  kernel.partial_count = 1;
  kernel.split         = LEGATE_FUSE_SPLIT_ROWS | LEGATE_FUSE_SPLIT_PARTIALS;
  return reduced_on(kernel, threads, in, 0);
}

// The ordered sum of n values over `threads` threads, through stages (the block's corner, 0,
// is the first scalar: the slow stage finds its part by it).
double ordered_sum_on(int threads, std::int64_t n)
{
  std::vector<double> in(static_cast<std::size_t>(n));
  for (std::int64_t i = 0; i < n; ++i) {
    in[static_cast<std::size_t>(i)] = static_cast<double>(i) * 0.37;
  }
  CpuKernel kernel;
  kernel.whole         = ordered_whole;
  kernel.stage         = ordered_stage;
  kernel.fold          = ordered_fold;
  kernel.start         = ordered_start;
  kernel.combine       = sum_combine;
  kernel.partial_count = 1;
  kernel.split =
      LEGATE_FUSE_SPLIT_ROWS | LEGATE_FUSE_SPLIT_MOVES_CORNER | LEGATE_FUSE_SPLIT_ORDERED;
  return reduced_on(kernel, threads, in, 0.5);
}

}  // namespace

LF_TEST(parts_hold_enough_elements_and_keep_vector_alignment)
{
  const auto one_d = row_parts(1'000'000, 1, KernelThreads::kMinPartElements, 64);
  LF_CHECK(one_d.rows_per_part >= KernelThreads::kMinPartElements);
  LF_CHECK_EQ(one_d.rows_per_part % 64, std::int64_t{0});
  LF_CHECK(one_d.parts * one_d.rows_per_part >= 1'000'000);
  LF_CHECK((one_d.parts - 1) * one_d.rows_per_part < 1'000'000);
  const auto wide_rows = row_parts(10, 1'000'000, KernelThreads::kMinPartElements, 1);
  LF_CHECK_EQ(wide_rows.rows_per_part, std::int64_t{1});
  LF_CHECK_EQ(wide_rows.parts, std::int64_t{10});
  const auto small = row_parts(100, 10, KernelThreads::kMinPartElements, 1);
  LF_CHECK_EQ(small.parts, std::int64_t{1});
}

LF_TEST(every_element_is_computed_once_whatever_the_threads)
{
  for (const int threads : {1, 2, 3, 8}) {
    LF_CHECK(element_wise_is_right(3000, 301, threads));   // rows, 2-D
    LF_CHECK(element_wise_is_right(7, 100'003, threads));  // fewer rows than threads
    LF_CHECK(element_wise_is_right(1, 5, threads));        // too small to split
  }
}

LF_TEST(only_a_kernel_marked_to_split_runs_on_helpers)
{
  KernelThreads::instance().set_threads(4);
  const auto before = KernelThreads::instance().split_runs();
  LF_CHECK(element_wise_is_right(3000, 301, 4));
  LF_CHECK_EQ(KernelThreads::instance().split_runs(), before + 1);
  KernelThreads::instance().set_threads(1);
  LF_CHECK(element_wise_is_right(3000, 301, 1));
  LF_CHECK_EQ(KernelThreads::instance().split_runs(), before + 1);
}

LF_TEST(run_each_runs_every_part_once_whatever_the_threads)
{
  for (const int threads : {1, 2, 3, 8}) {
    KernelThreads::instance().set_threads(threads);
    for (const std::int64_t parts : {1, 2, 5, 64}) {
      std::vector<std::atomic<int>> runs(static_cast<std::size_t>(parts));
      const auto before = KernelThreads::instance().split_runs();
      KernelThreads::instance().run_each(
          parts, [&](std::int64_t part) { runs[static_cast<std::size_t>(part)].fetch_add(1); });
      for (const auto& count : runs) {
        LF_CHECK_EQ(count.load(), 1);
      }
      LF_CHECK_EQ(KernelThreads::instance().split_runs(), before);  // not a kernel's parts
    }
  }
  KernelThreads::instance().set_threads(1);
}

LF_TEST(each_part_gets_its_own_corner)
{
  const std::int64_t n = 500'000;
  std::vector<std::int64_t> out(static_cast<std::size_t>(n), -1);
  const std::vector<legate_fuse_array> arrays{array_of(out.data(), 8)};
  const std::int64_t extents[1] = {n};
  std::vector<char> scalars(8 * LEGATE_FUSE_MAX_DIM, 0);
  const std::int64_t corner = 70;
  std::memcpy(scalars.data(), &corner, sizeof(corner));
  CpuKernel kernel;
  kernel.whole = launch_index;
  kernel.split = LEGATE_FUSE_SPLIT_ROWS | LEGATE_FUSE_SPLIT_MOVES_CORNER;
  KernelThreads::instance().set_threads(3);
  KernelThreads::instance().run(call_of(kernel, 1, extents, arrays, scalars));
  bool right = true;
  for (std::int64_t k = 0; k < n; ++k) {
    right = right && out[static_cast<std::size_t>(k)] == corner + k;
  }
  LF_CHECK(right);
}

LF_TEST(a_reduction_gives_the_same_bits_whatever_the_threads)
{
  const std::int64_t n = 1'000'003;
  const double one     = sum_on(1, n);
  for (const int threads : {2, 3, 8}) {
    const double many = sum_on(threads, n);
    LF_CHECK(std::memcmp(&one, &many, sizeof(one)) == 0);
  }
  // The parts' sums folded in order, part after part, as the combine is called.
  const auto parts = row_parts(n, 1, KernelThreads::kMinPartElements, 64);
  double want      = 0;
  for (std::int64_t p = 0; p < parts.parts; ++p) {
    double part = 0;
    for (std::int64_t i = p * parts.rows_per_part; i < std::min(n, (p + 1) * parts.rows_per_part);
         ++i) {
      part += std::sin(static_cast<double>(i)) * 1e3 + 1e-3;
    }
    want += part;
  }
  LF_CHECK(std::memcmp(&one, &want, sizeof(one)) == 0);
}

LF_TEST(an_ordered_fold_gives_the_bits_of_one_pass_whatever_the_threads)
{
  const std::int64_t n = 1'000'003;
  double want          = 0;
  for (std::int64_t i = 0; i < n; ++i) {
    want = want + std::sin(static_cast<double>(i) * 0.37);
  }
  want              = 0.5 + want;
  const auto before = KernelThreads::instance().split_runs();
  for (const int threads : {1, 2, 3, 8}) {
    const double got = ordered_sum_on(threads, n);
    LF_CHECK(std::memcmp(&got, &want, sizeof(got)) == 0);
  }
  LF_CHECK(KernelThreads::instance().split_runs() == before + 3);  // all but 1 thread split
}

LF_TEST_MAIN
