#include "codegen/element_body.h"

#include "codegen/arg_reduction.h"
#include "codegen/c_ops.h"
#include "codegen/c_renderer.h"
#include "codegen/complex_float.h"
#include "codegen/half_float.h"
#include "codegen/value_outputs.h"

namespace legate_fuse::codegen {

std::string operand_dtype(const KernelSpec& spec, const Operand& op)
{
  switch (op.kind) {
    case Operand::Kind::Arg:
      return spec.args.at(static_cast<std::size_t>(op.index)).dtype;
    case Operand::Kind::Register:
      return spec.nodes.at(static_cast<std::size_t>(op.index)).dtype;
    case Operand::Kind::Scalar:
      return spec.scalar_types.at(static_cast<std::size_t>(op.index));
    case Operand::Kind::Index:
      return "int64";
  }
  return "";
}

std::string require_rendering(const std::optional<std::string>& value, const std::string& what)
{
  if (!value) {
    throw UnsupportedError("legate-fuse: no rendering for " + what);
  }
  return *value;
}

bool uses_index(const KernelSpec& spec)
{
  for (const auto& node : spec.nodes) {
    for (const auto& input : node.inputs) {
      if (input.kind == Operand::Kind::Index) {
        return true;
      }
    }
  }
  return false;
}

namespace {

// Whether an argument, a value or a run-time scalar of the kernel has a dtype `is_of_kind` holds.
bool uses_dtype(const KernelSpec& spec, bool (*is_of_kind)(const std::string&))
{
  for (const auto& arg : spec.args) {
    if (is_of_kind(arg.dtype)) return true;
  }
  for (const auto& node : spec.nodes) {
    if (is_of_kind(node.dtype)) return true;
  }
  for (const auto& type : spec.scalar_types) {
    if (is_of_kind(type)) return true;
  }
  return false;
}

}  // namespace

bool uses_half(const KernelSpec& spec) { return uses_dtype(spec, is_half); }

bool uses_complex(const KernelSpec& spec) { return uses_dtype(spec, is_complex); }

bool uses_argval(const KernelSpec& spec) { return uses_dtype(spec, is_argval); }

std::string declared_with(const std::string& functions, const std::string& qualifier)
{
  std::string text;
  std::string::size_type start = 0;
  while (start < functions.size()) {
    auto end        = functions.find('\n', start);
    end             = end == std::string::npos ? functions.size() : end + 1;
    const auto line = functions.substr(start, end - start);
    const bool starts_function =
        !line.empty() && line[0] != ' ' && line[0] != '{' && line[0] != '}' && line[0] != '#';
    text += (starts_function ? qualifier + " " : "") + line;
    start = end;
  }
  return text;
}

bool is_value_input(const KernelSpec& spec, std::size_t arg)
{
  return spec.args[arg].value && spec.args[arg].role == ArgSpec::Role::Input;
}

std::string c_type_of(const std::string& dtype)
{
  return require_rendering(c_type(dtype), "dtype " + dtype);
}

std::string memory_type_of(const std::string& dtype)
{
  return is_half(dtype) ? HALF_STORAGE_TYPE : c_type_of(dtype);
}

std::string integer_division_helpers(const std::string& qualifier)
{
  // cuPyNumeric's floor_divide_signed and signed MOD (binary_op_util.h), in the same types:
  // the quotient in the promoted type of `a / b` (int for 8- and 16-bit operands), the
  // remainder's product and difference too, converted to T at the end. Division by zero
  // traps there as here.
  const char* signed_types[][3] = {{"int8", "int8_t", "int"},
                                   {"int16", "int16_t", "int"},
                                   {"int32", "int32_t", "int32_t"},
                                   {"int64", "int64_t", "int64_t"}};
  std::string text;
  for (const auto& [name, type, promoted] : signed_types) {
    const std::string n = name, t = type, p = promoted;
    text += qualifier + " " + t + " lf_floor_divide_" + n + "(" + t + " a, " + t + " b)\n{\n" +
            "  const " + p + " q = a / b;\n" + "  return (" + t +
            ")(q - (((a < 0) != (b < 0)) && q * b != a));\n}\n";
    text += qualifier + " " + t + " lf_mod_" + n + "(" + t + " a, " + t + " b)\n{\n" + "  const " +
            t + " q = lf_floor_divide_" + n + "(a, b);\n" + "  return (" + t +
            ")((a - b * q) * (b != 0));\n}\n";
  }
  return text;
}

std::string remainder_helpers(const std::string& qualifier)
{
  std::string text = integer_division_helpers(qualifier);
  // Negation as a flip of the sign bit, which the compiler does not fold into a neighbouring
  // addition or subtraction (c_ops.cc, NEGATIVE).
  const char* negated[][3] = {{"double", "float64", "uint64_t"}, {"float", "float32", "uint32_t"}};
  for (const auto& [type, name, bits] : negated) {
    const std::string t = type, b = bits;
    text += qualifier + " " + t + " lf_negate_" + name + "(" + t + " x)\n{\n" + "  union { " + t +
            " f; " + b + " u; } v;\n" + "  v.f = x;\n" + "  v.u ^= (" + b + ")1 << (8 * sizeof(" +
            b + ") - 1);\n" + "  return v.f;\n}\n";
  }
  const char* types[][4] = {{"double", "float64", "fmod", "copysign"},
                            {"float", "float32", "fmodf", "copysignf"}};
  for (const auto& [type, suffix, fmod, copysign] : types) {
    const std::string t = type;
    text += qualifier + " " + t + " lf_remainder_" + suffix + "(" + t + " a, " + t + " b)\n{\n" +
            "  " + t + " mod = " + fmod + "(a, b);\n" + "  if (!b) return mod;\n" +
            "  if (mod) {\n    if ((b < 0) != (mod < 0)) mod += b;\n  } else {\n" +
            "    mod = " + copysign + "((" + t + ")0, b);\n  }\n  return mod;\n}\n";
  }
  return text;
}

std::string operand_name(const Operand& op)
{
  switch (op.kind) {
    case Operand::Kind::Arg:
      return "in" + std::to_string(op.index);
    case Operand::Kind::Register:
      return "r" + std::to_string(op.index);
    case Operand::Kind::Scalar:
      return "s" + std::to_string(op.index);
    case Operand::Kind::Index:
      return "LF_INDEX";  // defined by each renderer, from its loop variables
  }
  return "?";
}

void write_input_load(std::ostringstream& out, const KernelSpec& spec, std::size_t arg,
                      const std::string& indent, const ElementAccess& element)
{
  const auto& dtype = spec.args[arg].dtype;
  out << indent << "const " << c_type_of(dtype) << " in" << arg << " = "
      << loaded(dtype, element(arg)) << ";\n";
}

void write_node(std::ostringstream& out, const KernelSpec& spec, std::size_t n,
                const std::string& indent)
{
  const auto& node = spec.nodes[n];
  std::vector<std::string> operands, dtypes;
  for (const auto& input : node.inputs) {
    operands.push_back(operand_name(input));
    dtypes.push_back(operand_dtype(spec, input));
  }
  std::string what = node.op + " -> " + node.dtype + " (";
  for (std::size_t k = 0; k < dtypes.size(); ++k) {
    what += (k ? ", " : "") + dtypes[k];
  }
  what += ")";
  out << indent << "const " << c_type_of(node.dtype) << " r" << n << " = "
      << require_rendering(c_expression(node.op, node.dtype, dtypes, operands), what) << ";\n";
}

bool is_library_call_node(const KernelSpec& spec, std::size_t n)
{
  const auto& node = spec.nodes[n];
  std::vector<std::string> dtypes;
  for (const auto& input : node.inputs) {
    dtypes.push_back(operand_dtype(spec, input));
  }
  return is_library_call(node.op, dtypes);
}

void write_stores(std::ostringstream& out, const KernelSpec& spec, const std::string& indent,
                  const ElementAccess& element)
{
  const bool values_once = writes_values_once(spec);
  for (const auto& store : spec.stores) {
    const auto arg = static_cast<std::size_t>(store.arg);
    if (values_once && is_value_output(spec, arg)) {
      continue;  // after the loops (codegen/value_outputs.h)
    }
    out << indent << element(arg) << " = "
        << to_storage(spec.args[arg].dtype, "r" + std::to_string(store.reg)) << ";\n";
  }
}

bool is_array_reduction(const KernelSpec& spec, std::size_t r)
{
  return !spec.args.at(static_cast<std::size_t>(spec.reductions.at(r).arg)).value;
}

const Operand& product_factor(const KernelSpec& spec, const ReduceSpec& red, std::size_t which)
{
  const bool product = red.value.kind == Operand::Kind::Register && red.value.index >= 0 &&
                       static_cast<std::size_t>(red.value.index) < spec.nodes.size();
  const auto& node   = spec.nodes.at(static_cast<std::size_t>(product ? red.value.index : 0));
  if (!product || node.op != "BINARY_OP.MULTIPLY" || node.inputs.size() != 2) {
    throw UnsupportedError("legate-fuse: a sum of products whose value is not a product");
  }
  return node.inputs[which];
}

namespace {
std::string factor(const KernelSpec& spec, const ReduceSpec& red, std::size_t which)
{
  return operand_name(product_factor(spec, red, which));
}
}  // namespace

void write_reductions(std::ostringstream& out, const KernelSpec& spec, const std::string& indent,
                      const ElementAccess& element, const ArrayFold& fold,
                      const ValueFold& value_fold)
{
  for (std::size_t r = 0; r < spec.reductions.size(); ++r) {
    const auto& red   = spec.reductions[r];
    const auto& dtype = spec.args.at(static_cast<std::size_t>(red.arg)).dtype;
    const auto value  = operand_name(red.value);
    const auto masked = red.mask.index >= 0;
    if (is_array_reduction(spec, r)) {
      if (!fold || !element) {
        throw UnsupportedError("legate-fuse: no rendering for a reduction into an array here");
      }
      const auto statement = fold(r, element(static_cast<std::size_t>(red.arg)), value);
      out << indent << (masked ? "if (" + operand_name(red.mask) + ") " : "") << statement << "\n";
      continue;
    }
    if (value_fold) {
      out << indent << value_fold(r, value, masked ? operand_name(red.mask) : "") << "\n";
      continue;
    }
    const auto acc = "acc" + std::to_string(r);
    auto combined  = red.op == "SUM_PRODUCT"
                         ? require_rendering(
                               product_fold(dtype, acc, factor(spec, red, 0), factor(spec, red, 1)),
                               red.op + " over " + dtype)
                         : require_rendering(reduction_combine(red.op, dtype, acc, value), red.op);
    if (masked) {
      combined = "(" + operand_name(red.mask) + " ? " + combined + " : " + acc + ")";
    }
    out << indent << acc << " = " << combined << ";\n";
  }
}

void write_element_body(std::ostringstream& out, const KernelSpec& spec, const std::string& indent,
                        const ElementAccess& element, const ArrayFold& fold,
                        const ValueFold& value_fold)
{
  for (std::size_t a = 0; a < spec.args.size(); ++a) {
    if (spec.args[a].role == ArgSpec::Role::Input && !is_value_input(spec, a)) {
      write_input_load(out, spec, a, indent, element);
    }
  }
  for (std::size_t n = 0; n < spec.nodes.size(); ++n) {
    write_node(out, spec, n, indent);
  }
  write_stores(out, spec, indent, element);
  write_reductions(out, spec, indent, element, fold, value_fold);
}

}  // namespace legate_fuse::codegen
