#pragma once

#include <functional>
#include <optional>
#include <sstream>
#include <string>

#include "ir/kernel_spec.h"

namespace legate_fuse::codegen {

// How a renderer addresses element `arg` of the current iteration (an lvalue expression).
using ElementAccess = std::function<std::string(std::size_t arg)>;

// How a renderer folds `value` into `element`, the element of array reduction r's target
// that the current iteration reduces into: a statement. C folds in place (a point task's loop
// is sequential); CUDA folds atomically (threads share the target's elements).
using ArrayFold =
    std::function<std::string(std::size_t r, const std::string& element, const std::string& value)>;

// How a renderer takes `value`, the current iteration's operand of reduction r into a single
// value, and `mask`, whether it is folded (empty: always): a statement. Empty: folded into the
// accumulator acc<r>. A kernel's stage form (codegen/ordered_fold.h) stores them instead, for
// a fold in element order after the stage.
using ValueFold =
    std::function<std::string(std::size_t r, const std::string& value, const std::string& mask)>;

// Whether reduction r reduces into an array (a partitioned store, promoted along the reduced
// dimensions: an axis reduction), each element into its own target element, rather than
// into one value accumulated in acc<r>.
[[nodiscard]] bool is_array_reduction(const KernelSpec& spec, std::size_t r);

// The part of every kernel that both the C and the CUDA renderers share: for one element,
// load the partitioned inputs, evaluate the operation DAG into registers, store the outputs,
// fold the reduced values into the accumulators acc<r> and, with `fold`, into the elements of
// array reductions. Single-element (value) inputs are expected to be loaded once before, as
// in<k>.
void write_element_body(std::ostringstream& out, const KernelSpec& spec, const std::string& indent,
                        const ElementAccess& element, const ArrayFold& fold,
                        const ValueFold& value_fold = {});

// The pieces of the element body, for renderers that split it (codegen/staged_body.h).
void write_input_load(std::ostringstream& out, const KernelSpec& spec, std::size_t arg,
                      const std::string& indent, const ElementAccess& element);
// `const T r<n> = <expression>;`
void write_node(std::ostringstream& out, const KernelSpec& spec, std::size_t n,
                const std::string& indent);
void write_stores(std::ostringstream& out, const KernelSpec& spec, const std::string& indent,
                  const ElementAccess& element);
// Throws UnsupportedError for an array reduction when no `fold` is given.
void write_reductions(std::ostringstream& out, const KernelSpec& spec, const std::string& indent,
                      const ElementAccess& element = {}, const ArrayFold& fold = {},
                      const ValueFold& value_fold = {});
// Factor `which` (0 or 1) of a SUM_PRODUCT reduction's value (a BINARY_OP.MULTIPLY node), which
// its fused multiply-add folds (c_ops.h product_fold); throws UnsupportedError otherwise.
[[nodiscard]] const Operand& product_factor(const KernelSpec& spec, const ReduceSpec& red,
                                            std::size_t which);
// Whether node n calls an out-of-line C library function (see c_ops.h is_library_call).
[[nodiscard]] bool is_library_call_node(const KernelSpec& spec, std::size_t n);

[[nodiscard]] bool is_value_input(const KernelSpec& spec, std::size_t arg);

// Whether a node reads its element's index (Operand::Kind::Index): the renderer then defines
// LF_INDEX from the launch's origin (after the run-time scalars) and its loop variables.
[[nodiscard]] bool uses_index(const KernelSpec& spec);
// Whether any array, value or run-time scalar of the kernel is float16 (the renderer then
// includes half_float.h's helpers).
[[nodiscard]] bool uses_half(const KernelSpec& spec);
// `value`, or UnsupportedError naming `what` when a renderer has no rendering for it.
[[nodiscard]] std::string require_rendering(const std::optional<std::string>& value,
                                            const std::string& what);
// The C type of a kernel value of `dtype` (float for float16, see half_float.h).
[[nodiscard]] std::string c_type_of(const std::string& dtype);
// The C type of an element of `dtype` in memory (uint16_t for float16): what array accesses,
// value inputs and strides are typed with.
[[nodiscard]] std::string memory_type_of(const std::string& dtype);
// The helpers the operation table calls: float32/float64 remainders (NumPy's sign convention,
// as cuPyNumeric computes it), signed integer floor division and remainder (cuPyNumeric's
// formulas) and float32/float64 negation by the sign bit, declared with `qualifier` ("static
// inline" for C, "__device__ inline" for CUDA).
[[nodiscard]] std::string remainder_helpers(const std::string& qualifier);
[[nodiscard]] std::string operand_name(const Operand& op);
// The dtype of what an operand names (int64 for the element's index).
[[nodiscard]] std::string operand_dtype(const KernelSpec& spec, const Operand& op);
// `functions` (C function definitions, each starting at the beginning of a line with its return
// type) with `qualifier` before each definition.
[[nodiscard]] std::string declared_with(const std::string& functions, const std::string& qualifier);
// Whether any array, value or node of the kernel is complex (the renderer then includes
// complex_float.h's types and helpers).
[[nodiscard]] bool uses_complex(const KernelSpec& spec);
// Whether any array or node of the kernel is an argval (arg_reduction.h).
[[nodiscard]] bool uses_argval(const KernelSpec& spec);

}  // namespace legate_fuse::codegen
