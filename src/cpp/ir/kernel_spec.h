#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace legate_fuse::ir {

// The operation DAG of one fused group: what the analysis produces for a group
// (analysis/kernel_builder.h) and the renderers consume (codegen/). Contains no shapes and no
// scalar values, so one kernel serves every launch of the same group structure.
struct Operand {
  // Index: the element's position along the (one-dimensional) iteration space of the launch,
  // in the launch's coordinates (what arange computes from).
  enum class Kind : std::int32_t { Arg = 0, Register = 1, Scalar = 2, Index = 3 };
  Kind kind{Kind::Arg};
  std::int32_t index{};

  [[nodiscard]] static Operand none() { return Operand{Kind::Register, -1}; }
  [[nodiscard]] bool is_none() const { return index < 0; }
  bool operator==(const Operand& other) const { return kind == other.kind && index == other.index; }
};

struct Node {
  std::string op;     // lifted operation, e.g. "BINARY_OP.ADD"
  std::string dtype;  // of the result
  std::vector<Operand> inputs;
};

struct ArgSpec {
  enum class Role : std::int32_t { Input = 0, Output = 1, Reduction = 2 };
  Role role{Role::Input};
  std::string dtype;
  bool value{};  // a single element (a Future, however promoted): loaded once per launch
};

struct StoreSpec {  // after each element: arrays[arg] = register
  std::int32_t arg{};
  std::int32_t reg{};
};

struct ReduceSpec {  // each element folds `value` into arg's accumulator with `op`
  std::int32_t arg{};
  std::string op;  // SUM, PROD, MAX, MIN, ALL, ANY
  Operand value;
  Operand mask;  // where-masked reductions; Operand::none() when unmasked
};

struct KernelSpec {
  std::vector<ArgSpec> args;              // in the kernel's array order
  std::vector<std::string> scalar_types;  // run-time scalars, packed in 8-byte slots
  std::vector<Node> nodes;                // register i is the result of node i
  std::vector<StoreSpec> stores;
  std::vector<ReduceSpec> reductions;
};

// How many run-time scalar operands the lifted operation `op` takes after its store operands:
// values its task carries as arguments (cuPyNumeric's clip bounds), each of the operation's
// result type. A kernel reads them from its scalar slots, so one kernel serves every value.
[[nodiscard]] std::int32_t runtime_scalar_count(const std::string& op);

// Whether the lifted operation `op` computes from its element's index (arange: its first
// operand is Operand::Kind::Index, before its run-time scalars); its group's iteration space is
// then one-dimensional, as its output is.
[[nodiscard]] bool takes_index(const std::string& op);

// Whether the lifted operation `op` is a product (cuPyNumeric's MATVECMUL or MATMUL), computed
// by a library call before the kernel, which reads its result (tasks/products.h).
[[nodiscard]] bool is_product(const std::string& op);

// The node that pairs a value with its index along axis `axis` for an argmin or argmax folded
// into kernel argument `target_arg`: "ARGVAL.<axis>.<arg>" (codegen/arg_reduction.h renders it).
[[nodiscard]] std::string argval_node(std::int64_t axis, std::int32_t target_arg);
struct ArgvalNode {
  std::int64_t axis{};
  std::int32_t target_arg{};
};
// The axis and target of such a node; nullopt for any other operation.
[[nodiscard]] std::optional<ArgvalNode> parse_argval_node(const std::string& op);
// Whether a reduction of this name folds such pairs (ARGMIN, ARGMAX).
[[nodiscard]] bool is_arg_reduction(const std::string& reduction);

// The specification as text, one line per argument, scalar, node, store and reduction. It
// states every field, so it is also the spec's canonical form: equal texts, equal kernels.
[[nodiscard]] std::string describe(const KernelSpec& spec);

}  // namespace legate_fuse::ir

namespace legate_fuse::codegen {
// The renderers' input, by the names they use.
using ir::ArgSpec;
using ir::KernelSpec;
using ir::Node;
using ir::Operand;
using ir::ReduceSpec;
using ir::StoreSpec;
}  // namespace legate_fuse::codegen
