// The sparse matrix-vector products, in the order scipy.sparse computes them: each row's
// elements in storage order, from zero (csr_matvec), so that one point task gives scipy's
// results bit for bit (Release builds target the baseline x86-64, without fused multiply-add).
#include <legate.h>
#include <legate/redop/redop.h>

#include <cstdint>
#include <stdexcept>

#include "csr/csr_tasks.h"

namespace legate_csr {
namespace {

template <typename T>
void multiply(const legate::PhysicalStore& y, const legate::PhysicalStore& pos,
              const legate::PhysicalStore& crd, const legate::PhysicalStore& vals,
              const legate::PhysicalStore& x)
{
  const auto rows = y.shape<1>();
  if (rows.empty()) {
    return;
  }
  const auto row_ranges = pos.read_accessor<legate::Rect<1>, 1>();
  const auto columns    = crd.read_accessor<std::int64_t, 1>();
  const auto values     = vals.read_accessor<T, 1>();
  const auto factor     = x.read_accessor<T, 1>();
  const auto result     = y.write_accessor<T, 1>();
  for (legate::coord_t row = rows.lo[0]; row <= rows.hi[0]; ++row) {
    const legate::Rect<1> range = row_ranges[row];
    T sum                       = T{0};
    for (legate::coord_t k = range.lo[0]; k <= range.hi[0]; ++k) {
      sum += values[k] * factor[columns[k]];
    }
    result[row] = sum;
  }
}

template <typename T>
void multiply_transposed(const legate::PhysicalStore& y, const legate::PhysicalStore& pos,
                         const legate::PhysicalStore& crd, const legate::PhysicalStore& vals,
                         const legate::PhysicalStore& x)
{
  const auto rows = x.shape<1>();
  if (rows.empty()) {
    return;
  }
  const auto row_ranges = pos.read_accessor<legate::Rect<1>, 1>();
  const auto columns    = crd.read_accessor<std::int64_t, 1>();
  const auto values     = vals.read_accessor<T, 1>();
  const auto factor     = x.read_accessor<T, 1>();
  const auto result     = y.reduce_accessor<legate::SumReduction<T>, true, 1>();
  for (legate::coord_t row = rows.lo[0]; row <= rows.hi[0]; ++row) {
    const legate::Rect<1> range = row_ranges[row];
    const T scale               = factor[row];
    for (legate::coord_t k = range.lo[0]; k <= range.hi[0]; ++k) {
      result.reduce(columns[k], values[k] * scale);
    }
  }
}

}  // namespace

void SpmvTask::cpu_variant(legate::TaskContext context)
{
  const auto y    = context.output(0).data();
  const auto pos  = context.input(0).data();
  const auto crd  = context.input(1).data();
  const auto vals = context.input(2).data();
  const auto x    = context.input(3).data();
  switch (vals.code()) {
    case legate::Type::Code::FLOAT32:
      multiply<float>(y, pos, crd, vals, x);
      break;
    case legate::Type::Code::FLOAT64:
      multiply<double>(y, pos, crd, vals, x);
      break;
    default:
      throw std::invalid_argument("legate_csr: values must be float32 or float64");
  }
}

void SpmvTransposeTask::cpu_variant(legate::TaskContext context)
{
  const auto y    = context.reduction(0).data();
  const auto pos  = context.input(0).data();
  const auto crd  = context.input(1).data();
  const auto vals = context.input(2).data();
  const auto x    = context.input(3).data();
  switch (vals.code()) {
    case legate::Type::Code::FLOAT32:
      multiply_transposed<float>(y, pos, crd, vals, x);
      break;
    case legate::Type::Code::FLOAT64:
      multiply_transposed<double>(y, pos, crd, vals, x);
      break;
    default:
      throw std::invalid_argument("legate_csr: values must be float32 or float64");
  }
}

}  // namespace legate_csr
