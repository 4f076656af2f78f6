#include "codegen/checked_complex_body.h"

#include <set>

#include "codegen/complex_float.h"
#include "codegen/half_float.h"
#include "codegen/staged_body.h"

namespace legate_fuse::codegen {
namespace {

bool reads_or_makes_complex(const KernelSpec& spec, const Node& node)
{
  if (is_complex(node.dtype)) {
    return true;
  }
  for (const auto& input : node.inputs) {
    if (is_complex(operand_dtype(spec, input))) {
      return true;
    }
  }
  return false;
}

// `flag |= ...;` for every complex value node n reads or produces.
void write_nan_checks(std::ostringstream& out, const KernelSpec& spec, std::size_t n,
                      const std::string& indent, const std::string& flag)
{
  const auto& node = spec.nodes[n];
  std::set<std::string> checked;
  const auto check = [&](const std::string& dtype, const std::string& value) {
    if (is_complex(dtype) && checked.insert(value).second) {
      out << indent << flag << " |= " << complex_has_nan(dtype, value) << ";\n";
    }
  };
  for (const auto& input : node.inputs) {
    check(operand_dtype(spec, input), operand_name(input));
  }
  check(node.dtype, "r" + std::to_string(n));
}

void write_load(std::ostringstream& out, const KernelSpec& spec, std::size_t arg,
                const std::string& indent, const ElementAccess& element)
{
  const auto& dtype = spec.args[arg].dtype;
  if (!is_complex(dtype)) {
    write_input_load(out, spec, arg, indent, element);
    return;
  }
  out << indent << "const " << c_type_of(dtype) << " in" << arg << " = "
      << complex_loaded_by_parts(dtype, element(arg)) << ";\n";
}

}  // namespace

bool wants_nan_check(const KernelSpec& spec)
{
  if (!spec.reductions.empty()) {
    return false;
  }
  bool inlined = false;
  for (std::size_t n = 0; n < spec.nodes.size(); ++n) {
    const auto& node = spec.nodes[n];
    if (is_library_call_node(spec, n)) {
      return false;
    }
    if (!reads_or_makes_complex(spec, node)) {
      continue;
    }
    if (node.op == "BINARY_OP.DIVIDE") {
      return false;  // a quotient has no inline form: the loop would not vectorise
    }
    inlined = inlined || has_inline_form(node.op);
  }
  return inlined;
}

void write_nan_checked_body(std::ostringstream& out, const KernelSpec& spec,
                            const std::string& indent, const std::string& count,
                            const ElementAccess& element)
{
  const auto tile  = std::to_string(STAGE_TILE);
  const auto in1   = indent + "  ";
  const auto in2   = in1 + "  ";
  const auto in3   = in2 + "  ";
  const auto slot  = [](std::size_t s) { return "lf_tile" + std::to_string(s); };
  const auto local = [&](std::size_t s) { return slot(s) + "[i - lf_start]"; };
  out << indent << "for (int64_t lf_start = 0; lf_start < " << count << "; lf_start += " << tile
      << ") {\n"
      << in1 << "const int64_t lf_end = " << count << " - lf_start < " << tile << " ? " << count
      << " : lf_start + " << tile << ";\n";
  for (std::size_t s = 0; s < spec.stores.size(); ++s) {
    const auto& dtype = spec.args[static_cast<std::size_t>(spec.stores[s].arg)].dtype;
    out << in1 << memory_type_of(dtype) << " " << slot(s) << "[" << tile << "];\n";
  }
  out << in1 << "int lf_nan = 0;\n" << complex_inline_forms_begin();
  out << in1 << "for (int64_t i = lf_start; i < lf_end; ++i) {\n";
  for (std::size_t a = 0; a < spec.args.size(); ++a) {
    if (spec.args[a].role == ArgSpec::Role::Input && !is_value_input(spec, a)) {
      write_load(out, spec, a, in2, element);
    }
  }
  for (std::size_t n = 0; n < spec.nodes.size(); ++n) {
    write_node(out, spec, n, in2);
    write_nan_checks(out, spec, n, in2, "lf_nan");
  }
  for (std::size_t s = 0; s < spec.stores.size(); ++s) {
    const auto arg = static_cast<std::size_t>(spec.stores[s].arg);
    out << in2 << local(s) << " = "
        << to_storage(spec.args[arg].dtype, "r" + std::to_string(spec.stores[s].reg)) << ";\n";
  }
  out << in1 << "}\n" << complex_inline_forms_end();
  out << in1 << "if (!lf_nan) {\n" << in2 << "for (int64_t i = lf_start; i < lf_end; ++i) {\n";
  for (std::size_t s = 0; s < spec.stores.size(); ++s) {
    out << in3 << element(static_cast<std::size_t>(spec.stores[s].arg)) << " = " << local(s)
        << ";\n";
  }
  out << in2 << "}\n"
      << in1 << "} else {\n"
      << in2 << "for (int64_t i = lf_start; i < lf_end; ++i) {\n";
  write_element_body(out, spec, in3, element, {});
  out << in2 << "}\n" << in1 << "}\n" << indent << "}\n";
}

}  // namespace legate_fuse::codegen
