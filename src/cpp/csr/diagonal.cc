// The main diagonal: per row, the sum of its elements in the diagonal's column (duplicates
// summed, as scipy.sparse's csr_diagonal does), zero where there is none.
#include <legate.h>

#include <cstdint>

#include "csr/csr_tasks.h"
#include "csr/matrix_view.h"

namespace legate_csr {
namespace {

template <typename T, typename I>
void diagonal(const legate::PhysicalStore& out, const legate::PhysicalStore& pos,
              const legate::PhysicalStore& crd, const legate::PhysicalStore& vals)
{
  const auto rows = out.shape<1>();
  if (rows.empty()) {
    return;
  }
  const Elements<T, I> matrix{pos, crd, vals};
  T* const result = out.write_accessor<T, 1>().ptr(rows.lo) - rows.lo[0];
  for (legate::coord_t row = rows.lo[0]; row <= rows.hi[0]; ++row) {
    const legate::Rect<1>& range = matrix.ranges[row];
    T sum                        = T{0};
    for (legate::coord_t k = range.lo[0]; k <= range.hi[0]; ++k) {
      if (matrix.columns[k] == row) {
        sum += matrix.values[k];
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
  with_element_types(vals.code(), crd.code(), [&](auto zero, auto index) {
    diagonal<decltype(zero), decltype(index)>(out, pos, crd, vals);
  });
}

}  // namespace legate_csr
