#pragma once

#include <functional>
#include <optional>
#include <sstream>
#include <string>

#include "codegen/kernel_spec.h"

namespace legate_fuse::codegen {

// How a renderer addresses element `arg` of the current iteration (an lvalue expression).
using ElementAccess = std::function<std::string(std::size_t arg)>;

// The part of every kernel that both the C and the CUDA renderers share: for one element,
// load the partitioned inputs, evaluate the operation DAG into registers, store the outputs
// and fold the reduced values into the accumulators acc<r>. Single-element (value) inputs are
// expected to be loaded once before, as in<k>.
void write_element_body(std::ostringstream& out, const KernelSpec& spec, const std::string& indent,
                        const ElementAccess& element);

[[nodiscard]] bool is_value_input(const KernelSpec& spec, std::size_t arg);
// `value`, or UnsupportedError naming `what` when a renderer has no rendering for it.
[[nodiscard]] std::string require_rendering(const std::optional<std::string>& value,
                                            const std::string& what);
[[nodiscard]] std::string c_type_of(const std::string& dtype);
// The float32/float64 remainder helpers the operation table calls (NumPy's sign convention, as
// cuPyNumeric computes it), declared with `qualifier` ("static inline" for C, "__device__
// inline" for CUDA).
[[nodiscard]] std::string remainder_helpers(const std::string& qualifier);
[[nodiscard]] std::string operand_name(const Operand& op);

}  // namespace legate_fuse::codegen
