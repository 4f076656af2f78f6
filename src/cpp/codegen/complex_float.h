#pragma once

// complex64 and complex128 in the C kernels, as cuPyNumeric's CPU kernels compute them with
// cuda::std::complex (libcu++): addition, subtraction and negation by components; products
// and quotients with libcu++'s formulas, including their recovery of infinities from NaN
// results; equality by components;
// conversions by components (into complex, the imaginary part 0; out of it, the real part,
// and to bool whether either part is nonzero). Kernel values are structs of the two parts,
// laid out as in memory.

#include <optional>
#include <string>
#include <vector>

namespace legate_fuse::codegen {

bool is_complex(const std::string& dtype);

// The C expression of `op` where an operand or the result is complex; nullopt when the
// operation is not supported so. `real_expression` renders an operation on real dtypes.
using RealExpression = std::optional<std::string> (*)(const std::string& op, const std::string& out,
                                                      const std::vector<std::string>& ins,
                                                      const std::vector<std::string>& operands);
std::optional<std::string> complex_expression(const std::string& op, const std::string& out,
                                              const std::vector<std::string>& ins,
                                              const std::vector<std::string>& operands,
                                              RealExpression real_expression);

// The C types and functions the expressions above use (for the C kernels only: the CUDA
// renderer refuses complex kernels).
std::string complex_helpers();

// Whether a complex `op` has an inline form besides its function: sums, differences and
// products, whose functions are kept out of line so that they choose between NaN operands as
// cuPyNumeric's do. Where no operand and no result has a NaN part, the inline form computes the
// same bits, and compilers vectorise it.
[[nodiscard]] bool has_inline_form(const std::string& op);
// A C expression, nonzero when either part of complex `value` (of `dtype`) is NaN.
[[nodiscard]] std::string complex_has_nan(const std::string& dtype, const std::string& value);
// The complex memory element `lvalue` (of `dtype`) read part by part: GCC 12 does not vectorise
// a loop that copies a whole struct out of memory ("more than one data ref in stmt").
[[nodiscard]] std::string complex_loaded_by_parts(const std::string& dtype,
                                                  const std::string& lvalue);
// Preprocessor lines that make the complex expressions rendered between them call the inline
// forms, and those that end it.
[[nodiscard]] std::string complex_inline_forms_begin();
[[nodiscard]] std::string complex_inline_forms_end();

}  // namespace legate_fuse::codegen
