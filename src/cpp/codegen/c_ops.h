#pragma once

#include <optional>
#include <string>
#include <vector>

namespace legate_fuse::codegen {

// C type of a kernel value of a Legate dtype (float16 values are floats: half_float.h); nullopt
// when kernels do not support the dtype (complex...).
std::optional<std::string> c_type(const std::string& dtype);

// C expression computing `op` with NumPy's semantics (as cuPyNumeric's CPU kernels compute it)
// on operands already converted to expressions; nullopt when the operation is not supported for
// these dtypes. Floating-point results use the same C operations and libm functions.
std::optional<std::string> c_expression(const std::string& op, const std::string& out_dtype,
                                        const std::vector<std::string>& in_dtypes,
                                        const std::vector<std::string>& operands);

// Whether `op` selects one of its operands (or a constant) without computing: copies, where,
// putmask, fill, maximum and minimum. Selections keep the bits of what they select.
bool is_selection(const std::string& op);

// Whether `op` on these input dtypes is computed by an out-of-line C library call (exp, log,
// pow, ...), which compilers cannot vectorise without changing the results; sqrt, fabs and the
// rounding functions are single instructions and do not count.
bool is_library_call(const std::string& op, const std::vector<std::string>& in_dtypes);

// Identity and combining step of a reduction in `dtype`; nullopt when unsupported.
std::optional<std::string> reduction_identity(const std::string& op, const std::string& dtype);
std::optional<std::string> reduction_combine(const std::string& op, const std::string& dtype,
                                             const std::string& acc, const std::string& value);
// SUM_PRODUCT is the sum of products of cuPyNumeric's DOT task on CPUs: its build contracts
// each step into a fused multiply-add, `acc = fma(a, b, acc)` (rounded once), which
// product_fold renders; its identity is the sum's, and combined with a value (a part's
// accumulator into the result) it adds as the sum does.
[[nodiscard]] std::optional<std::string> product_fold(const std::string& dtype,
                                                      const std::string& acc,
                                                      const std::string& first,
                                                      const std::string& second);
// Whether a reduction into `dtype` gives the same bits whatever order its values come in:
// integers and bools (wrapping sums and products, max, min, all, any). A floating-point sum
// rounds after each addition, and a max or min may keep either of two NaNs.
bool reduction_free_of_order(const std::string& dtype);

}  // namespace legate_fuse::codegen
