#pragma once

// argmin and argmax along an axis, as cuPyNumeric computes them: its UNARY_RED task folds
// (index along the axis, value) pairs into a store of its struct type `argval` (Legate's
// struct {int64 index at 0, value at 8}, 16 bytes, printed "{int64:0,float64:8}"), which a
// GETARG task then reads the indices out of. Its fold (Argval::apply with Legion's min or max)
// takes the new pair only where its value is strictly below (above) the one held: the first
// index wins a tie, and a NaN value is never taken.

#include <optional>
#include <string>
#include <vector>

#include "ir/kernel_spec.h"

namespace legate_fuse::codegen {

// Whether `dtype` is cuPyNumeric's argval struct of a value type the kernels support.
[[nodiscard]] bool is_argval(const std::string& dtype);
// Its C type (lf_argval_<value dtype>); nullopt for any other dtype.
[[nodiscard]] std::optional<std::string> argval_c_type(const std::string& dtype);

// Whether the kernel pairs values with their indices (ir::argval_node; its renderer then
// loads the block's corner). The index along the reduced axis is the block's corner plus the
// position in the row where the innermost dimension of the block is that axis, which is where
// the target's innermost stride is 0 (the axis is the last one); otherwise the axis has one
// element, at the corner.
[[nodiscard]] bool uses_argval_nodes(const KernelSpec& spec);

// The expression of an operation whose result or operand is an argval (argval nodes, GETARG,
// fills and copies); nullopt when not supported.
[[nodiscard]] std::optional<std::string> argval_expression(
    const std::string& op, const std::string& out, const std::vector<std::string>& ins,
    const std::vector<std::string>& operands);
// ARGMIN and ARGMAX into an argval: identity (cuPyNumeric's: the lowest index and the MIN or
// MAX identity of the value type) and fold.
[[nodiscard]] std::optional<std::string> argval_identity(const std::string& op,
                                                         const std::string& dtype);
[[nodiscard]] std::optional<std::string> argval_combine(const std::string& op,
                                                        const std::string& dtype,
                                                        const std::string& acc,
                                                        const std::string& value);

// The C types and helpers of the argval dtypes the kernel uses.
[[nodiscard]] std::string argval_helpers(const KernelSpec& spec);

}  // namespace legate_fuse::codegen
