#pragma once

#include <sstream>
#include <string>

#include "ir/kernel_spec.h"

namespace legate_fuse::codegen {

// Whether the kernel's reductions into single values fold in an order that shows in their
// result (a floating-point sum), so that its parts may run at once only through stages
// (runtime/kernel_abi.h, LEGATE_FUSE_SPLIT_ORDERED): every reduction is into a value, of a
// type of at most LEGATE_FUSE_OPERAND_BYTES bytes, and at least one of them is not free of
// order. (A masked one stores its mask beside its operands: a fold that skips an element
// keeps its accumulator, which no stored operand could stand for, -0.0 sums included.) And the
// kernel calls a C library function (exp, log, ...): the fold is a chain of dependent
// additions on the caller's thread (about 4 cycles an element), so splitting pays only where
// the stage's work per element is several times that; a kernel of arithmetic alone, bound by
// memory, gained nothing from it (CG on a 1-D Laplacian) or lost, its helpers waiting for
// cores the program's thread wanted (CG on a 1000 x 1000 grid: 0.78x): it runs in one pass,
// which may be resumed part after part behind a row call's parts (LEGATE_FUSE_SPLIT_RESUMES).
[[nodiscard]] bool folds_in_order(const KernelSpec& spec);

// The statement of the stage form that stores `value`, the current element's operand of value
// reduction r, and `mask` (if not empty), at the element's position in the part (row `o`,
// position `i` in the row).
[[nodiscard]] std::string stored_operand(std::size_t r, const std::string& value,
                                         const std::string& mask);

// The declarations of the stage form's operand arrays, once the part's rows are known
// (`outer` rows of `inner` elements).
void write_operand_arrays(std::ostringstream& out, const KernelSpec& spec);

// legate_fuse_kernel_start: each reduction's identity in its slot of a partial (every
// reduction of the kernel is into a value).
void write_start(std::ostringstream& out, const KernelSpec& spec);

// legate_fuse_kernel_start and legate_fuse_kernel_fold: the accumulators' identities, and a
// part's operands folded into them in element order, with the very statements of the kernel's
// one pass.
void write_start_and_fold(std::ostringstream& out, const KernelSpec& spec);

// The kernel itself (legate_fuse_kernel) over its whole block: the stage form on chunks of
// rows of at most ORDERED_CHUNK elements (where rows are that short), each chunk's operands
// folded right after it, in order: the operations of one pass, without a second copy of the
// loop to compile.
void write_whole_through_stages(std::ostringstream& out, const KernelSpec& spec);

// Elements per chunk of the kernel's own pass: its operands stay in the first-level cache.
inline constexpr int ORDERED_CHUNK = 1024;

}  // namespace legate_fuse::codegen
