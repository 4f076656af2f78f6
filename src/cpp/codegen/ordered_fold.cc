#include "codegen/ordered_fold.h"

#include "codegen/arg_reduction.h"
#include "codegen/c_ops.h"
#include "codegen/c_renderer.h"
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
std::string masks_of(std::size_t r) { return "lf_mask" + std::to_string(r); }

}  // namespace

bool folds_in_order(const KernelSpec& spec)
{
  if (uses_argval_nodes(spec)) {
    return false;
  }
  bool ordered = false;
  for (std::size_t r = 0; r < spec.reductions.size(); ++r) {
    const auto& dtype = reduced_dtype(spec, r);
    // (A sum of products folds from both factors, which the stage form does not store.)
    if (is_array_reduction(spec, r) || spec.reductions[r].op == "SUM_PRODUCT" ||
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

std::string stored_operand(std::size_t r, const std::string& value, const std::string& mask)
{
  const auto stored = operands_of(r) + "[o * inner + i] = " + value + ";";
  return mask.empty() ? stored
                      : stored + " " + masks_of(r) + "[o * inner + i] = (uint8_t)(" + mask + ");";
}

void write_operand_arrays(std::ostringstream& out, const KernelSpec& spec)
{
  out << "  const int64_t lf_volume = outer * inner;\n";
  for (std::size_t r = 0; r < spec.reductions.size(); ++r) {
    const auto type = c_type_of(operand_dtype_of(spec, r));
    out << "  " << type << "* " << operands_of(r) << " = (" << type << "*)((char*)lf_operands + "
        << LEGATE_FUSE_OPERAND_BYTES * r << " * lf_volume);\n";
    if (spec.reductions[r].mask.index >= 0) {
      out << "  uint8_t* " << masks_of(r) << " = (uint8_t*)lf_operands + "
          << LEGATE_FUSE_OPERAND_BYTES * (spec.reductions.size() + r) << " * lf_volume;\n";
    }
  }
}

void write_start(std::ostringstream& out, const KernelSpec& spec)
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
}

void write_start_and_fold(std::ostringstream& out, const KernelSpec& spec)
{
  write_start(out, spec);
  out << "void " << LEGATE_FUSE_FOLD_SYMBOL
      << "(const void* lf_operands, int64_t count, void* lf_partial)\n{\n";
  for (std::size_t r = 0; r < spec.reductions.size(); ++r) {
    const auto& red  = spec.reductions[r];
    const auto dtype = reduced_dtype(spec, r);
    const auto type  = c_type_of(dtype);
    const auto value = c_type_of(operand_dtype_of(spec, r));
    const auto acc   = "acc" + std::to_string(r);
    const auto slot  = "(char*)lf_partial + " + std::to_string(LEGATE_FUSE_PARTIAL_SLOT * r);
    // The one pass's own statement (element_body.cc, write_reductions), masked alike.
    auto combined = require_rendering(reduction_combine(red.op, dtype, acc, "ops[i]"), red.op);
    out << "  {\n    " << type << " " << acc << ";\n    memcpy(&" << acc << ", " << slot
        << ", sizeof(" << acc << "));\n    const " << value << "* ops = (const " << value
        << "*)((const char*)lf_operands + " << LEGATE_FUSE_OPERAND_BYTES * r << " * count);\n";
    if (red.mask.index >= 0) {
      out << "    const uint8_t* masks = (const uint8_t*)lf_operands + "
          << LEGATE_FUSE_OPERAND_BYTES * (spec.reductions.size() + r) << " * count;\n";
      combined = "(masks[i] ? " + combined + " : " + acc + ")";
    }
    out << "    for (int64_t i = 0; i < count; ++i) {\n      " << acc << " = " << combined
        << ";\n    }\n    memcpy(" << slot << ", &" << acc << ", sizeof(" << acc << "));\n  }\n";
  }
  out << "}\n";
}

void write_whole_through_stages(std::ostringstream& out, const KernelSpec& spec)
{
  const std::size_t reductions = spec.reductions.size();
  const std::size_t args       = spec.args.size();
  const std::size_t corner     = 8 * spec.scalar_types.size();
  out << "void " << KERNEL_SYMBOL
      << "(int32_t ndim, const int64_t* extents, const legate_fuse_array* arrays, "
         "const void* scalars)\n{\n"
      << "  char lf_partial[" << LEGATE_FUSE_PARTIAL_SLOT * reductions << "];\n  "
      << LEGATE_FUSE_START_SYMBOL << "(lf_partial);\n"
      << "  if (ndim == 0) {\n    double lf_operand[" << 2 * reductions << "];\n    "
      << LEGATE_FUSE_STAGE_SYMBOL << "(ndim, extents, arrays, scalars, lf_operand);\n    "
      << LEGATE_FUSE_FOLD_SYMBOL << "(lf_operand, 1, lf_partial);\n    "
      << LEGATE_FUSE_COMBINE_SYMBOL << "(arrays, lf_partial);\n    return;\n  }\n"
      << "  int64_t lf_row_volume = 1;\n"
      << "  for (int32_t d = 1; d < ndim; ++d) lf_row_volume *= extents[d];\n"
      << "  int64_t lf_chunk_rows = lf_row_volume > 0 ? " << ORDERED_CHUNK
      << " / lf_row_volume : 1;\n  if (lf_chunk_rows < 1) lf_chunk_rows = 1;\n"
      << "  double lf_chunk[" << ORDERED_CHUNK * 2 * reductions << "];\n"
      << "  char* lf_operands = lf_chunk_rows * lf_row_volume <= " << ORDERED_CHUNK
      << " ? (char*)lf_chunk : (char*)malloc((size_t)("
      << LEGATE_FUSE_OPERAND_BYTES * 2 * reductions
      << " * lf_row_volume));\n"
      // Out of memory for one row's operands: fusion off would have failed sooner (its
      // temporaries are whole arrays); the kernel must not return without its result.
      << "  if (lf_operands == NULL) abort();\n"
      << "  legate_fuse_array lf_arrays[" << args << "];\n"
      << "  memcpy(lf_arrays, arrays, sizeof(lf_arrays));\n"
      << "  int64_t lf_extents[LEGATE_FUSE_MAX_DIM];\n"
      << "  memcpy(lf_extents, extents, sizeof(int64_t) * (size_t)ndim);\n"
      << "  char lf_scalars[" << corner + 8 * LEGATE_FUSE_MAX_DIM << "];\n"
      << "  memcpy(lf_scalars, scalars, sizeof(lf_scalars));\n"
      << "  int64_t lf_corner;\n  memcpy(&lf_corner, lf_scalars + " << corner
      << ", sizeof(lf_corner));\n"
      << "  for (int64_t lf_first = 0; lf_first < extents[0]; lf_first += lf_chunk_rows) {\n"
      << "    const int64_t lf_rows = extents[0] - lf_first < lf_chunk_rows ? extents[0] - "
         "lf_first : lf_chunk_rows;\n"
      << "    for (int k = 0; k < " << args
      << "; ++k) lf_arrays[k].data = arrays[k].data + lf_first * arrays[k].strides[0];\n"
      << "    lf_extents[0] = lf_rows;\n"
      << "    const int64_t lf_part_corner = lf_corner + lf_first;\n"
      << "    memcpy(lf_scalars + " << corner << ", &lf_part_corner, sizeof(lf_part_corner));\n    "
      << LEGATE_FUSE_STAGE_SYMBOL << "(ndim, lf_extents, lf_arrays, lf_scalars, lf_operands);\n    "
      << LEGATE_FUSE_FOLD_SYMBOL << "(lf_operands, lf_rows * lf_row_volume, lf_partial);\n  }\n"
      << "  if (lf_operands != (char*)lf_chunk) free(lf_operands);\n  "
      << LEGATE_FUSE_COMBINE_SYMBOL << "(arrays, lf_partial);\n}\n";
}

}  // namespace legate_fuse::codegen
