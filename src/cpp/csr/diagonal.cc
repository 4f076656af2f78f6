// The main diagonal: per row, the sum of its elements in the diagonal's column (duplicates
// summed, as scipy.sparse's csr_diagonal does), zero where there is none.
#include <legate.h>

#include <cstdint>
#include <stdexcept>

#include "csr/csr_tasks.h"

namespace legate_csr {
namespace {

template <typename T>
void diagonal(const legate::PhysicalStore& out, const legate::PhysicalStore& pos,
              const legate::PhysicalStore& crd, const legate::PhysicalStore& vals)
{
  const auto rows = out.shape<1>();
  if (rows.empty()) {
    return;
  }
  const auto row_ranges = pos.read_accessor<legate::Rect<1>, 1>();
  const auto columns    = crd.read_accessor<std::int64_t, 1>();
  const auto values     = vals.read_accessor<T, 1>();
  const auto result     = out.write_accessor<T, 1>();
  for (legate::coord_t row = rows.lo[0]; row <= rows.hi[0]; ++row) {
    const legate::Rect<1> range = row_ranges[row];
    T sum                       = T{0};
    for (legate::coord_t k = range.lo[0]; k <= range.hi[0]; ++k) {
      if (columns[k] == row) {
        sum += values[k];
      }
    }
    result[row] = sum;
  }
}

}  // namespace

void DiagonalTask::cpu_variant(legate::TaskContext context)
{
  const auto out  = context.output(0).data();
  const auto pos  = context.input(0).data();
  const auto crd  = context.input(1).data();
  const auto vals = context.input(2).data();
  switch (vals.code()) {
    case legate::Type::Code::FLOAT32:
      diagonal<float>(out, pos, crd, vals);
      break;
    case legate::Type::Code::FLOAT64:
      diagonal<double>(out, pos, crd, vals);
      break;
    default:
      throw std::invalid_argument("legate_csr: values must be float32 or float64");
  }
}

}  // namespace legate_csr
