#include "codegen/c_renderer.h"

#include <algorithm>
#include <sstream>

#include "codegen/arg_reduction.h"
#include "codegen/c_ops.h"
#include "codegen/c_vector_math.h"
#include "codegen/checked_complex_body.h"
#include "codegen/complex_float.h"
#include "codegen/element_body.h"
#include "codegen/half_float.h"
#include "codegen/kernel_abi_text.h"
#include "codegen/ordered_fold.h"
#include "codegen/staged_body.h"
#include "codegen/value_outputs.h"
#include "runtime/kernel_abi.h"

namespace legate_fuse::codegen {
namespace {

const char* const kPrelude = R"(#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
)";

class Renderer {
 public:
  explicit Renderer(const KernelSpec& spec) : spec_{spec} {}

  std::string render()
  {
    std::ostringstream out;
    out << vector_math_defaults() << kPrelude << KERNEL_ABI_TEXT << "\n"
        << remainder_helpers("static inline") << vector_math_helpers() << "\n";
    if (uses_half(spec_)) {
      out << half_helpers("static inline") << "\n";
    }
    if (uses_complex(spec_)) {
      out << complex_helpers() << "\n";
    }
    out << argval_helpers(spec_);
    if (uses_index(spec_)) {
      // The element's index in the launch: a one-dimensional iteration space, so the row's
      // first index plus the position in the row.
      out << "#define LF_INDEX (lf_row_start + i)\n\n";
    }
    if (writes_values_once(spec_)) {
      // Its 0-d outputs are written once, after the loops: the kernel runs whole.
      write_function(out, Form::Whole);
    } else if (folds_in_order(spec_)) {
      // The stage form, whose parts may run at once, their operands folded in element order;
      // the kernel's own pass is the same stages and folds, chunk after chunk.
      write_function(out, Form::Stage);
      write_start_and_fold(out, spec_);
      write_combine(out);
      write_whole_through_stages(out, spec_);
    } else if (resumes()) {
      // The loop once, in its resumed form: the whole block is one part, from the
      // identities.
      write_function(out, Form::Resume);
      write_start(out, spec_);
      write_combine(out);
      write_whole_as_one_part(out, Form::Resume);
    } else if (!split_flags().empty() && value_reductions() > 0) {
      // The loop once, in its part form: the whole block is one part, combined.
      write_function(out, Form::Part);
      write_combine(out);
      write_whole_as_one_part(out, Form::Part);
    } else {
      write_function(out, Form::Whole);
    }
    out << split_flags();
    return out.str();
  }

 private:
  // The kernel, its part form, its resumed form or its stage form (runtime/kernel_abi.h): the
  // same loop, whose single-value reductions end in the reduction arrays, in the caller's
  // slots (the resumed form also starts from them), or (the stage form) as operands stored
  // for a fold after the stage.
  enum class Form { Whole, Part, Resume, Stage };
  void write_function(std::ostringstream& out, Form form) const
  {
    const bool resume  = form == Form::Resume;
    const bool partial = form == Form::Part || resume;
    const bool stage   = form == Form::Stage;
    out << "void "
        << (resume    ? LEGATE_FUSE_RESUME_SYMBOL
            : partial ? LEGATE_FUSE_PART_SYMBOL
            : stage   ? LEGATE_FUSE_STAGE_SYMBOL
                      : KERNEL_SYMBOL)
        << "(int32_t ndim, const int64_t* extents, const legate_fuse_array* arrays, "
           "const void* scalars"
        << (partial ? ", void* lf_partial"
            : stage ? ", void* lf_operands"
                    : "")
        << ")\n{\n";
    out << "  const char* scalar_bytes = (const char*)scalars;\n  (void)scalar_bytes;\n";
    for (std::size_t k = 0; k < spec_.scalar_types.size(); ++k) {
      const auto type = c_type_of(spec_.scalar_types[k]);
      out << "  " << type << " s" << k << ";\n  memcpy(&s" << k << ", scalar_bytes + " << 8 * k
          << ", sizeof(s" << k << "));\n";
    }
    if (uses_index(spec_)) {
      // The block's lower corner follows the scalars (runtime/kernel_abi.h).
      out << "  int64_t lf_origin;\n  memcpy(&lf_origin, scalar_bytes + "
          << 8 * spec_.scalar_types.size() << ", sizeof(lf_origin));\n";
    }
    if (uses_argval_nodes(spec_)) {
      // The block's lower corner, in the launch's coordinates, before dimensions are merged.
      out << "  int64_t lf_corner[LEGATE_FUSE_MAX_DIM];\n  memcpy(lf_corner, scalar_bytes + "
          << 8 * spec_.scalar_types.size() << ", sizeof(lf_corner));\n";
    }
    for (std::size_t a = 0; a < spec_.args.size(); ++a) {
      if (is_value_input(spec_, a)) {
        const auto& dtype = spec_.args[a].dtype;
        out << "  const " << c_type_of(dtype) << " in" << a << " = "
            << loaded(dtype, "*(const " + memory_type_of(dtype) + "*)arrays[" + std::to_string(a) +
                                 "].data")
            << ";\n";
      }
    }
    for (std::size_t r = 0, slot = 0; r < spec_.reductions.size(); ++r) {
      if (is_array_reduction(spec_, r) || stage) {
        continue;
      }
      const auto& red  = spec_.reductions[r];
      const auto dtype = arg_dtype(red.arg);
      const auto acc   = "acc" + std::to_string(r);
      if (resume) {
        out << "  " << c_type_of(dtype) << " " << acc << ";\n  memcpy(&" << acc
            << ", (const char*)lf_partial + " << LEGATE_FUSE_PARTIAL_SLOT * slot++ << ", sizeof("
            << acc << "));\n";
        continue;
      }
      out << "  " << c_type_of(dtype) << " " << acc << " = "
          << require_rendering(reduction_identity(red.op, dtype), red.op + " over " + dtype)
          << ";\n";
    }
    // Rows of the innermost dimension, in row-major order. Each row's start is advanced
    // from the last one's (an odometer over the outer dimensions), and whether rows are
    // contiguous is decided once: a block with short rows (a broadcast along a short last
    // dimension) spends most of its time between rows.
    out << "  int64_t outer = 1;\n"
           "  for (int32_t d = 0; d + 1 < ndim; ++d) outer *= extents[d];\n"
           "  const int64_t inner = ndim > 0 ? extents[ndim - 1] : 1;\n"
           "  int64_t index[8] = {0};\n";
    if (stage) {
      write_operand_arrays(out, spec_);
    }
    const ValueFold value_fold = stage ? ValueFold{stored_operand} : ValueFold{};
    for (std::size_t a = 0; a < spec_.args.size(); ++a) {
      out << "  char* row" << a << " = arrays[" << a << "].data;\n"
          << "  const int64_t st" << a << " = ndim > 0 ? arrays[" << a
          << "].strides[ndim - 1] : 0;\n";
    }
    out << "  const int contiguous = " << contiguous_condition() << ";\n";
    if (folds_arrays()) {
      out << "  const int into_row_element = " << into_row_element_condition() << ";\n";
    }
    out << "  for (int64_t o = 0; o < outer; ++o) {\n";
    if (uses_index(spec_)) {
      out << "    const int64_t lf_row_start = lf_origin + o * inner;\n";
    }
    for (std::size_t a = 0; a < spec_.args.size(); ++a) {
      out << "    char* p" << a << " = row" << a << ";\n";
    }
    // Contiguous rows get typed indexing, which compilers vectorise; anything else strides.
    out << "    if (contiguous) {\n";
    const ElementAccess contiguous = [&](std::size_t a) { return element(a, true); };
    if (wants_staging(spec_)) {
      write_staged_body(out, spec_, "      ", "inner", contiguous, value_fold);
    } else if (wants_nan_check(spec_)) {
      write_nan_checked_body(out, spec_, "      ", "inner", contiguous);
    } else {
      out << "      for (int64_t i = 0; i < inner; ++i) {\n";
      write_element_body(out, spec_, "        ", contiguous, fold_in_place(), value_fold);
      out << "      }\n";
    }
    if (folds_arrays()) {
      write_fold_into_row_element(out, contiguous);
    }
    out << "    } else {\n"
        << "      for (int64_t i = 0; i < inner; ++i) {\n";
    write_element_body(
        out, spec_, "        ", [&](std::size_t a) { return element(a, false); }, fold_in_place(),
        value_fold);
    out << "      }\n    }\n"
           "    for (int32_t d = ndim - 2; d >= 0; --d) {\n"
           "      if (++index[d] < extents[d]) {\n";
    for (std::size_t a = 0; a < spec_.args.size(); ++a) {
      out << "        row" << a << " += arrays[" << a << "].strides[d];\n";
    }
    out << "        break;\n"
           "      }\n"
           "      index[d] = 0;\n";
    for (std::size_t a = 0; a < spec_.args.size(); ++a) {
      out << "      row" << a << " -= (extents[d] - 1) * arrays[" << a << "].strides[d];\n";
    }
    out << "    }\n"
           "  }\n";
    if (writes_values_once(spec_)) {
      write_value_outputs(out, spec_, "  ");
    }
    for (std::size_t r = 0, slot = 0; r < spec_.reductions.size(); ++r) {
      if (is_array_reduction(spec_, r) || stage) {
        continue;
      }
      const auto acc = "acc" + std::to_string(r);
      if (partial) {
        out << "  memcpy((char*)lf_partial + " << LEGATE_FUSE_PARTIAL_SLOT * slot++ << ", &" << acc
            << ", sizeof(" << acc << "));\n";
      } else {
        out << "  " << fold_into_slot(r, acc) << "\n";
      }
    }
    out << "}\n";
  }

  // Folds a part's value of reduction `r` into its reduction array.
  [[nodiscard]] std::string fold_into_slot(std::size_t r, const std::string& value) const
  {
    const auto& red  = spec_.reductions[r];
    const auto dtype = arg_dtype(red.arg);
    const auto slot  = "(*(" + c_type_of(dtype) + "*)arrays[" + std::to_string(red.arg) + "].data)";
    return slot + " = " + require_rendering(reduction_combine(red.op, dtype, slot, value), red.op) +
           ";";
  }

  // legate_fuse_kernel_combine: a part's slots folded into the reduction arrays.
  void write_combine(std::ostringstream& out) const
  {
    out << "const int32_t " << LEGATE_FUSE_PARTIAL_COUNT_SYMBOL << " = " << value_reductions()
        << ";\nvoid " << LEGATE_FUSE_COMBINE_SYMBOL
        << "(const legate_fuse_array* arrays, const void* lf_partial)\n{\n";
    for (std::size_t r = 0, slot = 0; r < spec_.reductions.size(); ++r) {
      if (is_array_reduction(spec_, r)) {
        continue;
      }
      const auto type = c_type_of(arg_dtype(spec_.reductions[r].arg));
      const auto part = "part" + std::to_string(r);
      out << "  " << type << " " << part << ";\n  memcpy(&" << part
          << ", (const char*)lf_partial + " << LEGATE_FUSE_PARTIAL_SLOT * slot++ << ", sizeof("
          << part << "));\n  " << fold_into_slot(r, part) << "\n";
    }
    out << "}\n";
  }

  // The kernel of a block not split: its part form (or its resumed form, from the identities)
  // over the whole block, then the combine.
  void write_whole_as_one_part(std::ostringstream& out, Form form) const
  {
    const bool resume = form == Form::Resume;
    const char* part  = resume ? LEGATE_FUSE_RESUME_SYMBOL : LEGATE_FUSE_PART_SYMBOL;
    out << "void " << KERNEL_SYMBOL
        << "(int32_t ndim, const int64_t* extents, const legate_fuse_array* arrays, "
           "const void* scalars)\n{\n  char lf_partial["
        << LEGATE_FUSE_PARTIAL_SLOT * value_reductions() << "];\n  "
        << (resume ? std::string{LEGATE_FUSE_START_SYMBOL} + "(lf_partial);\n  " : "") << part
        << "(ndim, extents, arrays, scalars, lf_partial);\n  " << LEGATE_FUSE_COMBINE_SYMBOL
        << "(arrays, lf_partial);\n}\n";
  }

  // Whether the kernel's rows may run in parts one after another in order, its accumulators
  // carried from each to the next (LEGATE_FUSE_SPLIT_RESUMES): every reduction is into a
  // value, and one folds in an order that shows, by arithmetic alone (with a C library call,
  // its stages split across threads instead: codegen/ordered_fold.h). Its parts then wait for
  // nothing but the rows they read: a row call's parts may run before each (CG's `p @ (A @ p)`
  // folds each part of the product's rows as soon as they are computed).
  [[nodiscard]] bool resumes() const
  {
    return !writes_values_once(spec_) && !folds_in_order(spec_) && !uses_argval_nodes(spec_) &&
           !spec_.reductions.empty() && value_reductions() == spec_.reductions.size() &&
           !reductions_free_of_order();
  }

  [[nodiscard]] std::size_t value_reductions() const
  {
    std::size_t count = 0;
    for (std::size_t r = 0; r < spec_.reductions.size(); ++r) {
      count += is_array_reduction(spec_, r) ? 0 : 1;
    }
    return count;
  }

  // Whether every reduction gives the same bits whatever order its values come in.
  [[nodiscard]] bool reductions_free_of_order() const
  {
    return std::all_of(spec_.reductions.begin(), spec_.reductions.end(), [&](const ReduceSpec& r) {
      return reduction_free_of_order(arg_dtype(r.arg));
    });
  }

  // How the FUSED task may split the kernel's block (runtime/kernel_abi.h): by rows wherever
  // each element is computed from its own position alone, single-value reductions through
  // their partials where their order does not show. A reduction along an axis folds rows into
  // shared elements, and an argmin/argmax reads the corner in every dimension: those run whole.
  // A floating-point reduction into a value folds in one pass, element after element, as
  // cuPyNumeric's task folds it on a CPU, so that its bits are those of fusion off, whichever
  // windows of a run fuse (a group runs unfused while its kernel compiles, and now and then to
  // measure the payoff) and whatever the threads: where the kernel calls the C library, its
  // parts run as stages, their operands folded in order (codegen/ordered_fold.h); otherwise
  // the kernel runs whole, or resumed on its rows' parts one after another (`resumes`).
  [[nodiscard]] std::string split_flags() const
  {
    if (writes_values_once(spec_)) {
      return "";
    }
    const bool ordered             = folds_in_order(spec_);
    const std::string moves_corner = uses_index(spec_) ? " | LEGATE_FUSE_SPLIT_MOVES_CORNER" : "";
    if (!ordered && (value_reductions() != spec_.reductions.size() || uses_argval_nodes(spec_) ||
                     !reductions_free_of_order())) {
      // Never in parts at once: at most resumed on its rows' parts, one after another.
      return resumes() ? std::string{"const int32_t "} + LEGATE_FUSE_SPLIT_SYMBOL +
                             " = LEGATE_FUSE_SPLIT_RESUMES" + moves_corner + ";\n"
                       : "";
    }
    std::string flags = "LEGATE_FUSE_SPLIT_ROWS";
    flags += moves_corner;
    if (ordered) {
      flags += " | LEGATE_FUSE_SPLIT_ORDERED";
    } else if (value_reductions() > 0) {
      flags += " | LEGATE_FUSE_SPLIT_PARTIALS";
    }
    return std::string{"const int32_t "} + LEGATE_FUSE_SPLIT_SYMBOL + " = " + flags + ";\n";
  }

  [[nodiscard]] const std::string& arg_dtype(std::int32_t arg) const
  {
    return spec_.args.at(static_cast<std::size_t>(arg)).dtype;
  }

  // Whether the kernel addresses the argument's element at each iteration (its stride then
  // decides whether rows are contiguous): all but values read once and values reduced into.
  [[nodiscard]] bool strided(std::size_t arg) const
  {
    const bool value_reduction =
        spec_.args[arg].role == ArgSpec::Role::Reduction && spec_.args[arg].value;
    return !value_reduction && !is_value_input(spec_, arg) &&
           !(writes_values_once(spec_) && is_value_output(spec_, arg));
  }

  // A point task's loop is sequential: an array reduction folds into its element in place, in
  // the order cuPyNumeric's own kernel folds (row-major over the iteration block).
  [[nodiscard]] ArrayFold fold_in_place() const
  {
    return [this](std::size_t r, const std::string& element, const std::string& value) {
      return fold_statement(r, element, value);
    };
  }

  // `target = target <reduction r> value;`
  [[nodiscard]] std::string fold_statement(std::size_t r, const std::string& target,
                                           const std::string& value) const
  {
    const auto& red = spec_.reductions[r];
    return target + " = " +
           require_rendering(reduction_combine(red.op, arg_dtype(red.arg), target, value), red.op) +
           ";";
  }

  [[nodiscard]] bool folds_arrays() const
  {
    for (std::size_t r = 0; r < spec_.reductions.size(); ++r) {
      if (is_array_reduction(spec_, r)) {
        return true;
      }
    }
    return false;
  }

  // Rows along which every array reduction folds into one element (a reduction along the last
  // axis: its target's row stride is 0) while the other arrays are contiguous.
  [[nodiscard]] std::string into_row_element_condition() const
  {
    std::string condition = "1";
    for (std::size_t a = 0; a < spec_.args.size(); ++a) {
      if (!strided(a)) {
        continue;
      }
      const bool folded = spec_.args[a].role == ArgSpec::Role::Reduction;
      condition += " && st" + std::to_string(a) + " == " +
                   (folded ? "0" : "(int64_t)sizeof(" + memory_type_of(spec_.args[a].dtype) + ")");
    }
    return condition;
  }

  // Such a row folds into a local variable per reduction, stored once after the row: the same
  // folds in the same order as folding into memory (so the same result), without each fold
  // waiting for the store of the one before it.
  void write_fold_into_row_element(std::ostringstream& out, const ElementAccess& contiguous) const
  {
    out << "    } else if (into_row_element) {\n";
    for (std::size_t r = 0; r < spec_.reductions.size(); ++r) {
      if (is_array_reduction(spec_, r)) {
        const auto arg = static_cast<std::size_t>(spec_.reductions[r].arg);
        out << "      " << c_type_of(spec_.args[arg].dtype) << " racc" << r << " = "
            << row_element(arg) << ";\n";
      }
    }
    out << "      for (int64_t i = 0; i < inner; ++i) {\n";
    write_element_body(out, spec_, "        ", contiguous,
                       [this](std::size_t r, const std::string&, const std::string& value) {
                         return fold_statement(r, "racc" + std::to_string(r), value);
                       });
    out << "      }\n";
    for (std::size_t r = 0; r < spec_.reductions.size(); ++r) {
      if (is_array_reduction(spec_, r)) {
        const auto arg = static_cast<std::size_t>(spec_.reductions[r].arg);
        out << "      " << row_element(arg) << " = racc" << r << ";\n";
      }
    }
  }

  [[nodiscard]] std::string contiguous_condition() const
  {
    std::string condition = "1";
    for (std::size_t a = 0; a < spec_.args.size(); ++a) {
      if (strided(a)) {
        condition += " && st" + std::to_string(a) + " == (int64_t)sizeof(" +
                     memory_type_of(spec_.args[a].dtype) + ")";
      }
    }
    return condition;
  }

  // The one element a row folds into.
  [[nodiscard]] std::string row_element(std::size_t arg) const
  {
    return "(*(" + memory_type_of(spec_.args[arg].dtype) + "*)p" + std::to_string(arg) + ")";
  }

  [[nodiscard]] std::string element(std::size_t arg, bool contiguous) const
  {
    const auto type = memory_type_of(spec_.args[arg].dtype);
    const auto a    = std::to_string(arg);
    if (contiguous) {
      return "((" + type + "*)p" + a + ")[i]";
    }
    return "(*(" + type + "*)(p" + a + " + i * st" + a + "))";
  }

  const KernelSpec& spec_;
};

}  // namespace

std::string render_c(const KernelSpec& spec) { return Renderer{spec}.render(); }

}  // namespace legate_fuse::codegen
