#include "ir/kernel_spec.h"

#include <exception>
#include <sstream>

namespace legate_fuse::ir {
namespace {

std::string operand_text(const Operand& operand)
{
  switch (operand.kind) {
    case Operand::Kind::Arg:
      return "arg " + std::to_string(operand.index);
    case Operand::Kind::Register:
      return "r" + std::to_string(operand.index);
    case Operand::Kind::Scalar:
      return "scalar " + std::to_string(operand.index);
    case Operand::Kind::Index:
      return "index";
  }
  return "?";
}

const char* role_name(ArgSpec::Role role)
{
  switch (role) {
    case ArgSpec::Role::Input:
      return "input";
    case ArgSpec::Role::Output:
      return "output";
    case ArgSpec::Role::Reduction:
      return "reduction";
  }
  return "?";
}

}  // namespace

std::int32_t runtime_scalar_count(const std::string& op)
{
  // clip's bounds; arange's start and step.
  return op == "UNARY_OP.CLIP" || op == "ARANGE" ? 2 : 0;
}

bool takes_index(const std::string& op) { return op == "ARANGE"; }

bool is_product(const std::string& op) { return op == "MATVECMUL" || op == "MATMUL"; }

namespace {
const std::string kArgvalPrefix = "ARGVAL.";
}  // namespace

std::string argval_node(std::int64_t axis, std::int32_t target_arg)
{
  return kArgvalPrefix + std::to_string(axis) + "." + std::to_string(target_arg);
}

std::optional<ArgvalNode> parse_argval_node(const std::string& op)
{
  if (op.compare(0, kArgvalPrefix.size(), kArgvalPrefix) != 0) {
    return std::nullopt;
  }
  const auto dot = op.find('.', kArgvalPrefix.size());
  if (dot == std::string::npos) {
    return std::nullopt;
  }
  try {
    return ArgvalNode{std::stoll(op.substr(kArgvalPrefix.size(), dot - kArgvalPrefix.size())),
                      std::stoi(op.substr(dot + 1))};
  } catch (const std::exception&) {
    return std::nullopt;
  }
}

bool is_arg_reduction(const std::string& reduction)
{
  return reduction == "ARGMIN" || reduction == "ARGMAX";
}

std::string describe(const KernelSpec& spec)
{
  std::ostringstream out;
  for (std::size_t i = 0; i < spec.args.size(); ++i) {
    const auto& arg = spec.args[i];
    out << "arg " << i << ": " << role_name(arg.role) << " " << arg.dtype
        << (arg.value ? " (one value)" : "") << "\n";
  }
  for (std::size_t i = 0; i < spec.scalar_types.size(); ++i) {
    out << "scalar " << i << ": " << spec.scalar_types[i] << "\n";
  }
  for (std::size_t i = 0; i < spec.nodes.size(); ++i) {
    const auto& node = spec.nodes[i];
    out << "r" << i << " = " << node.op << " -> " << node.dtype << " (";
    for (std::size_t k = 0; k < node.inputs.size(); ++k) {
      out << (k ? ", " : "") << operand_text(node.inputs[k]);
    }
    out << ")\n";
  }
  for (const auto& store : spec.stores) {
    out << "arg " << store.arg << " <- r" << store.reg << "\n";
  }
  for (const auto& reduction : spec.reductions) {
    out << "arg " << reduction.arg << " " << reduction.op << "= " << operand_text(reduction.value);
    if (!reduction.mask.is_none()) {
      out << " where " << operand_text(reduction.mask);
    }
    out << "\n";
  }
  return out.str();
}

}  // namespace legate_fuse::ir
