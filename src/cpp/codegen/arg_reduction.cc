#include "codegen/arg_reduction.h"

#include <set>

#include "codegen/c_ops.h"

namespace legate_fuse::codegen {
namespace {

const char* const kValueTypes[] = {"bool",   "int8",   "int16",  "int32",   "int64",  "uint8",
                                   "uint16", "uint32", "uint64", "float32", "float64"};

// The value dtype of an argval dtype, or "".
std::string value_dtype(const std::string& dtype)
{
  const std::string head = "{int64:0,", tail = ":8}";
  if (dtype.size() <= head.size() + tail.size() || dtype.compare(0, head.size(), head) != 0 ||
      dtype.compare(dtype.size() - tail.size(), tail.size(), tail) != 0) {
    return "";
  }
  const auto value = dtype.substr(head.size(), dtype.size() - head.size() - tail.size());
  for (const char* known : kValueTypes) {
    if (value == known) {
      return value;
    }
  }
  return "";
}

}  // namespace

bool is_argval(const std::string& dtype) { return !value_dtype(dtype).empty(); }

std::optional<std::string> argval_c_type(const std::string& dtype)
{
  const auto value = value_dtype(dtype);
  return value.empty() ? std::nullopt : std::optional<std::string>{"lf_argval_" + value};
}

bool uses_argval_nodes(const KernelSpec& spec)
{
  for (const auto& node : spec.nodes) {
    if (ir::parse_argval_node(node.op)) {
      return true;
    }
  }
  return false;
}

std::optional<std::string> argval_expression(const std::string& op, const std::string& out,
                                             const std::vector<std::string>& ins,
                                             const std::vector<std::string>& operands)
{
  if (const auto node = ir::parse_argval_node(op)) {
    if (!is_argval(out) || ins.size() != 1 || ins[0] != value_dtype(out)) {
      return std::nullopt;
    }
    const auto axis = std::to_string(node->axis), arg = std::to_string(node->target_arg);
    return "lf_argval_" + ins[0] + "_make(lf_corner[" + axis + "] + (st" + arg +
           " == 0 ? i : 0), " + operands[0] + ")";
  }
  if (op == "UNARY_OP.GETARG") {
    return out == "int64" && ins.size() == 1 && is_argval(ins[0])
               ? std::optional<std::string>{"(" + operands[0] + ").arg"}
               : std::nullopt;
  }
  // Fills and copies of an argval value keep it whole.
  if ((op == "FILL" || op == "UNARY_OP.COPY") && ins.size() == 1 && ins[0] == out) {
    return operands[0];
  }
  return std::nullopt;
}

std::optional<std::string> argval_identity(const std::string& op, const std::string& dtype)
{
  const auto value = value_dtype(dtype);
  if (value.empty() || (op != "ARGMIN" && op != "ARGMAX")) {
    return std::nullopt;
  }
  const auto bound = reduction_identity(op == "ARGMIN" ? "MIN" : "MAX", value);
  if (!bound) {
    return std::nullopt;
  }
  return "lf_argval_" + value + "_make(INT64_MIN, " + *bound + ")";
}

std::optional<std::string> argval_combine(const std::string& op, const std::string& dtype,
                                          const std::string& acc, const std::string& value)
{
  const auto type = value_dtype(dtype);
  if (type.empty() || (op != "ARGMIN" && op != "ARGMAX")) {
    return std::nullopt;
  }
  return "lf_argval_" + type + "_" + (op == "ARGMIN" ? "min" : "max") + "(" + acc + ", " + value +
         ")";
}

std::string argval_helpers(const KernelSpec& spec)
{
  std::set<std::string> values;
  const auto note = [&](const std::string& dtype) {
    if (const auto value = value_dtype(dtype); !value.empty()) {
      values.insert(value);
    }
  };
  for (const auto& arg : spec.args) {
    note(arg.dtype);
  }
  for (const auto& node : spec.nodes) {
    note(node.dtype);
  }
  std::string text;
  for (const auto& value : values) {
    const auto c    = *c_type(value);
    const auto name = "lf_argval_" + value;
    text += "typedef struct { int64_t arg; " + c + " value; } " + name + ";\n";
    text += "static inline " + name + " " + name + "_make(int64_t arg, " + c + " value)\n{\n  " +
            name + " pair;\n  pair.arg = arg;\n  pair.value = value;\n  return pair;\n}\n";
    // cuPyNumeric's exclusive fold, step for step: std::min (std::max) of the held value and
    // the next; where that differs from the held value, it and the next index are held. (The
    // held value becomes the folded one either way: where they do not differ, they are the
    // same bits. The index is chosen by a mask, not a branch: GCC compiles a conditional
    // choice into a jump, which a new extreme mispredicts, making the fold seven times slower.)
    for (const auto& [suffix, chosen] :
         {std::make_pair("min", "next.value < held.value ? next.value : held.value"),
          std::make_pair("max", "held.value < next.value ? next.value : held.value")}) {
      text += "static inline " + name + " " + name + "_" + suffix + "(" + name + " held, " + name +
              " next)\n{\n  const " + c + " folded = " + chosen +
              ";\n  const int64_t taken = -(int64_t)(folded != held.value);\n  held.arg ^= "
              "(held.arg ^ next.arg) & taken;\n  held.value = folded;\n  return held;\n}\n";
    }
  }
  return text;
}

}  // namespace legate_fuse::codegen
