#pragma once

// complex64 and complex128 in the C kernels, as cuPyNumeric's CPU kernels compute them with
// cuda::std::complex (libcu++): addition, subtraction and negation by components; products
// with libcu++'s formula, including its recovery of infinities from NaN results (not
// quotients: not lifted); equality by components;
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

}  // namespace legate_fuse::codegen
