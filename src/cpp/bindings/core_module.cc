// Python binding of the fusion core (IR, analysis). Binding only: the logic lives in ir/ and
// analysis/. Must not depend on Legate: unit tests import it without starting a runtime.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

#include "analysis/analyzer.h"
#include "analysis/cut.h"
#include "analysis/plan.h"
#include "codegen/c_ops.h"
#include "codegen/c_renderer.h"
#include "codegen/c_vector_math.h"
#include "codegen/cuda_renderer.h"
#include "ir/kernel_spec.h"
#include "ir/store_desc.h"
#include "ir/view_box.h"
#include "ir/window.h"
#include "runtime/kernel_abi.h"
#include "runtime/launch_parameter.h"
#include "runtime/nvrtc_compiler.h"

namespace py = pybind11;
using legate_fuse::analysis::Analyzer;
using legate_fuse::analysis::FusedArg;
using legate_fuse::analysis::Group;
using legate_fuse::analysis::Plan;
using legate_fuse::ir::Privilege;
using legate_fuse::ir::StoreDesc;

namespace {

// Whether a root key is in `live_roots`, a Python set of the root keys of every array the
// program holds (None: no such lookup): asked for the few roots of a window, where passing
// every held array's description to be parsed cost each window time in the number of arrays.
std::function<bool(const std::string&)> root_lookup(const py::object& live_roots)
{
  if (live_roots.is_none()) {
    return {};
  }
  return [live_roots](const std::string& key) {
    const int found = PySequence_Contains(live_roots.ptr(), py::str(key).ptr());
    if (found < 0) {  // the lookup failed: the root counts as reachable (the safe side)
      PyErr_Clear();
      return true;
    }
    return found == 1;
  };
}

// A window's tasks, decoded once per stream (ir::decode_tasks) and copied into each of its
// windows.
struct TaskEncoding {
  std::vector<legate_fuse::ir::Task> tasks;
  std::size_t num_stores{};
};

// The window of `tasks` over `descriptions`: the encoding's stores, then `spares` stores no
// task touches (ir::Window::spare_stores).
legate_fuse::ir::Window built_window(const std::vector<std::string>& descriptions,
                                     const std::vector<std::int32_t>& live_stores,
                                     const TaskEncoding& tasks, const py::object& live_roots,
                                     const py::object& foreign_roots = py::none(),
                                     std::size_t spares = 0, bool one_point = false)
{
  if (descriptions.size() != tasks.num_stores + spares) {
    throw std::invalid_argument("legate-fuse: the task encoding is of another number of stores");
  }
  auto window = legate_fuse::ir::build_window(descriptions, live_stores, tasks.tasks,
                                              root_lookup(live_roots), root_lookup(foreign_roots));
  for (auto spare = tasks.num_stores; spare < descriptions.size(); ++spare) {
    window.spare_stores.push_back(static_cast<std::int32_t>(spare));
  }
  window.one_point = one_point;
  return window;
}

void bind_ir(py::module_& m)
{
  py::enum_<Privilege>(m, "Privilege")
      .value("READ", Privilege::Read)
      .value("WRITE", Privilege::Write)
      .value("READ_WRITE", Privilege::ReadWrite)
      .value("REDUCE", Privilege::Reduce)
      .value("READ_WHOLE", Privilege::ReadWhole)
      .value("WRITE_WHOLE", Privilege::WriteWhole)
      .value("READ_CALL", Privilege::ReadCall)
      .value("WRITE_CALL", Privilege::WriteCall);

  py::class_<StoreDesc>(m, "StoreDesc")
      .def_readonly("store_id", &StoreDesc::store_id)
      .def_readonly("unbound", &StoreDesc::unbound)
      .def_readonly("shape", &StoreDesc::shape)
      .def_readonly("transform", &StoreDesc::transform)
      .def_readonly("dtype", &StoreDesc::dtype)
      .def_readonly("storage_id", &StoreDesc::storage_id)
      .def_readonly("level", &StoreDesc::level)
      .def_property_readonly("is_future",
                             [](const StoreDesc& d) { return d.kind == StoreDesc::Kind::Future; })
      .def_readonly("tree_id", &StoreDesc::tree_id)
      .def_readonly("index_space", &StoreDesc::index_space)
      .def_readonly("field_id", &StoreDesc::field_id)
      .def_property_readonly("root_key", &StoreDesc::root_key)
      .def_property_readonly("view_key", &StoreDesc::view_key)
      .def_property_readonly("identity_key", &StoreDesc::identity_key);

  m.def("parse_store_desc", &legate_fuse::ir::parse_store_desc, py::arg("text"),
        "Parse Legate's description of a LogicalStore (str(store)); None if not understood");
  m.def("dtype_size", &legate_fuse::ir::dtype_size, py::arg("dtype"));
  m.def(
      "views_apart",
      [](const StoreDesc& a, const StoreDesc& b) {
        return legate_fuse::ir::apart(a, legate_fuse::ir::root_box(a), b,
                                      legate_fuse::ir::root_box(b));
      },
      py::arg("a"), py::arg("b"),
      "Whether two parsed descriptions are views of one root that share no element for sure");
}

void bind_plan(py::module_& m)
{
  py::class_<FusedArg>(m, "FusedArg")
      .def_readonly("store", &FusedArg::store)
      .def_readonly("privilege", &FusedArg::privilege)
      .def_readonly("redop", &FusedArg::redop);

  py::class_<Group>(m, "Group")
      .def_property_readonly(
          "kind", [](const Group& g) { return legate_fuse::analysis::kind_name(g.kind); })
      .def_readonly("tasks", &Group::tasks)
      .def_readonly("dead_tasks", &Group::dead_tasks)
      .def_readonly("prologue", &Group::prologue)
      .def_readonly("temporaries", &Group::temporaries)
      .def_readonly("args", &Group::args)
      .def_readonly("products", &Group::products)
      .def_readonly("draws", &Group::draws)
      .def_property_readonly(
          "calls",
          [](const Group& g) {
            // (task, stores) of each row call, as plain ints
            py::list calls;
            for (const auto& call : g.calls) {
              calls.append(py::make_tuple(call.task, py::tuple(py::cast(call.stores))));
            }
            return calls;
          })
      .def_property_readonly(
          "arg_triples",
          [](const Group& g) {
            // (store, privilege, redop) of each argument, as plain ints:
            // what a launch reads of them, in one conversion.
            py::list triples;
            for (const auto& arg : g.args) {
              triples.append(py::make_tuple(arg.store, static_cast<int>(arg.privilege), arg.redop));
            }
            return triples;
          })
      .def_readonly("end_reason", &Group::end_reason)
      .def_readonly("kernel_text", &Group::kernel_text)
      .def_readonly("kernel_number", &Group::kernel_number)
      .def_readonly("kernel", &Group::kernel)
      .def_readonly("kernel_error", &Group::kernel_error)
      .def_readonly("scalar_sources", &Group::scalar_sources);

  // A window's plan: the plan its signature shares with other windows, and this window's
  // bytes not allocated.
  py::class_<Analyzer::Result>(m, "Plan")
      // The groups as references into the shared plan (which they keep alive), not copies: a
      // group holds its kernel's specification and canonical text.
      .def_property_readonly(
          "groups",
          [](const Analyzer::Result& result) -> const std::vector<Group>& {
            return result.plan->groups;
          },
          py::return_value_policy::reference_internal)
      .def_property_readonly("cache_id",
                             [](const Analyzer::Result& result) { return result.plan->cache_id; })
      .def_readonly("group_bytes", &Analyzer::Result::group_bytes)
      // (store, owner) pairs: each store runs in the memory of its owner, a store of the window
      // dead before it (analysis/storage_sharing.h).
      .def_property_readonly("shared_storage",
                             [](const Analyzer::Result& result) {
                               std::vector<std::pair<std::int32_t, std::int32_t>> pairs;
                               pairs.reserve(result.plan->shared_storage.size());
                               for (const auto& shared : result.plan->shared_storage) {
                                 pairs.emplace_back(shared.store, shared.owner);
                               }
                               return pairs;
                             })
      // Whole stores whose memory is free once the window has run, Legate's own
      // (analysis/storage_sharing.h): spare memory for the next window.
      .def_property_readonly(
          "free_at_end", [](const Analyzer::Result& result) { return result.plan->free_at_end; })
      .def("describe", [](const Analyzer::Result& result) {
        return legate_fuse::analysis::describe(*result.plan, result.group_bytes);
      });

  py::class_<TaskEncoding>(m, "TaskEncoding")
      .def(py::init([](const std::vector<std::int64_t>& encoded, std::size_t num_stores) {
             return TaskEncoding{legate_fuse::ir::decode_tasks(encoded, num_stores), num_stores};
           }),
           py::arg("encoded"), py::arg("num_stores"),
           "The tasks of a window (see ir/window.h for the encoding), decoded once for every "
           "window of the same stream")
      .def_readonly("num_stores", &TaskEncoding::num_stores);

  py::class_<Analyzer>(m, "Analyzer")
      .def(py::init<std::size_t>(), py::arg("capacity") = 4096)
      .def(
          "analyze",
          [](Analyzer& self, const std::vector<std::string>& descriptions,
             const std::vector<std::int32_t>& live_stores, const TaskEncoding& tasks,
             bool use_cache, std::int32_t prefix, const py::object& live_roots,
             const py::object& foreign_roots, std::size_t spares, bool one_point) {
            auto window = built_window(descriptions, live_stores, tasks, live_roots, foreign_roots,
                                       spares, one_point);
            if (prefix >= 0 && static_cast<std::size_t>(prefix) < window.tasks.size()) {
              window = legate_fuse::analysis::window_prefix(window, prefix);
            }
            auto result    = self.analyze(window, use_cache);
            const bool hit = result.cache_hit;
            return py::make_tuple(std::move(result), hit);
          },
          py::arg("descriptions"), py::arg("live_stores"), py::arg("tasks"),
          py::arg("use_cache") = true, py::arg("prefix") = -1, py::arg("live_roots") = py::none(),
          py::arg("foreign_roots") = py::none(), py::arg("spares") = 0,
          py::arg("one_point") = false,
          "Plan a window, or its first `prefix` tasks when prefix >= 0 (the rest run later: what "
          "they touch is live); `live_stores`: the numbers of its stores the program reaches; "
          "`live_roots`: a set of the root keys the program reaches, or None; `foreign_roots`: "
          "a set of the root keys over memory not Legate's own, or None (every root such); "
          "`spares`: how many of the last descriptions are of stores no task touches, whose "
          "memory its arrays may take (an earlier window's free_at_end); `one_point`: each "
          "fused task runs as one point task (a group may write a 0-d value read after it); "
          "returns (plan, cache_hit)")
      .def(
          "choose_cut",
          [](const Analyzer&, const std::vector<std::string>& descriptions,
             const std::vector<std::int32_t>& live_stores, const TaskEncoding& tasks,
             std::int32_t earliest, const py::object& live_roots) {
            const auto window = built_window(descriptions, live_stores, tasks, live_roots);
            return legate_fuse::analysis::choose_cut(window, earliest);
          },
          py::arg("descriptions"), py::arg("live_stores"), py::arg("tasks"), py::arg("earliest"),
          py::arg("live_roots") = py::none(),
          "How many leading tasks of a full window to run (see analysis/cut.h)")
      .def("op_id", &Analyzer::op_id, py::arg("name"),
           "The id of a lifted operation in the task encoding (numbered by first request)")
      .def_property_readonly("op_names", &Analyzer::op_names)
      .def_property_readonly("cached_plans", &Analyzer::cached_plans)
      .def("clear", &Analyzer::clear);
}

namespace cg       = legate_fuse::codegen;
namespace ir       = legate_fuse::ir;
using OperandTuple = std::tuple<std::int32_t, std::int32_t>;
using ArgTuple     = std::tuple<std::int32_t, std::string, bool>;
using NodeTuple    = std::tuple<std::string, std::string, std::vector<OperandTuple>>;
using StoreTuple   = std::tuple<std::int32_t, std::int32_t>;
using ReduceTuple  = std::tuple<std::int32_t, std::string, OperandTuple, OperandTuple>;

ir::Operand to_operand(const OperandTuple& t)
{
  return ir::Operand{static_cast<ir::Operand::Kind>(std::get<0>(t)), std::get<1>(t)};
}

OperandTuple from_operand(const ir::Operand& operand)
{
  return {static_cast<std::int32_t>(operand.kind), operand.index};
}

// A spec written by hand (tests, tools): the fields as plain tuples, as `KernelSpec.args`...
// return them.
ir::KernelSpec to_spec(const std::vector<ArgTuple>& args,
                       const std::vector<std::string>& scalar_types,
                       const std::vector<NodeTuple>& nodes, const std::vector<StoreTuple>& stores,
                       const std::vector<ReduceTuple>& reductions)
{
  ir::KernelSpec spec;
  for (const auto& [role, dtype, value] : args) {
    spec.args.push_back(ir::ArgSpec{static_cast<ir::ArgSpec::Role>(role), dtype, value});
  }
  spec.scalar_types = scalar_types;
  for (const auto& [op, dtype, inputs] : nodes) {
    ir::Node node{op, dtype, {}};
    for (const auto& input : inputs) {
      node.inputs.push_back(to_operand(input));
    }
    spec.nodes.push_back(std::move(node));
  }
  for (const auto& [arg, reg] : stores) {
    spec.stores.push_back(ir::StoreSpec{arg, reg});
  }
  for (const auto& [arg, op, value, mask] : reductions) {
    spec.reductions.push_back(ir::ReduceSpec{arg, op, to_operand(value), to_operand(mask)});
  }
  return spec;
}

void bind_kernel_spec(py::module_& m)
{
  py::class_<ir::KernelSpec>(m, "KernelSpec")
      .def(py::init(&to_spec), py::arg("args"), py::arg("scalar_types"), py::arg("nodes"),
           py::arg("stores"), py::arg("reductions"))
      .def_property_readonly("args",
                             [](const ir::KernelSpec& spec) {
                               std::vector<ArgTuple> out;
                               for (const auto& a : spec.args) {
                                 out.emplace_back(static_cast<std::int32_t>(a.role), a.dtype,
                                                  a.value);
                               }
                               return out;
                             })
      .def_readonly("scalar_types", &ir::KernelSpec::scalar_types)
      .def_property_readonly("nodes",
                             [](const ir::KernelSpec& spec) {
                               std::vector<NodeTuple> out;
                               for (const auto& n : spec.nodes) {
                                 std::vector<OperandTuple> inputs;
                                 for (const auto& input : n.inputs) {
                                   inputs.push_back(from_operand(input));
                                 }
                                 out.emplace_back(n.op, n.dtype, std::move(inputs));
                               }
                               return out;
                             })
      .def_property_readonly("stores",
                             [](const ir::KernelSpec& spec) {
                               std::vector<StoreTuple> out;
                               for (const auto& st : spec.stores) {
                                 out.emplace_back(st.arg, st.reg);
                               }
                               return out;
                             })
      .def_property_readonly("reductions",
                             [](const ir::KernelSpec& spec) {
                               std::vector<ReduceTuple> out;
                               for (const auto& r : spec.reductions) {
                                 out.emplace_back(r.arg, r.op, from_operand(r.value),
                                                  from_operand(r.mask));
                               }
                               return out;
                             })
      .def("describe", &ir::describe,
           "Every field as text, one line each: the spec's canonical form")
      .def("render_c", &cg::render_c, "The kernel as C source")
      .def("render_cuda", &cg::render_cuda, "The kernel as CUDA C++ for NVRTC");
}

void bind_codegen(py::module_& m)
{
  py::enum_<cg::ArgSpec::Role>(m, "ArgRole")
      .value("INPUT", cg::ArgSpec::Role::Input)
      .value("OUTPUT", cg::ArgSpec::Role::Output)
      .value("REDUCTION", cg::ArgSpec::Role::Reduction);
  py::enum_<cg::Operand::Kind>(m, "OperandKind")
      .value("ARG", cg::Operand::Kind::Arg)
      .value("REGISTER", cg::Operand::Kind::Register)
      .value("SCALAR", cg::Operand::Kind::Scalar)
      .value("INDEX", cg::Operand::Kind::Index);
  m.attr("KERNEL_SYMBOL")      = cg::KERNEL_SYMBOL;
  m.attr("C_RENDERER_VERSION") = cg::C_RENDERER_VERSION;
  m.def("vector_math_check_program", &cg::vector_math_check_program, py::arg("function"),
        "A C program that exits with 0 when the kernels' vector form of `function` (exp, log) "
        "rounds as the C library's");
  m.attr("CUDA_RENDERER_VERSION") = cg::CUDA_RENDERER_VERSION;
  m.attr("CUDA_BLOCK_SIZE")       = cg::CUDA_BLOCK_SIZE;
  m.def("nvrtc_compile_ptx", &legate_fuse::nvrtc_compile_ptx, py::arg("library"), py::arg("source"),
        py::arg("name"), py::arg("options"),
        "Compile CUDA C++ to PTX with the NVRTC library at `library`");
  m.def("nvrtc_version", &legate_fuse::nvrtc_version, py::arg("library"));
  m.def(
      "cuda_launch_parameter",
      [](std::int64_t volume, std::int32_t ndim, const std::vector<std::int64_t>& extents,
         const py::bytes& arrays, const py::bytes& scalars) {
        std::vector<std::int64_t> padded(extents);
        padded.resize(LEGATE_FUSE_MAX_DIM, 1);
        const std::string array_bytes = arrays;
        if (array_bytes.size() % sizeof(legate_fuse_array) != 0) {
          throw std::invalid_argument("arrays: not a whole number of legate_fuse_array");
        }
        std::vector<legate_fuse_array> described(array_bytes.size() / sizeof(legate_fuse_array));
        std::memcpy(described.data(), array_bytes.data(), array_bytes.size());
        const std::string scalar_text = scalars;
        const auto parameter          = legate_fuse::cuda_launch_parameter(
            volume, ndim, padded.data(), described,
            std::vector<char>(scalar_text.begin(), scalar_text.end()));
        return py::bytes(parameter.data(), parameter.size());
      },
      py::arg("volume"), py::arg("ndim"), py::arg("extents"), py::arg("arrays"), py::arg("scalars"),
      "The CUDA kernel's parameter the FUSED task's GPU variant packs: the launch header, the "
      "arrays (legate_fuse_array structs), the kernel's scalars bytes");
  m.def("cuda_blocks", &legate_fuse::cuda_blocks, py::arg("volume"),
        "The number of blocks the FUSED task's GPU variant launches over `volume` elements");
  m.def(
      "c_supports",
      [](const std::string& op, const std::string& out, std::vector<std::string> ins) {
        // The operation's index comes first, its run-time scalars last, of its result type.
        if (legate_fuse::ir::takes_index(op)) {
          ins.insert(ins.begin(), "int64");
        }
        ins.insert(ins.end(), static_cast<std::size_t>(legate_fuse::ir::runtime_scalar_count(op)),
                   out);
        std::vector<std::string> operands;
        for (std::size_t i = 0; i < ins.size(); ++i) {
          operands.push_back("x" + std::to_string(i));
        }
        return cg::c_expression(op, out, ins, operands).has_value();
      },
      py::arg("op"), py::arg("out_dtype"), py::arg("in_dtypes"),
      "Whether the C renderer has an expression for this operation on store operands of these "
      "dtypes (and its run-time scalars)");
  m.def("runtime_scalar_count", &legate_fuse::ir::runtime_scalar_count, py::arg("op"),
        "How many run-time scalar values the operation takes after its store operands");
  m.def(
      "c_supports_reduction",
      [](const std::string& op, const std::string& dtype) {
        return cg::reduction_identity(op, dtype).has_value() &&
               cg::reduction_combine(op, dtype, "a", "b").has_value();
      },
      py::arg("op"), py::arg("dtype"));
}

}  // namespace

PYBIND11_MODULE(_core, m)
{
  m.doc()                      = "legate-fuse core: IR and fusion analysis (no Legate dependency)";
  m.attr("KERNEL_ABI_VERSION") = LEGATE_FUSE_KERNEL_ABI_VERSION;
  m.attr("MAX_DIM")            = LEGATE_FUSE_MAX_DIM;
  bind_ir(m);
  bind_kernel_spec(m);
  bind_plan(m);
  bind_codegen(m);
  py::register_exception<std::invalid_argument>(m, "EncodingError", PyExc_ValueError);
  py::register_exception<cg::UnsupportedError>(m, "UnsupportedError", PyExc_ValueError);
  py::register_exception<legate_fuse::NvrtcError>(m, "NvrtcError", PyExc_RuntimeError);
}
