#include "codegen/ordered_fold.h"

#include "codegen/arg_reduction.h"
#include "codegen/c_ops.h"
#include "codegen/element_body.h"
#include "ir/store_desc.h"
#include "runtime/kernel_abi.h"

namespace legate_fuse::codegen {
namespace {

const std::string& reduced_dtype(const KernelSpec& spec, std::size_t r)
{
  return spec.args.at(static_cast<std::size_t>(spec.reductions[r].arg)).dtype;
}

// The dtype of reduction r's operands: its value's, which the one pass folds as it is (a
// float32 value summed into float64 is not rounded to the sum's type first, nor the reverse).
std::string operand_dtype_of(const KernelSpec& spec, std::size_t r)
{
  return operand_dtype(spec, spec.reductions[r].value);
}

std::string operands_of(std::size_t r) { return "lf_op" + std::to_string(r); }

}  // namespace

bool folds_in_order(const KernelSpec& spec)
{
  if (uses_argval_nodes(spec)) {
    return false;
  }
  bool ordered = false;
  for (std::size_t r = 0; r < spec.reductions.size(); ++r) {
    const auto& dtype = reduced_dtype(spec, r);
    if (is_array_reduction(spec, r) || spec.reductions[r].mask.index >= 0 ||
        ir::dtype_size(operand_dtype_of(spec, r)) > LEGATE_FUSE_OPERAND_BYTES || uses_half(spec) ||
        !reduction_combine(spec.reductions[r].op, dtype, "a", "b").has_value()) {
      return false;
    }
    ordered = ordered || !reduction_free_of_order(dtype);
  }
  bool calls = false;
  for (std::size_t n = 0; n < spec.nodes.size(); ++n) {
    calls = calls || is_library_call_node(spec, n);
  }
  return ordered && calls;
}

std::string stored_operand(std::size_t r, const std::string& value)
{
  return operands_of(r) + "[o * inner + i] = " + value + ";";
}

void write_operand_arrays(std::ostringstream& out, const KernelSpec& spec)
{
  out << "  const int64_t lf_volume = outer * inner;\n";
  for (std::size_t r = 0; r < spec.reductions.size(); ++r) {
    const auto type = c_type_of(operand_dtype_of(spec, r));
    out << "  " << type << "* " << operands_of(r) << " = (" << type << "*)((char*)lf_operands + "
        << LEGATE_FUSE_OPERAND_BYTES * r << " * lf_volume);\n";
  }
}

void write_start_and_fold(std::ostringstream& out, const KernelSpec& spec)
{
  out << "void " << LEGATE_FUSE_START_SYMBOL << "(void* lf_partial)\n{\n";
  for (std::size_t r = 0; r < spec.reductions.size(); ++r) {
    const auto& red  = spec.reductions[r];
    const auto dtype = reduced_dtype(spec, r);
    const auto acc   = "acc" + std::to_string(r);
    out << "  const " << c_type_of(dtype) << " " << acc << " = "
        << require_rendering(reduction_identity(red.op, dtype), red.op + " over " + dtype)
        << ";\n  memcpy((char*)lf_partial + " << LEGATE_FUSE_PARTIAL_SLOT * r << ", &" << acc
        << ", sizeof(" << acc << "));\n";
  }
  out << "}\n";
  out << "void " << LEGATE_FUSE_FOLD_SYMBOL
      << "(const void* lf_operands, int64_t count, void* lf_partial)\n{\n";
  for (std::size_t r = 0; r < spec.reductions.size(); ++r) {
    const auto& red  = spec.reductions[r];
    const auto dtype = reduced_dtype(spec, r);
    const auto type  = c_type_of(dtype);
    const auto value = c_type_of(operand_dtype_of(spec, r));
    const auto acc   = "acc" + std::to_string(r);
    const auto slot  = "(char*)lf_partial + " + std::to_string(LEGATE_FUSE_PARTIAL_SLOT * r);
    out << "  {\n    " << type << " " << acc << ";\n    memcpy(&" << acc << ", " << slot
        << ", sizeof(" << acc << "));\n    const " << value << "* ops = (const " << value
        << "*)((const char*)lf_operands + " << LEGATE_FUSE_OPERAND_BYTES * r
        << " * count);\n    for (int64_t i = 0; i < count; ++i) {\n      " << acc << " = "
        << require_rendering(reduction_combine(red.op, dtype, acc, "ops[i]"), red.op)
        << ";\n    }\n    memcpy(" << slot << ", &" << acc << ", sizeof(" << acc << "));\n  }\n";
  }
  out << "}\n";
}

}  // namespace legate_fuse::codegen
