#include "codegen/staged_body.h"

#include <algorithm>
#include <cstdint>
#include <set>
#include <string>
#include <vector>

#include "codegen/c_vector_math.h"
#include "ir/store_desc.h"

namespace legate_fuse::codegen {
namespace {

// Stage 2k is the k-th arithmetic loop, stage 2k-1 the loop of the calls of depth k (the
// number of library calls on the longest path from the loaded inputs).
struct Stages {
  std::vector<int> of_node;
  int last{};  // the final arithmetic stage, where stores and reductions go
};

Stages assign_stages(const KernelSpec& spec)
{
  Stages stages;
  std::vector<int> depth(spec.nodes.size(), 0);
  for (std::size_t n = 0; n < spec.nodes.size(); ++n) {
    for (const auto& input : spec.nodes[n].inputs) {
      if (input.kind == Operand::Kind::Register) {
        depth[n] = std::max(depth[n], depth[static_cast<std::size_t>(input.index)]);
      }
    }
    if (is_library_call_node(spec, n)) {
      depth[n] += 1;
      stages.of_node.push_back(2 * depth[n] - 1);
    } else {
      stages.of_node.push_back(2 * depth[n]);
    }
    stages.last = std::max(stages.last, 2 * depth[n]);
  }
  return stages;
}

// The element type of a tile buffer that keeps a bool register (a comparison that a `where`
// of a later stage selects by): an unsigned integer as wide as the kernel's widest register.
// GCC does not vectorise a loop that loads 1-byte bools beside 8-byte values ("no vectype"),
// and such a loop, the last of a kernel, held most of its arithmetic; the value stored is
// still 0 or 1, and read back as a bool.
std::string mask_buffer_type(const KernelSpec& spec)
{
  std::size_t widest = 1;
  for (const auto& node : spec.nodes) {
    widest = std::max(widest, ir::dtype_size(node.dtype));
  }
  switch (widest) {
    case 1:
      return "uint8_t";
    case 2:
      return "uint16_t";
    case 4:
      return "uint32_t";
    default:
      return "uint64_t";
  }
}

// The registers and partitioned inputs each stage reads.
struct StageUses {
  std::set<std::int32_t> registers;
  std::set<std::int32_t> inputs;
};

void note_use(StageUses& uses, const Operand& operand)
{
  if (operand.kind == Operand::Kind::Register) {
    uses.registers.insert(operand.index);
  } else if (operand.kind == Operand::Kind::Arg) {
    uses.inputs.insert(operand.index);
  }
}

StageUses uses_of(const KernelSpec& spec, const std::vector<std::size_t>& nodes)
{
  StageUses uses;
  for (const auto n : nodes) {
    for (const auto& input : spec.nodes[n].inputs) {
      note_use(uses, input);
    }
  }
  return uses;
}

// Writes the loops of one stage over the current tile.
struct StageWriter {
  const KernelSpec& spec;
  const std::vector<int>& stage_of;
  const std::vector<bool>& buffered;
  // Partitioned inputs the reduction loop reads, kept in tile buffers tin<k> by the store
  // loop before it stores: an output may share an input's memory, and the reductions must see
  // the values the element body sees (those from before the kernel's stores).
  const std::set<std::int32_t>& kept_inputs;
  int reduce_stage;
  const ElementAccess& element;
  const ValueFold& value_fold;
  std::string in1;

  // Loads what `uses` names: partitioned inputs (in the reduction loop, the kept ones from
  // their tile buffers), and registers of other stages from buffers.
  void loads(std::ostringstream& out, int stage, const StageUses& uses,
             const std::string& in2) const
  {
    for (const auto arg : uses.inputs) {
      const auto a = static_cast<std::size_t>(arg);
      if (is_value_input(spec, a)) {
        continue;
      }
      if (stage == reduce_stage && kept_inputs.count(arg) != 0) {
        out << in2 << "const " << c_type_of(spec.args[a].dtype) << " in" << a << " = tin" << a
            << "[i - tile];\n";
      } else {
        write_input_load(out, spec, a, in2, element);
      }
    }
    for (const auto reg : uses.registers) {
      const auto r = static_cast<std::size_t>(reg);
      if (stage_of[r] != stage) {
        out << in2 << "const " << c_type_of(spec.nodes[r].dtype) << " r" << r << " = t" << r
            << "[i - tile];\n";
      }
    }
  }

  void loop(std::ostringstream& out, int stage, const StageUses& uses,
            const std::vector<std::size_t>& nodes, bool stores, bool reductions) const
  {
    const std::string in2 = in1 + "  ";
    out << in1 << "for (int64_t i = tile; i < tile_end; ++i) {\n";
    loads(out, stage, uses, in2);
    for (const auto n : nodes) {
      write_node(out, spec, n, in2);
      if (buffered[n]) {
        out << in2 << "t" << n << "[i - tile] = r" << n << ";\n";
      }
    }
    if (stores) {
      for (const auto arg : kept_inputs) {
        out << in2 << "tin" << arg << "[i - tile] = in" << arg << ";\n";
      }
      write_stores(out, spec, in2, element);
    }
    if (reductions) {
      write_reductions(out, spec, in2, {}, {}, value_fold);
    }
    out << in1 << "}\n";
  }

  // Node n's operands, as its vector form takes them.
  [[nodiscard]] std::string form_operands(std::size_t n) const
  {
    std::string names;
    for (const auto& input : spec.nodes[n].inputs) {
      names += (names.empty() ? "" : ", ") + operand_name(input);
    }
    return names;
  }

  // What its special test takes: the operands, and the common value where it reads it.
  [[nodiscard]] std::string special_operands(const VectorForm& form, std::size_t n) const
  {
    return form_operands(n) +
           (form.special_reads_value ? ", t" + std::to_string(n) + "[i - tile]" : "");
  }

  // The vector form on every element of the tile, then the C library's own function on the
  // elements off the common path, if the tile has any.
  void vector_calls(std::ostringstream& out, int stage, const std::vector<std::size_t>& nodes) const
  {
    const std::string in2 = in1 + "  ", in3 = in1 + "    ";
    const StageUses uses = uses_of(spec, nodes);
    out << in1 << "{\n" << in2 << "int special = 0;\n";
    out << in2 << "for (int64_t i = tile; i < tile_end; ++i) {\n";
    loads(out, stage, uses, in3);
    for (const auto n : nodes) {
      const VectorForm& form = *vector_form_of(spec, n);
      out << in3 << "t" << n << "[i - tile] = " << form.common << "(" << form_operands(n) << ");\n"
          << in3 << "special |= " << form.special << "(" << special_operands(form, n) << ");\n";
    }
    out << in2 << "}\n" << in2 << "if (special) {\n";
    out << in2 << "for (int64_t i = tile; i < tile_end; ++i) {\n";
    loads(out, stage, uses, in3);
    // Off the common path, the element body's own expression (the C library's function, and
    // cuPyNumeric's NaN of a negative logarithm).
    for (const auto n : nodes) {
      const VectorForm& form = *vector_form_of(spec, n);
      out << in3 << "if (" << form.special << "(" << special_operands(form, n) << ")) {\n";
      write_node(out, spec, n, in3 + "  ");
      out << in3 << "  t" << n << "[i - tile] = r" << n << ";\n" << in3 << "}\n";
    }
    out << in2 << "}\n" << in2 << "}\n" << in1 << "}\n";
  }
};

}  // namespace

bool wants_staging(const KernelSpec& spec)
{
  if (spec.nodes.size() < 2 && (spec.nodes.empty() || vector_form_of(spec, 0) == nullptr)) {
    return false;  // one call and nothing else: unless it has a vector form, nothing to stage
  }
  for (std::size_t r = 0; r < spec.reductions.size(); ++r) {
    if (is_array_reduction(spec, r)) {
      return false;  // folds each element into memory: nothing to gain from stages
    }
  }
  for (std::size_t n = 0; n < spec.nodes.size(); ++n) {
    if (is_library_call_node(spec, n)) {
      return true;
    }
  }
  return false;
}

void write_staged_body(std::ostringstream& out, const KernelSpec& spec, const std::string& indent,
                       const std::string& count, const ElementAccess& element,
                       const ValueFold& value_fold)
{
  const Stages stages = assign_stages(spec);
  // Reductions fold in a loop of their own after the stores: a floating-point fold is
  // sequential, and the arithmetic before it then still vectorises.
  const int reduce_stage = spec.reductions.empty() ? stages.last : stages.last + 1;
  std::vector<StageUses> uses(static_cast<std::size_t>(reduce_stage) + 1);
  for (std::size_t n = 0; n < spec.nodes.size(); ++n) {
    for (const auto& input : spec.nodes[n].inputs) {
      note_use(uses[static_cast<std::size_t>(stages.of_node[n])], input);
    }
  }
  for (const auto& store : spec.stores) {
    uses[static_cast<std::size_t>(stages.last)].registers.insert(store.reg);
  }
  auto& reduce_uses = uses[static_cast<std::size_t>(reduce_stage)];
  for (const auto& red : spec.reductions) {
    note_use(reduce_uses, red.value);
    if (red.op == "SUM_PRODUCT") {  // folded from its factors (a fused multiply-add)
      note_use(reduce_uses, product_factor(spec, red, 0));
      note_use(reduce_uses, product_factor(spec, red, 1));
    }
    if (red.mask.index >= 0) {
      note_use(reduce_uses, red.mask);
    }
  }
  // The reduction loop runs after the tile's stores, which may have written over an input
  // (an output sharing its memory): the inputs it reads are loaded by the store loop, before
  // its stores, and kept in tile buffers. A kernel that stores nothing reads them from memory.
  std::set<std::int32_t> kept_inputs;
  if (!spec.stores.empty() && reduce_stage != stages.last) {
    for (const auto arg : reduce_uses.inputs) {
      if (!is_value_input(spec, static_cast<std::size_t>(arg))) {
        kept_inputs.insert(arg);
        uses[static_cast<std::size_t>(stages.last)].inputs.insert(arg);
      }
    }
  }
  // A register read in a stage other than its own is kept in a tile buffer t<n>.
  std::vector<bool> buffered(spec.nodes.size(), false);
  for (std::size_t s = 0; s < uses.size(); ++s) {
    for (const auto reg : uses[s].registers) {
      const auto r = static_cast<std::size_t>(reg);
      if (stages.of_node[r] != static_cast<int>(s)) {
        buffered[r] = true;
      }
    }
  }

  // A vector-form call writes its tile buffer in two passes (see write_vector_calls).
  for (std::size_t n = 0; n < spec.nodes.size(); ++n) {
    buffered[n] = buffered[n] || vector_form_of(spec, n) != nullptr;
  }

  const std::string in1 = indent + "  ", in2 = indent + "    ";
  out << indent << "for (int64_t tile = 0; tile < " << count << "; tile += " << STAGE_TILE
      << ") {\n"
      << in1 << "const int64_t tile_end = " << count << " - tile < " << STAGE_TILE << " ? " << count
      << " : tile + " << STAGE_TILE << ";\n";
  const std::string mask_type = mask_buffer_type(spec);
  for (std::size_t n = 0; n < spec.nodes.size(); ++n) {
    if (buffered[n]) {
      const auto& dtype = spec.nodes[n].dtype;
      out << in1 << (dtype == "bool" ? mask_type : c_type_of(dtype)) << " t" << n << "["
          << STAGE_TILE << "];\n";
    }
  }
  for (const auto arg : kept_inputs) {
    out << in1 << c_type_of(spec.args[static_cast<std::size_t>(arg)].dtype) << " tin" << arg << "["
        << STAGE_TILE << "];\n";
  }
  const StageWriter writer{spec,         stages.of_node, buffered,   kept_inputs,
                           reduce_stage, element,        value_fold, in1};
  for (int s = 0; s <= reduce_stage; ++s) {
    std::vector<std::size_t> nodes, vector_nodes;
    for (std::size_t n = 0; n < spec.nodes.size(); ++n) {
      if (stages.of_node[n] == s) {
        (vector_form_of(spec, n) != nullptr ? vector_nodes : nodes).push_back(n);
      }
    }
    if (nodes.empty() && vector_nodes.empty() && s != stages.last && s != reduce_stage) {
      continue;
    }
    const auto& stage_uses = uses[static_cast<std::size_t>(s)];
    if (vector_nodes.empty()) {
      writer.loop(out, s, stage_uses, nodes, s == stages.last, s == reduce_stage);
      continue;
    }
    // A call stage (no stores or reductions) with calls that have a vector form: used when
    // every one of them passed its check.
    std::set<std::string> macros;
    for (const auto n : vector_nodes) {
      macros.insert(vector_form_of(spec, n)->macro);
    }
    out << "#if 1";
    for (const auto& macro : macros) {
      out << " && " << macro;
    }
    out << "\n";
    if (!nodes.empty()) {
      writer.loop(out, s, uses_of(spec, nodes), nodes, false, false);
    }
    writer.vector_calls(out, s, vector_nodes);
    out << "#else\n";
    nodes.insert(nodes.end(), vector_nodes.begin(), vector_nodes.end());
    std::sort(nodes.begin(), nodes.end());
    writer.loop(out, s, stage_uses, nodes, false, false);
    out << "#endif\n";
  }
  out << indent << "}\n";
}

}  // namespace legate_fuse::codegen
