#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "tasks/random_draws.h"

namespace legate_fuse {

// The FUSED task's layout (its scalar 2, when present): where each of the kernel's arrays comes
// from, the random numbers drawn (tasks/random_draws.h), the products computed before the
// kernel runs (tasks/products.h) and the row calls made before it (tasks/row_calls.h). Written
// by the launch (legate_fuse/backend/launch.py) as int32 words:
//   [K, (source, index) * K, P, (first factor input, second factor input, result output) * P,
//    D, (result output, kind, generator, generator type, flags, seed, first real, second real,
//        first integer, second integer) * D,
//    C, (name bytes B, name (B bytes in ceil(B / 4) words), N, (source, index) * N) * C],
// each 64-bit value (the seed, the reals as IEEE doubles, the integers) as two words, low first;
// the draws' part and the calls' part may be absent (none).
// Without it, the kernel's arrays are the task's inputs, outputs and reductions, in order.
enum class Source : std::int32_t { Input = 0, Output = 1, Reduction = 2, Product = 3 };

struct Slot {
  Source source{};
  std::uint32_t index{};  // among the task's stores of that kind (a product's: its output)
};

struct Product {
  std::uint32_t first{};  // inputs, read whole
  std::uint32_t second{};
  std::uint32_t out{};  // an output, written whole: read by the kernel as an input
};

struct RowCallSite {
  std::string name;          // as registered (tasks/row_calls.h)
  std::vector<Slot> stores;  // its arguments in order: inputs, and its result as an output
};

struct Layout {
  std::vector<Slot> slots;
  std::vector<Product> products;
  std::vector<Draw> draws;         // in program order
  std::vector<RowCallSite> calls;  // in program order
};

// The layout in `bytes` (`size` of them); throws std::out_of_range on a truncated one.
[[nodiscard]] Layout parse_layout(const void* bytes, std::size_t size);

// The layout of a task without the scalar: its stores in order.
[[nodiscard]] Layout default_layout(std::uint32_t inputs, std::uint32_t outputs,
                                    std::uint32_t reductions);

}  // namespace legate_fuse
