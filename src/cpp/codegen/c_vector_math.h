#pragma once

#include <cstddef>
#include <string>

#include "ir/kernel_spec.h"

namespace legate_fuse::codegen {

// Vector forms of C library functions that round exactly as the C library does.
//
// glibc's float64 exp (from the Arm Optimized Routines) is a table lookup and a short
// polynomial; on x86-64 CPUs with FMA it runs a build whose multiply-adds are fused. The C
// below is that algorithm, operation for operation, written so that compilers vectorise it;
// inputs off its common path (|x| < 2^-54, |x| >= 512, NaN, infinities) go to the C library's
// exp itself. Whether the two agree bit for bit on a machine is checked there, once, by
// running vector_math_check_program() (legate_fuse/vector_math.py); kernels use the vector form
// only when the check passed, through the preprocessor macro LF_VECTOR_EXP.

// The helpers lf_exp_common / lf_exp_special and their table, compiled when LF_VECTOR_EXP is 1.
[[nodiscard]] std::string vector_math_helpers();

// A C program that exits with 0 when the vector exp equals the C library's on every input it
// tries (wide random ranges, random bit patterns, special values) and prints the first
// differences otherwise.
[[nodiscard]] std::string vector_math_check_program();

// Whether node n has a vector form (float64 exp).
[[nodiscard]] bool has_vector_form(const KernelSpec& spec, std::size_t n);

}  // namespace legate_fuse::codegen
