#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace legate_fuse::codegen {

// The operation DAG of one fused group, as the renderers consume it. Built by the Python side
// from a plan (legate_fuse/kernel_spec.py); contains no shapes and no scalar values, so one
// kernel serves every launch of the same group structure.
struct Operand {
  enum class Kind : std::int32_t { Arg = 0, Register = 1, Scalar = 2 };
  Kind kind{Kind::Arg};
  std::int32_t index{};
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
  Operand mask;  // where-masked reductions; index < 0 when unmasked
};

struct KernelSpec {
  std::vector<ArgSpec> args;              // in the kernel's array order
  std::vector<std::string> scalar_types;  // run-time scalars, packed in 8-byte slots
  std::vector<Node> nodes;                // register i is the result of node i
  std::vector<StoreSpec> stores;
  std::vector<ReduceSpec> reductions;
};

}  // namespace legate_fuse::codegen
