// Python binding of the fusion core (IR, analysis). Binding only: the logic lives in ir/ and
// analysis/. Must not depend on Legate: unit tests import it without starting a runtime.
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include "analysis/analyzer.h"
#include "analysis/plan.h"
#include "ir/store_desc.h"
#include "ir/window.h"
#include "runtime/kernel_abi.h"

namespace py = pybind11;
using legate_fuse::analysis::Analyzer;
using legate_fuse::analysis::FusedArg;
using legate_fuse::analysis::Group;
using legate_fuse::analysis::Plan;
using legate_fuse::ir::Privilege;
using legate_fuse::ir::StoreDesc;

namespace {

void bind_ir(py::module_& m)
{
  py::enum_<Privilege>(m, "Privilege")
      .value("READ", Privilege::Read)
      .value("WRITE", Privilege::Write)
      .value("READ_WRITE", Privilege::ReadWrite)
      .value("REDUCE", Privilege::Reduce);

  py::class_<StoreDesc>(m, "StoreDesc")
      .def_readonly("store_id", &StoreDesc::store_id)
      .def_readonly("unbound", &StoreDesc::unbound)
      .def_readonly("shape", &StoreDesc::shape)
      .def_readonly("transform", &StoreDesc::transform)
      .def_readonly("dtype", &StoreDesc::dtype)
      .def_readonly("storage_id", &StoreDesc::storage_id)
      .def_property_readonly("is_future",
                             [](const StoreDesc& d) { return d.kind == StoreDesc::Kind::Future; })
      .def_readonly("tree_id", &StoreDesc::tree_id)
      .def_readonly("index_space", &StoreDesc::index_space)
      .def_readonly("field_id", &StoreDesc::field_id)
      .def_property_readonly("root_key", &StoreDesc::root_key)
      .def_property_readonly("view_key", &StoreDesc::view_key);

  m.def("parse_store_desc", &legate_fuse::ir::parse_store_desc, py::arg("text"),
        "Parse Legate's description of a LogicalStore (str(store)); None if not understood");
  m.def("dtype_size", &legate_fuse::ir::dtype_size, py::arg("dtype"));
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
      .def_readonly("bytes_not_allocated", &Group::bytes_not_allocated)
      .def_readonly("args", &Group::args)
      .def_readonly("end_reason", &Group::end_reason);

  py::class_<Plan>(m, "Plan")
      .def_readonly("groups", &Plan::groups)
      .def("describe", &legate_fuse::analysis::describe);

  py::class_<Analyzer>(m, "Analyzer")
      .def(py::init<std::size_t>(), py::arg("capacity") = 4096)
      .def(
          "analyze",
          [](Analyzer& self, const std::vector<std::string>& descriptions,
             const std::vector<std::string>& live_descriptions,
             const std::vector<std::int64_t>& encoded_tasks, bool use_cache) {
            const auto window =
                legate_fuse::ir::build_window(descriptions, live_descriptions, encoded_tasks);
            auto result = self.analyze(window, use_cache);
            return py::make_tuple(std::move(result.plan), result.cache_hit);
          },
          py::arg("descriptions"), py::arg("live_descriptions"), py::arg("encoded_tasks"),
          py::arg("use_cache") = true,
          "Plan a window (see ir/window.h for the encoding); returns (plan, cache_hit)")
      .def_property_readonly("cached_plans", &Analyzer::cached_plans)
      .def("clear", &Analyzer::clear);
}

}  // namespace

PYBIND11_MODULE(_core, m)
{
  m.doc()                      = "legate-fuse core: IR and fusion analysis (no Legate dependency)";
  m.attr("KERNEL_ABI_VERSION") = LEGATE_FUSE_KERNEL_ABI_VERSION;
  m.attr("MAX_DIM")            = LEGATE_FUSE_MAX_DIM;
  bind_ir(m);
  bind_plan(m);
  py::register_exception<std::invalid_argument>(m, "EncodingError", PyExc_ValueError);
}
