#pragma once

#include <functional>
#include <optional>
#include <sstream>
#include <string>

#include "ir/kernel_spec.h"

namespace legate_fuse::codegen {

// How a renderer addresses element `arg` of the current iteration (an lvalue expression).
using ElementAccess = std::function<std::string(std::size_t arg)>;

// The part of every kernel that both the C and the CUDA renderers share: for one element,
// load the partitioned inputs, evaluate the operation DAG into registers, store the outputs
// and fold the reduced values into the accumulators acc<r>. Single-element (value) inputs are
// expected to be loaded once before, as in<k>.
void write_element_body(std::ostringstream& out, const KernelSpec& spec, const std::string& indent,
                        const ElementAccess& element);

// The pieces of the element body, for renderers that split it (codegen/staged_body.h).
void write_input_load(std::ostringstream& out, const KernelSpec& spec, std::size_t arg,
                      const std::string& indent, const ElementAccess& element);
// `const T r<n> = <expression>;`
void write_node(std::ostringstream& out, const KernelSpec& spec, std::size_t n,
                const std::string& indent);
void write_stores(std::ostringstream& out, const KernelSpec& spec, const std::string& indent,
                  const ElementAccess& element);
void write_reductions(std::ostringstream& out, const KernelSpec& spec, const std::string& indent);
// Whether node n calls an out-of-line C library function (see c_ops.h is_library_call).
[[nodiscard]] bool is_library_call_node(const KernelSpec& spec, std::size_t n);

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
