#include "analysis/kernel_builder.h"

#include <array>
#include <optional>
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <utility>

namespace legate_fuse::analysis {
namespace {

using ir::ArgSpec;
using ir::Operand;

// A group a kernel cannot express; its message says why.
class Unsupported : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

std::optional<ArgSpec::Role> role_of(ir::Privilege privilege)
{
  switch (privilege) {
    case ir::Privilege::Read:
    case ir::Privilege::WriteWhole:  // a product's result, computed before the kernel
    case ir::Privilege::WriteCall:   // a row call's, likewise
      return ArgSpec::Role::Input;
    case ir::Privilege::Write:
      return ArgSpec::Role::Output;
    case ir::Privilege::Reduce:
      return ArgSpec::Role::Reduction;
    case ir::Privilege::ReadWrite:
    case ir::Privilege::ReadWhole:
    case ir::Privilege::ReadCall:
      break;
  }
  return std::nullopt;
}

// "SCALAR_UNARY_RED.SUM" / "SCALAR_UNARY_RED.MAX.WHERE" -> "SUM" / "MAX"; DOT sums.
std::string reduction_name(const std::string& op)
{
  if (op == "DOT") {
    return "SUM";
  }
  const auto first = op.find('.');
  if (first == std::string::npos) {
    throw Unsupported("no reduction in " + op);
  }
  const auto second = op.find('.', first + 1);
  return op.substr(first + 1, second == std::string::npos ? std::string::npos : second - first - 1);
}

class KernelBuilder {
 public:
  KernelBuilder(const ir::Window& window, const std::vector<std::string>& op_names)
      : window_{window}, op_names_{op_names}
  {
  }

  // Kernel arguments are keyed by store identity (the view class: every view of a Future is
  // one, as in the analysis).
  void add_arguments(const std::vector<FusedArg>& args)
  {
    for (const auto& fused_arg : args) {
      if (fused_arg.privilege == ir::Privilege::ReadWhole ||
          fused_arg.privilege == ir::Privilege::ReadCall) {
        continue;  // read by a product or a row call only, never by the kernel
      }
      const auto role = role_of(fused_arg.privilege);
      if (!role) {
        throw Unsupported("a read-write argument");
      }
      if (!spec_.args.empty() && *role < spec_.args.back().role) {
        throw Unsupported("arguments not in input, output, reduction order");
      }
      const auto& store = store_at(fused_arg.store);
      const auto index  = static_cast<std::int32_t>(spec_.args.size());
      if (fused_arg.privilege == ir::Privilege::WriteWhole ||
          fused_arg.privilege == ir::Privilege::WriteCall) {
        products_.emplace(store.view, index);
        spec_.args.push_back(ArgSpec{*role, store.dtype, false});
        continue;
      }
      arg_of_[static_cast<std::size_t>(*role)].emplace(store.view, index);
      if (*role == ArgSpec::Role::Output) {
        outputs_.emplace_back(store.view, index);
      }
      spec_.args.push_back(ArgSpec{*role, store.dtype, store.future});
    }
  }

  void add_task(std::int32_t number, const ir::Task& task)
  {
    if (task.op < 0 || static_cast<std::size_t>(task.op) >= op_names_.size()) {
      throw Unsupported("a task that is not lifted");
    }
    const auto& op = op_names_[static_cast<std::size_t>(task.op)];
    if (ir::is_product(op) || task.draws || task.row_call()) {
      add_product(task);
      return;
    }
    std::vector<Operand> inputs;
    std::vector<const ir::Arg*> outputs, targets;
    for (const auto& arg : task.args) {
      if (arg.privilege == ir::Privilege::Read) {
        inputs.push_back(read(arg.store));
      } else if (arg.privilege == ir::Privilege::Write) {
        outputs.push_back(&arg);
      } else if (arg.privilege == ir::Privilege::Reduce) {
        targets.push_back(&arg);
      } else {
        throw Unsupported(op + " reads and writes one argument");
      }
    }
    if (outputs.size() + targets.size() != 1) {
      throw Unsupported(op + " does not have exactly one result");
    }
    if (!outputs.empty()) {
      const auto& out = store_at(outputs.front()->store);
      if (ir::takes_index(op)) {
        inputs.insert(inputs.begin(), Operand{Operand::Kind::Index, 0});
      }
      for (std::int32_t k = 0; k < ir::runtime_scalar_count(op); ++k) {
        inputs.push_back(
            Operand{Operand::Kind::Scalar, static_cast<std::int32_t>(spec_.scalar_types.size())});
        spec_.scalar_types.push_back(out.dtype);
        scalar_sources_.emplace_back(number, k);
      }
      current_[out.view] = node(op, out.dtype, std::move(inputs));
      return;
    }
    const auto& target  = store_at(targets.front()->store);
    const auto& reduced = arg_of_[static_cast<std::size_t>(ArgSpec::Role::Reduction)];
    const auto found    = reduced.find(target.view);
    if (found == reduced.end()) {
      return;  // a reduction nothing observes
    }
    Operand value, mask = Operand::none();
    auto reduction = reduction_name(op);
    if (op == "DOT") {
      value = node("BINARY_OP.MULTIPLY", target.dtype, std::move(inputs));
      // cuPyNumeric's CPU task folds each product by a fused multiply-add (its build
      // contracts `acc += a * b`): a floating-point dot product sums the same way.
      if (target.dtype == "float32" || target.dtype == "float64") {
        reduction = "SUM_PRODUCT";
      }
    } else {
      if (inputs.empty()) {
        throw Unsupported(op + " reduces nothing");
      }
      value = inputs[0];
      if (inputs.size() > 1) {
        mask = inputs[1];
      }
    }
    if (ir::is_arg_reduction(reduction)) {
      // "UNARY_RED.ARGMIN.<axis>": each value folds with its index along the axis.
      const auto axis = std::stoll(op.substr(op.rfind('.') + 1));
      value           = node(ir::argval_node(axis, found->second), target.dtype, {value});
    }
    spec_.reductions.push_back(ir::ReduceSpec{found->second, reduction, value, mask});
  }

  ir::KernelSpec finish()
  {
    for (const auto& [view, arg] : outputs_) {
      const auto computed = current_.find(view);
      if (computed == current_.end() || computed->second.kind != Operand::Kind::Register) {
        throw Unsupported("kernel argument " + std::to_string(arg) + " is never computed");
      }
      spec_.stores.push_back(ir::StoreSpec{arg, computed->second.index});
    }
    return std::move(spec_);
  }

  // A matrix product, a random draw or a row call: computed before the kernel into its
  // result's memory, which the kernel reads as an input array (a product's through the view
  // without the promotion).
  void add_product(const ir::Task& task)
  {
    for (const auto& arg : task.args) {
      if (arg.privilege != ir::Privilege::WriteWhole && arg.privilege != ir::Privilege::WriteCall) {
        continue;
      }
      const auto unpromoted =
          arg.privilege == ir::Privilege::WriteCall ? arg.store : store_at(arg.store).unpromoted;
      if (unpromoted < 0) {
        throw Unsupported("a product whose result is not read in the window");
      }
      const auto view  = store_at(unpromoted).view;
      const auto found = products_.find(view);
      if (found == products_.end()) {
        throw Unsupported("a product without its result among the kernel's arguments");
      }
      current_[view] = Operand{Operand::Kind::Arg, found->second};
      return;
    }
    throw Unsupported("a product without a result");
  }

  [[nodiscard]] std::vector<std::pair<std::int32_t, std::int32_t>> scalar_sources() const
  {
    return scalar_sources_;
  }

 private:
  const ir::StoreRef& store_at(std::int32_t store) const
  {
    const auto& ref = window_.stores[static_cast<std::size_t>(store)];
    if (!ref.known) {
      throw Unsupported("unknown store " + ref.description);
    }
    return ref;
  }

  Operand read(std::int32_t store)
  {
    const auto& ref = store_at(store);
    // A view the group wrote is read from its register; any other from memory (legality
    // lets a group write a root only through views apart from those it reads otherwise).
    if (const auto latest = current_.find(ref.view); latest != current_.end()) {
      return latest->second;
    }
    const auto& inputs = arg_of_[static_cast<std::size_t>(ArgSpec::Role::Input)];
    const auto found   = inputs.find(ref.view);
    if (found == inputs.end()) {
      throw Unsupported("no kernel argument reads " + ref.description);
    }
    return Operand{Operand::Kind::Arg, found->second};
  }

  // The register of `op` on `inputs`: the one an earlier node with the same operation, type
  // and operands computed, if any (common subexpressions: a program that computes the same
  // value twice, such as `sqrt(t)` in two formulas or a pricing repeated on the same options,
  // computes it once per element). Every lifted operation is a function of its operands
  // alone, and the same operations on the same values give the same bits, so sharing changes
  // no result; run-time scalars are separate operands even where their values agree.
  Operand node(const std::string& op, const std::string& dtype, std::vector<Operand> inputs)
  {
    std::string key = op + '|' + dtype;
    for (const auto& input : inputs) {
      key += '|' + std::to_string(static_cast<std::int32_t>(input.kind)) + ':' +
             std::to_string(input.index);
    }
    const auto next  = static_cast<std::int32_t>(spec_.nodes.size());
    const auto found = node_of_.try_emplace(std::move(key), next);
    if (found.second) {
      spec_.nodes.push_back(ir::Node{op, dtype, std::move(inputs)});
    }
    return Operand{Operand::Kind::Register, found.first->second};
  }

  const ir::Window& window_;
  const std::vector<std::string>& op_names_;
  ir::KernelSpec spec_;
  std::array<std::unordered_map<std::int32_t, std::int32_t>, 3> arg_of_;  // per role: view -> arg
  std::vector<std::pair<std::int32_t, std::int32_t>> outputs_;            // view, arg
  std::unordered_map<std::int32_t, std::int32_t> products_;  // a product result's view -> arg
  std::unordered_map<std::int32_t, Operand> current_;        // view -> its latest value
  std::vector<std::pair<std::int32_t, std::int32_t>> scalar_sources_;  // per scalar slot
  std::unordered_map<std::string, std::int32_t> node_of_;  // operation and operands -> register
};

}  // namespace

namespace {

// Numbers are never given twice, even after the table is emptied (its size is bounded, as
// the plan cache's): a number always stands for the one text it was given to.
std::int64_t kernel_number(const std::string& text)
{
  static std::unordered_map<std::string, std::int64_t> numbers;
  static std::int64_t next = 0;
  if (const auto found = numbers.find(text); found != numbers.end()) {
    return found->second;
  }
  if (numbers.size() >= 4096) {
    numbers.clear();
  }
  numbers.emplace(text, next);
  return next++;
}

}  // namespace

void attach_kernel(const ir::Window& window, const std::vector<std::string>& op_names, Group& group)
{
  group.kernel.reset();
  group.kernel_text.clear();
  group.kernel_number = -1;
  group.kernel_error.clear();
  group.scalar_sources.clear();
  if (group.kind != Group::Kind::Fused) {
    return;
  }
  try {
    KernelBuilder builder{window, op_names};
    builder.add_arguments(group.args);
    for (const auto task : group.tasks) {
      builder.add_task(task, window.tasks[static_cast<std::size_t>(task)]);
    }
    group.scalar_sources = builder.scalar_sources();
    group.kernel         = builder.finish();
    group.kernel_text    = ir::describe(*group.kernel);
    group.kernel_number  = kernel_number(group.kernel_text);
  } catch (const Unsupported& error) {
    group.kernel_error = error.what();
  }
}

}  // namespace legate_fuse::analysis
