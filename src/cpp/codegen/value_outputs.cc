#include "codegen/value_outputs.h"

#include <string>
#include <vector>

#include "codegen/c_renderer.h"
#include "codegen/element_body.h"
#include "codegen/half_float.h"

namespace legate_fuse::codegen {

bool is_value_output(const KernelSpec& spec, std::size_t arg)
{
  return spec.args.at(arg).value && spec.args[arg].role == ArgSpec::Role::Output;
}

bool writes_values_once(const KernelSpec& spec)
{
  bool iterates = false;
  bool values   = false;
  for (std::size_t a = 0; a < spec.args.size(); ++a) {
    iterates = iterates || !spec.args[a].value;
    values   = values || is_value_output(spec, a);
  }
  return iterates && values;
}

void write_value_outputs(std::ostringstream& out, const KernelSpec& spec, const std::string& indent)
{
  // The nodes each value is computed by, found from the stores back.
  std::vector<bool> needed(spec.nodes.size(), false);
  std::vector<std::size_t> pending;
  for (const auto& store : spec.stores) {
    if (is_value_output(spec, static_cast<std::size_t>(store.arg))) {
      pending.push_back(static_cast<std::size_t>(store.reg));
    }
  }
  while (!pending.empty()) {
    const auto n = pending.back();
    pending.pop_back();
    if (n >= spec.nodes.size() || needed[n]) {
      continue;
    }
    needed[n] = true;
    for (const auto& input : spec.nodes[n].inputs) {
      if (input.kind == Operand::Kind::Register && input.index >= 0) {
        pending.push_back(static_cast<std::size_t>(input.index));
      } else if ((input.kind == Operand::Kind::Arg &&
                  !is_value_input(spec, static_cast<std::size_t>(input.index))) ||
                 input.kind == Operand::Kind::Index) {
        throw UnsupportedError("legate-fuse: a 0-d output computed from an array's elements");
      }
    }
  }
  out << indent << "{\n";
  const auto inner = indent + "  ";
  for (std::size_t n = 0; n < spec.nodes.size(); ++n) {
    if (needed[n]) {
      write_node(out, spec, n, inner);
    }
  }
  for (const auto& store : spec.stores) {
    const auto arg = static_cast<std::size_t>(store.arg);
    if (is_value_output(spec, arg)) {
      const auto& dtype = spec.args[arg].dtype;
      out << inner << "*(" << memory_type_of(dtype) << "*)arrays[" << arg
          << "].data = " << to_storage(dtype, "r" + std::to_string(store.reg)) << ";\n";
    }
  }
  out << indent << "}\n";
}

}  // namespace legate_fuse::codegen
