// The sparse matrix-vector products, in the order scipy.sparse computes them: each row's
// elements in storage order, from zero (csr_matvec), so that one point task gives scipy's
// results bit for bit (Release builds target the baseline x86-64, without fused multiply-add).
#include <legate.h>
#include <legate/redop/redop.h>

#include <cstdint>
#include <iterator>
#include <stdexcept>

#include "csr/csr_tasks.h"
#include "csr/matrix_view.h"

namespace legate_csr {
namespace {

// Rows per part where a fused task runs the product in parts on its threads (about a
// hundred thousand elements of a five-point stencil's matrix each).
constexpr legate::coord_t kRowsPerPart = 1 << 15;

// The product's raw pointers, read from the stores on the point task's thread: a part's rows
// touch no Legate object, so any thread may compute them.
template <typename T, typename I>
struct RowProduct {
  Elements<T, I> matrix;
  const T* factor;
  T* result;
  legate::coord_t first;  // the block's rows
  legate::coord_t last;

  void rows(legate::coord_t from, legate::coord_t to) const
  {
    for (legate::coord_t row = from; row <= to; ++row) {
      const legate::Rect<1>& range = matrix.ranges[row];
      T sum                        = T{0};
      for (legate::coord_t k = range.lo[0]; k <= range.hi[0]; ++k) {
        sum += matrix.values[k] * factor[matrix.columns[k]];
      }
      result[row] = sum;
    }
  }

  static void part(void* data, std::int64_t index)
  {
    const auto& product         = *static_cast<const RowProduct*>(data);
    const legate::coord_t from  = product.first + index * kRowsPerPart;
    const legate::coord_t limit = from + kRowsPerPart - 1;
    product.rows(from, limit < product.last ? limit : product.last);
  }
};

// Each row is computed alone, from zero, whichever part holds it: the same bits in parts.
template <typename T, typename I>
void multiply(const legate::PhysicalStore& y, const legate::PhysicalStore& pos,
              const legate::PhysicalStore& crd, const legate::PhysicalStore& vals,
              const legate::PhysicalStore& x, const legate_fuse_row_parts* parts)
{
  const auto rows = y.shape<1>();
  if (rows.empty()) {
    return;
  }
  const RowProduct<T, I> product{Elements<T, I>{pos, crd, vals}, base_of<T>(x),
                                 y.write_accessor<T, 1>().ptr(rows.lo) - rows.lo[0], rows.lo[0],
                                 rows.hi[0]};
  const auto count = (rows.hi[0] - rows.lo[0] + kRowsPerPart) / kRowsPerPart;
  if (parts == nullptr || count < 2) {
    product.rows(product.first, product.last);
    return;
  }
  auto* data = const_cast<RowProduct<T, I>*>(&product);
  if (parts->run_rows != nullptr) {  // part i: the block's rows from the (i * kRowsPerPart)-th
    parts->run_rows(parts->context, count, kRowsPerPart, &RowProduct<T, I>::part, data);
    return;
  }
  parts->run_each(parts->context, count, &RowProduct<T, I>::part, data);
}

template <typename T, typename I>
void multiply_transposed(const legate::PhysicalStore& y, const legate::PhysicalStore& pos,
                         const legate::PhysicalStore& crd, const legate::PhysicalStore& vals,
                         const legate::PhysicalStore& x)
{
  const auto rows = x.shape<1>();
  if (rows.empty()) {
    return;
  }
  const Elements<T, I> matrix{pos, crd, vals};
  const T* const factor = base_of<T>(x);
  const auto result     = y.reduce_accessor<legate::SumReduction<T>, true, 1>();
  for (legate::coord_t row = rows.lo[0]; row <= rows.hi[0]; ++row) {
    const legate::Rect<1>& range = matrix.ranges[row];
    const T scale                = factor[row];
    for (legate::coord_t k = range.lo[0]; k <= range.hi[0]; ++k) {
      result.reduce(matrix.columns[k], matrix.values[k] * scale);
    }
  }
}

}  // namespace

void SpmvTask::cpu_variant(legate::TaskContext context)
{
  const legate::PhysicalStore stores[] = {context.output(0).data(), context.input(0).data(),
                                          context.input(1).data(),  context.input(2).data(),
                                          context.input(3).data(),  context.input(4).data()};
  multiply_rows(stores, std::size(stores), nullptr);
}

void multiply_rows(const legate::PhysicalStore* stores, std::size_t count,
                   const legate_fuse_row_parts* parts)
{
  // (stores[5], the bounds of each row's columns, only partitions x: Legate reads it.)
  if (count != 6) {
    throw std::invalid_argument("legate_csr: a product takes y, pos, crd, vals, x and bounds");
  }
  with_element_types(stores[3].code(), stores[2].code(), [&](auto zero, auto index) {
    multiply<decltype(zero), decltype(index)>(stores[0], stores[1], stores[2], stores[3], stores[4],
                                              parts);
  });
}

void SpmvTransposeTask::cpu_variant(legate::TaskContext context)
{
  const auto y    = context.reduction(0).data();
  const auto pos  = context.input(0).data();
  const auto crd  = context.input(1).data();
  const auto vals = context.input(2).data();
  const auto x    = context.input(3).data();
  with_element_types(vals.code(), crd.code(), [&](auto zero, auto index) {
    multiply_transposed<decltype(zero), decltype(index)>(y, pos, crd, vals, x);
  });
}

}  // namespace legate_csr

extern "C" void legate_csr_multiply_rows(const legate::PhysicalStore* stores, std::size_t count,
                                         const legate_fuse_row_parts* parts)
{
  legate_csr::multiply_rows(stores, count, parts);
}
